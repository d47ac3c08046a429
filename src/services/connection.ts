import * as vscode from 'vscode';
import * as l10n from '@vscode/l10n';
import { offerCommand } from '../ui/notify';
import { createClient, wrapEachCall } from '../api/client';
import { parseServiceUrl } from '../api/serviceUrl';
import { RATE_LIMIT } from '../api/rateLimit';
import type { ReportsApi } from '../api/types';
import type { Log } from '../log';
import type { ConnectionApi, ConnectionState, ServiceHealth } from '../parts';
import { deleteKey, indexedOrigins, readKey, secretKeyFor, storeKey } from './keyIndex';
import { forgetService, knownServices, rememberService } from './knownServices';
import { serviceName } from './labels';
import { globalMemento } from '../stores/globalMemento';
import { isApiError, KEY_REMOVED, keyReplacedError, SERVICE_CHANGED, serviceChangedError } from '../api/errors';
import { noteState, rawServiceUrl } from './stateNote';
import { Command, ContextKey, GlobalStateKey, Setting } from '../ids';
import { redactSecret } from '../text/text';

export { secretKeyFor };

/** Settings section of the extension. */
const DEFAULT_TIMEOUT_S = 30;
/** Origins the user has confirmed an unencrypted (`http:`, not loopback) connection to. */
const INSECURE_ALLOWED = GlobalStateKey.insecureOriginsAllowed;

/** The request timeout setting in milliseconds, bounded to the setting's 1-600 s. */
export function requestTimeoutMs(): number {
  const seconds = vscode.workspace.getConfiguration().get<number>(Setting.requestTimeout, DEFAULT_TIMEOUT_S);
  const bounded = Number.isFinite(seconds) ? Math.min(600, Math.max(1, seconds)) : DEFAULT_TIMEOUT_S;
  return bounded * 1000;
}

/** What the service URL setting currently says, checked. */
type UrlReading =
  | { kind: 'none' }
  | { kind: 'invalid'; raw: string; error: string }
  | { kind: 'unconfirmedInsecure'; url: string; origin: string }
  | { kind: 'ok'; url: string; origin: string };

/**
 * The connection to the service: the URL from the application-scoped setting, the key from
 * SecretStorage for that URL's origin, and a client built from both. Built once by `main.ts`;
 * the `ContextKey.state` context key shows a best guess until the first read is done.
 */
export class Connection implements ConnectionApi, vscode.Disposable {
  #current: UrlReading = { kind: 'none' };
  /** The setting as last read, for the state note. */
  #rawUrl = '';
  #key: string | undefined;
  /** Origin the cached key belongs to: a client only ever sends a key of its own origin. */
  #keyOrigin: string | undefined;
  #keyLoaded = false;
  #client: { api: ReportsApi; url: string; timeoutMs: number } | undefined;
  #timeoutMs = requestTimeoutMs();
  /** Bumped by every reload, so a slow secret read never overwrites a newer one. */
  #generation = 0;
  /** Counts key changes, so listeners hear of a new key without seeing it. */
  #keyVersion = 0;
  #lastSnapshot: string | undefined;
  /** The secret read started by the last change of origin (never rejects). */
  #pendingLoad: Promise<void> = Promise.resolve();
  #lastContextState: ConnectionState | undefined;
  #warnedInvalid: string | undefined;
  #warnedInsecure: string | undefined;
  readonly #emitter = new vscode.EventEmitter<void>();
  readonly #disposables: vscode.Disposable[] = [];

  readonly #healthEmitter = new vscode.EventEmitter<ServiceHealth>();
  readonly #servicesEmitter = new vscode.EventEmitter<void>();
  #health: ServiceHealth = { kind: 'unknown' };

  readonly onDidChange = this.#emitter.event;
  /** What the answers (or their absence) of the current service say about it, for the status bar. */
  readonly onDidChangeHealth = this.#healthEmitter.event;
  readonly onDidChangeServices = this.#servicesEmitter.event;

  constructor(
    readonly context: vscode.ExtensionContext,
    private readonly log: Log,
  ) {
    this.#disposables.push(
      this.#emitter,
      this.#healthEmitter,
      this.#servicesEmitter,
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(Setting.serviceUrl)) {
          void this.#reload();
        } else if (e.affectsConfiguration(Setting.requestTimeout)) {
          this.#timeoutMs = requestTimeoutMs();
          this.#publish();
        }
      }),
      // Fires for changes made in other windows too.
      context.secrets.onDidChange((e) => {
        const origin = this.origin;
        if (origin !== undefined && e.key === secretKeyFor(origin)) void this.#loadKey(this.#generation);
      }),
    );
    void this.#reload();
  }

  get ready(): Promise<void> {
    return this.#pendingLoad;
  }

  get state(): ConnectionState {
    if (this.#current.kind !== 'ok') return 'noUrl';
    return this.#keyLoaded && this.#key !== undefined ? 'ready' : 'noKey';
  }

  get serviceUrl(): string | undefined {
    return this.#current.kind === 'ok' ? this.#current.url : undefined;
  }

  get origin(): string | undefined {
    return this.#current.kind === 'ok' ? this.#current.origin : undefined;
  }

  get requestTimeoutMs(): number {
    return this.#timeoutMs;
  }

  get api(): ReportsApi | undefined {
    if (this.state !== 'ready' || this.#current.kind !== 'ok') return undefined;
    const { url } = this.#current;
    if (this.#client?.url !== url || this.#client.timeoutMs !== this.#timeoutMs) {
      const origin = this.#current.origin;
      this.#client = {
        url,
        timeoutMs: this.#timeoutMs,
        api: this.#watched(
          url,
          createClient({
            baseUrl: url,
            // Read at request time: a key changed in another window applies at once, and a
            // client outliving a switch of servers sends no key rather than the wrong one.
            getKey: () => (this.#keyOrigin === origin ? this.#key : undefined),
            timeoutMs: this.#timeoutMs,
            onRequest: (entry) => this.log.request(entry),
          }),
        ),
      };
    }
    return this.#client.api;
  }

  async storeKey(origin: string, key: string): Promise<void> {
    await storeKey(this.context.secrets, this.context.globalState, origin, key);
    if (origin === this.origin) await this.#loadKey(this.#generation);
  }

  async removeKey(origin: string | undefined = this.origin): Promise<void> {
    if (origin === undefined) return;
    await deleteKey(this.context.secrets, this.context.globalState, origin);
    if (origin === this.origin) await this.#loadKey(this.#generation);
  }

  /**
   * Drops `url` from the known services. The current service's label in the views may go with
   * it: it names the service only while several are known.
   */
  async forgetService(url: string): Promise<void> {
    await forgetService(this.context.globalState, url);
    this.#servicesEmitter.fire();
  }

  originsWithKey(): string[] {
    return indexedOrigins(this.context.globalState);
  }

  labelOf(url: string): string {
    return serviceName(
      url,
      knownServices(this.context.globalState).map((s) => s.url),
    );
  }

  get distinguishingLabel(): string | undefined {
    const url = this.serviceUrl;
    if (url === undefined) return undefined;
    const known = knownServices(this.context.globalState).map((s) => s.url);
    return new Set([url, ...known]).size > 1 ? this.labelOf(url) : undefined;
  }

  get health(): ServiceHealth {
    if (this.state === 'noKey') return { kind: 'noKey' };
    return this.#health;
  }

  /**
   * The client with every call's outcome noted as the service's health: an answer means connected;
   * a 401 a rejected key; no answer unreachable (since the first failure); a 429 rate limited
   * (until the time its Retry-After gave, or for a minute, then connected again). Outcomes of calls
   * sent with a key that has been replaced since are ignored (a write answered 401 after the user
   * put the right key in), and such a 401 fails as the old key's (`keyReplacedError`: its message
   * offers Retry, not Set API Key). Outcomes of a client for another URL than the current one are
   * ignored too, and such a client sends nothing more: a command still running after the user
   * switched service (a batch, a pick left open) would otherwise send its next request without a
   * key (the key goes to its own origin only) and be told the key was rejected.
   */
  #watched(url: string, api: ReportsApi): ReportsApi {
    const note = (health: ServiceHealth): void => {
      if (this.serviceUrl !== url) return;
      if (health.kind === 'unreachable' && this.#health.kind === 'unreachable') return; // keep the first "since"
      // Each 429 is noted, even one like the last: its wait starts again.
      if (health.kind !== 'rateLimited' && JSON.stringify(health) === JSON.stringify(this.#health)) return;
      this.#health = health;
      this.#healthEmitter.fire(this.health);
      // A 429 is an answer: once its wait is over, the service is as reachable as it was, and "Rate
      // limited until 10:32" would be stale.
      // setTimeout takes at most 2 ** 31 - 1 ms.
      if (health.kind === 'rateLimited')
        setTimeout(
          () => this.#health === health && note({ kind: 'connected' }),
          Math.min((health.until ?? Date.now() + RATE_LIMIT.windowMs) - Date.now(), 2 ** 31 - 1),
        );
    };
    const onError = (error: unknown): void => {
      if (!isApiError(error)) return;
      if (error.kind === 'unauthorized') note({ kind: 'rejected' });
      else if (error.kind === 'network' || error.kind === 'timeout') note({ kind: 'unreachable', since: Date.now() });
      else if (error.kind === 'rateLimited')
        note({
          kind: 'rateLimited',
          until: error.retryAfter === undefined ? undefined : Date.now() + error.retryAfter * 1000,
        });
      else if (error.kind !== 'cancelled' && error.status !== undefined) note({ kind: 'connected' });
    };
    const wrap =
      <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
      async (...args: A): Promise<R> => {
        if (this.serviceUrl !== url) throw serviceChangedError(url);
        // Removed (its read is done); a key still being read means the user switched away and back.
        if (this.state === 'noKey') throw serviceChangedError(url, this.#keyLoaded ? KEY_REMOVED : SERVICE_CHANGED);
        // An answer to a key the user has replaced since says nothing of the new one.
        const keyVersion = this.#keyVersion;
        const sameKey = (): boolean => keyVersion === this.#keyVersion;
        try {
          const result = await call(...args);
          if (sameKey()) note({ kind: 'connected' });
          return result;
        } catch (error) {
          if (sameKey()) onError(error);
          else if (isApiError(error, 'unauthorized')) throw keyReplacedError(error);
          throw error;
        }
      };
    return wrapEachCall(api, wrap);
  }

  async allowInsecure(origin: string): Promise<void> {
    const state = globalMemento(this.context.globalState);
    const allowed = state.get<string[]>(INSECURE_ALLOWED, []);
    if (!allowed.includes(origin)) await state.update(INSECURE_ALLOWED, [...allowed, origin]);
  }

  isInsecureAllowed(origin: string): boolean {
    return globalMemento(this.context.globalState).get<string[]>(INSECURE_ALLOWED, []).includes(origin);
  }

  reloadNow(): Promise<void> {
    return this.#reload();
  }

  /**
   * Replaces every occurrence of the current key in `text` (`redactSecret`). Defence in depth
   * for text that leaves the extension (every log line, messages): no code path puts the key there.
   */
  redact(text: string): string {
    return redactSecret(text, this.#key);
  }

  dispose(): void {
    for (const d of this.#disposables) d.dispose();
  }

  /**
   * Reads the setting synchronously; starts the secret read when the origin changed.
   * Resolves when the key of the (new) origin is known.
   */
  #reload(): Promise<void> {
    const beforeOrigin = this.origin;
    const beforeUrl = this.serviceUrl;
    this.#current = this.#readUrl();
    // A newly current service joins the known ones (Switch Service…), once per change: a late
    // configuration event for the same URL must not list a service removed meanwhile again.
    if (this.#current.kind === 'ok' && this.#current.url !== beforeUrl) {
      rememberService(this.context.globalState, this.#current.url, Date.now()).then(undefined, () => undefined);
    }
    // Another service, if only another path on the same origin: what the last one's answers taught is not its.
    if (this.serviceUrl !== beforeUrl) this.#health = { kind: 'unknown' };
    if (this.origin !== beforeOrigin) {
      // Forget the old origin's key before anything can use it with the new URL.
      this.#generation++;
      this.#key = undefined;
      this.#keyOrigin = undefined;
      this.#keyLoaded = false;
      this.#keyVersion++;
      this.#pendingLoad = this.origin !== undefined ? this.#loadKey(this.#generation) : Promise.resolve();
    }
    this.#publish();
    return this.#pendingLoad;
  }

  #readUrl(): UrlReading {
    const raw = rawServiceUrl(vscode.workspace.getConfiguration().get<string>(Setting.serviceUrl));
    this.#rawUrl = raw;
    if (raw === '') return { kind: 'none' };
    const parsed = parseServiceUrl(raw);
    if (!parsed.ok) {
      if (this.#warnedInvalid !== raw) {
        this.#warnedInvalid = raw;
        this.log.warn(`The setting ${Setting.serviceUrl} is not a usable service URL: ${parsed.error}`);
        this.#offer(l10n.t('The setting {0} is not a usable service URL: {1}', Setting.serviceUrl, parsed.error));
      }
      return { kind: 'invalid', raw, error: parsed.error };
    }
    const origin = new URL(parsed.url).origin;
    if (parsed.insecure && !this.isInsecureAllowed(origin)) {
      if (this.#warnedInsecure !== origin) {
        this.#warnedInsecure = origin;
        this.log.warn(`Not connecting to ${origin}: http: to a host that is not this machine needs a confirmation.`);
        this.#offer(
          l10n.t(
            'The service URL {0} uses http: to another machine, so the API key would travel unencrypted. Confirm it with Set Service URL, or use https:.',
            origin,
          ),
        );
      }
      return { kind: 'unconfirmedInsecure', url: parsed.url, origin };
    }
    return { kind: 'ok', url: parsed.url, origin };
  }

  /** A warning with a way forward; not awaited (activation never waits for the user). */
  #offer(message: string): void {
    offerCommand(vscode.window.showWarningMessage, message, l10n.t('Set Service URL…'), Command.setServiceUrl);
  }

  /** Reads the key of the current origin; ignored when a newer reload started meanwhile. */
  async #loadKey(generation: number): Promise<void> {
    const origin = this.origin;
    if (origin === undefined) return;
    const key = await readKey(this.context.secrets, this.context.globalState, origin);
    if (generation !== this.#generation || origin !== this.origin) return;
    if (!this.#keyLoaded || key !== this.#key) {
      this.#keyVersion++;
      // What the old key's answers taught (rejected, say) is not true of the new one.
      this.#health = { kind: 'unknown' };
    }
    this.#key = key;
    this.#keyOrigin = origin;
    this.#keyLoaded = true;
    this.#publish();
  }

  /**
   * Updates the context key, and fires onDidChange when the state, the URL or the key (by a
   * counter) changed. Not for a new timeout: lists and panels must not start over for that.
   */
  #publish(): void {
    const state = this.state;
    const contextState = this.#guessContextState(state);
    if (contextState !== this.#lastContextState) {
      this.#lastContextState = contextState;
      void vscode.commands.executeCommand('setContext', ContextKey.state, contextState);
      noteState(this.context.globalState, this.#rawUrl, contextState);
    }
    const snapshot = `${state} ${this.serviceUrl ?? ''} ${this.#keyVersion}`;
    if (snapshot !== this.#lastSnapshot) {
      this.#lastSnapshot = snapshot;
      this.#emitter.fire();
    }
  }

  /**
   * Before the secret is read, the context key shows what the last session knew, so a
   * connected user never sees a flash of the "add your key" welcome.
   */
  #guessContextState(state: ConnectionState): ConnectionState {
    if (state !== 'noKey' || this.#keyLoaded) return state;
    const origin = this.origin;
    const hinted = origin !== undefined && indexedOrigins(this.context.globalState).includes(origin);
    return hinted ? 'ready' : 'noKey';
  }
}
