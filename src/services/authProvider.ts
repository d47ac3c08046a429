/**
 * The extension's authentication provider (`AUTH_PROVIDER_ID`): every service origin with a stored API key is a
 * session in VS Code's Accounts menu (`<label> (Page Reports)`), with Sign Out removing that
 * origin's key and only it. The provider reads SecretStorage and the key index in global state
 * (`keyIndex.ts`) and nothing else: registering it at startup touches no network and loads
 * none of `main.ts`. The extension itself never asks VS Code for a session (that asks the
 * user for consent); it reads its keys from its own SecretStorage per origin.
 */
import * as vscode from 'vscode';
import * as l10n from '@vscode/l10n';
import { deleteKey, indexedOrigins, originOfSecretKey, readKey } from '../services/keyIndex';
import { originOf, serviceLabel } from '../services/labels';
import { AUTH_PROVIDER_ID, Setting } from '../ids';

export const AUTH_PROVIDER_LABEL = 'Page Reports';

/**
 * Runs Set API Key… for the current service (an interactive flow in `main.ts`) and resolves
 * the origin whose key it stored, or undefined when the user gave up.
 */
export type CreateKey = () => Promise<string | undefined>;

/**
 * The {@link CreateKey} of a Set API Key… run (`setApiKey` resolves true when it stored a key):
 * the origin of the service URL setting then.
 */
export function keyCreator(setApiKey: () => Promise<unknown>): CreateKey {
  return async () => {
    const stored = await setApiKey();
    const url = vscode.workspace.getConfiguration().get<string>(Setting.serviceUrl) ?? '';
    return stored === true ? originOf(url.trim()) : undefined;
  };
}

export class PageReportsAuthProvider implements vscode.AuthenticationProvider, vscode.Disposable {
  readonly #emitter = new vscode.EventEmitter<vscode.AuthenticationProviderAuthenticationSessionsChangeEvent>();
  readonly #disposables: vscode.Disposable[] = [this.#emitter];
  /** Sessions as last told to VS Code, by origin, to say which were added, removed or changed. */
  readonly #told = new Map<string, vscode.AuthenticationSession>();

  readonly onDidChangeSessions = this.#emitter.event;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly createKey: CreateKey,
  ) {
    this.#disposables.push(
      // Fires for changes in other windows too: a key stored, replaced or removed anywhere.
      context.secrets.onDidChange((e) => {
        const origin = originOfSecretKey(e.key);
        if (origin !== undefined) void this.#refresh(origin);
      }),
    );
  }

  /** Every origin with a key; `scopes` are ignored (a key has no scopes). */
  async getSessions(): Promise<vscode.AuthenticationSession[]> {
    const sessions: vscode.AuthenticationSession[] = [];
    for (const origin of indexedOrigins(this.context.globalState)) {
      const session = await this.#session(origin);
      if (session) {
        sessions.push(session);
        this.#told.set(origin, session);
      }
    }
    return sessions;
  }

  /** Set API Key… for the current service; its session once the key is checked and stored. */
  async createSession(): Promise<vscode.AuthenticationSession> {
    const origin = await this.createKey();
    const session = origin === undefined ? undefined : await this.#session(origin);
    if (!session) throw new Error(l10n.t('No API key was stored.'));
    return session;
  }

  /** Sign Out: removes the key of that origin (the session id) and only it. */
  async removeSession(sessionId: string): Promise<void> {
    await deleteKey(this.context.secrets, this.context.globalState, sessionId);
    await this.#refresh(sessionId);
  }

  dispose(): void {
    for (const d of this.#disposables) d.dispose();
  }

  async #session(origin: string): Promise<vscode.AuthenticationSession | undefined> {
    const key = await readKey(this.context.secrets, this.context.globalState, origin);
    if (key === undefined) return undefined;
    // The session's token is the API key itself: VS Code hands it only to extensions the user allows.
    return { id: origin, accessToken: key, account: { id: origin, label: serviceLabel(origin) }, scopes: [] };
  }

  /** Re-reads one origin's key and tells VS Code what changed. */
  async #refresh(origin: string): Promise<void> {
    const before = this.#told.get(origin);
    const after = await this.#session(origin);
    if (after) this.#told.set(origin, after);
    else this.#told.delete(origin);
    if (!before && after) this.#emitter.fire({ added: [after], removed: [], changed: [] });
    else if (before && after) this.#emitter.fire({ added: [], removed: [], changed: [after] });
    else {
      // Gone, whether or not this window had told VS Code about it: the session id is the origin.
      const removed = before ?? {
        id: origin,
        accessToken: '',
        account: { id: origin, label: serviceLabel(origin) },
        scopes: [],
      };
      this.#emitter.fire({ added: [], removed: [removed], changed: [] });
    }
  }
}

/** Registers the provider (no network, no `main.ts`). */
export function registerAuthProvider(
  context: vscode.ExtensionContext,
  createKey: CreateKey,
): vscode.Disposable & { readonly provider: PageReportsAuthProvider } {
  const provider = new PageReportsAuthProvider(context, createKey);
  const registration = vscode.authentication.registerAuthenticationProvider(
    AUTH_PROVIDER_ID,
    AUTH_PROVIDER_LABEL,
    provider,
    {
      supportsMultipleAccounts: true,
    },
  );
  return { provider, dispose: () => vscode.Disposable.from(registration, provider).dispose() };
}
