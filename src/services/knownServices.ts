/**
 * The services the user has used or added, for Switch Service…: their URLs and when each was
 * last the current one, in global state. URLs only: the keys stay in SecretStorage, per origin
 * (`keyIndex.ts`).
 */
import type * as vscode from 'vscode';
import { globalMemento } from '../stores/globalMemento';
import { GlobalStateKey } from '../ids';

const KNOWN_SERVICES = GlobalStateKey.knownServices;

export interface KnownService {
  /** The normalized service URL (as `parseServiceUrl` returns it). */
  readonly url: string;
  /** Epoch ms when it was last the current service; 0 when added and never used. */
  readonly lastUsed: number;
}

function isKnownService(value: unknown): value is KnownService {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.url === 'string' && typeof v.lastUsed === 'number';
}

/** The known services, most recently used first. */
export function knownServices(memento: vscode.Memento): KnownService[] {
  const value = globalMemento(memento).get<unknown>(KNOWN_SERVICES, []);
  const list = Array.isArray(value) ? value.filter(isKnownService) : [];
  return [...list].sort((a, b) => b.lastUsed - a.lastUsed);
}

async function save(memento: vscode.Memento, list: KnownService[]): Promise<void> {
  await globalMemento(memento).update(KNOWN_SERVICES, list);
}

/** Lists `url` (once), with `lastUsed` set to `when` when given. */
export async function rememberService(memento: vscode.Memento, url: string, when?: number): Promise<void> {
  const list = knownServices(memento);
  const existing = list.find((s) => s.url === url);
  if (existing && (when === undefined || existing.lastUsed === when)) return;
  const lastUsed = when ?? existing?.lastUsed ?? 0;
  await save(memento, [{ url, lastUsed }, ...list.filter((s) => s.url !== url)]);
}

/** Drops `url` from the list. */
export async function forgetService(memento: vscode.Memento, url: string): Promise<void> {
  const list = knownServices(memento);
  if (list.some((s) => s.url === url))
    await save(
      memento,
      list.filter((s) => s.url !== url),
    );
}
