/**
 * The connection state as last published, kept in global state with the service URL setting
 * it was worked out for. `activate` sets the `ContextKey.state` context key from it without
 * loading the connection (which parses the URL and reads the secret, and waits until a view
 * or command needs it). Holds no secret.
 */
import type * as vscode from 'vscode';
import type { ConnectionState } from '../parts';
import { globalMemento } from '../stores/globalMemento';
import { GlobalStateKey } from '../ids';

const STATE_NOTE = GlobalStateKey.stateNote;
/** The context key that drives the welcome views and menus. */

interface StateNote {
  url: string;
  state: ConnectionState;
}

/** The setting as the connection reads it. */
export function rawServiceUrl(configured: string | undefined): string {
  return (configured ?? '').trim();
}

/**
 * The state for the setting `raw`: `noUrl` without a URL, the note's state when it was
 * written for this same setting, else undefined (unknown until the connection reads it).
 */
export function notedState(memento: vscode.Memento, raw: string): ConnectionState | undefined {
  if (raw === '') return 'noUrl';
  const note = globalMemento(memento).get<Partial<StateNote>>(STATE_NOTE);
  const state = note?.url === raw ? note.state : undefined;
  return state === 'noUrl' || state === 'noKey' || state === 'ready' ? state : undefined;
}

/** Records the published state; a failed write only costs the next start's first guess. */
export function noteState(memento: vscode.Memento, raw: string, state: ConnectionState): void {
  const note: StateNote = { url: raw, state };
  globalMemento(memento)
    .update(STATE_NOTE, note)
    .then(undefined, () => undefined);
}
