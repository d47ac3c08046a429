/**
 * The HTTP layer of the client, over the platform `fetch`: the key added per request, a
 * timeout per attempt (covering the body read), bounded retries for reads only, redirects
 * followed by hand so the key never leaves the service's origin, one log entry per
 * exchange, and every failure as `ApiError`. Imports no `vscode`.
 *
 * Hand-written rather than over a request library: it needs only these few rules, and
 * every list request pays for whatever a library adds (bundle bytes and time per call).
 */
import {
  browserFetchError,
  hiddenRedirectError,
  hiddenRetryAfterWait,
  isBrowserFetchFailure,
  withHiddenRetryAfter,
} from './browser';
import { ApiError } from './errors';
import { errorForStatus, isFetchNetworkFailure, networkReason, parseRetryAfter, type RequestTarget } from './failures';
import type { RequestLogEntry } from './types';

export interface TransportOptions {
  /** Normalized service base URL, no trailing slash (see `parseServiceUrl`). */
  baseUrl: string;
  getKey: () => string | undefined | Promise<string | undefined>;
  timeoutMs: number;
  retryLimit: number;
  /** Cap on the sum of all waits between retries of one request. */
  retryMaxWaitMs: number;
  onRequest: ((entry: RequestLogEntry) => void) | undefined;
  fetch: typeof fetch | undefined;
}

export interface RequestSpec {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Path under the base URL, segments already encoded, e.g. `api/v1/reports/42`. */
  path: string;
  /** Query string without `?`, already encoded; '' or undefined for none. */
  query?: string;
  /** Form fields; sent as `application/x-www-form-urlencoded`. */
  form?: URLSearchParams;
  signal?: AbortSignal | undefined;
}

/** A 2xx answer, body read as text. */
export interface Answer {
  status: number;
  text: string;
  target: RequestTarget;
}

/** One attempt's HTTP answer (any status), body read. */
interface Exchange {
  status: number;
  /** The fetch `Response.type`: in a browser, `opaqueredirect` or `cors` (see ./browser). */
  type: string;
  headers: Headers;
  text: string;
}

/** Statuses a read is retried on: timeouts, rate limits and transient server faults. */
export const RETRY_STATUSES: readonly number[] = [408, 429, 500, 502, 503, 504];
const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES: readonly number[] = [301, 302, 303, 307, 308];
/** First backoff when the server gave no `Retry-After`; doubles per retry. */
const BACKOFF_MS = 300;
/** Network failures retrying cannot fix. */
const PERMANENT_NETWORK_REASONS = new Set(['ENOTFOUND', 'bad port', 'ERR_INVALID_URL']);
/** What may follow `Bearer `: visible ASCII. Anything else would be rejected by `Headers` with the value in the message. */
const KEY_CHARS = /^[\x21-\x7e]+$/;
const FORM_TYPE = 'application/x-www-form-urlencoded;charset=UTF-8';

/** Marks the abort of an attempt by its own timer, to tell it from the caller's abort. */
class AttemptTimeout extends Error {
  constructor() {
    super('timeout');
    this.name = 'TimeoutError';
  }
}

export class Transport {
  private readonly origin: string;
  private readonly host: string;
  /** The base URL's path without a trailing slash ('' for a bare origin). */
  private readonly basePath: string;

  constructor(private readonly options: TransportOptions) {
    const base = new URL(options.baseUrl);
    this.origin = base.origin;
    this.host = base.host;
    this.basePath = base.pathname.replace(/\/+$/, '');
  }

  /**
   * Sends one request and answers `read` of its 2xx response, or throws `ApiError`. Reads (GET) are
   * retried on `RETRY_STATUSES` and dropped connections, honouring `Retry-After`, at most
   * `retryLimit` times and `retryMaxWaitMs` of waiting in all; other methods are sent once.
   * Same-origin redirects are followed (any for GET, only 307/308 for writes); a redirect to
   * another origin is refused with kind `redirect`, so the key is never sent there.
   */
  async send<T>(spec: RequestSpec, read: (answer: Answer) => T): Promise<T> {
    const method: string = spec.method;
    const query = spec.query ?? '';
    // Built as text: the path segments and the query are already encoded, so this is what
    // `new URL` would make of them, without parsing on every request.
    let path = `${this.basePath}/${spec.path}${query === '' ? '' : `?${query}`}`;
    let url = `${this.origin}${path}`;
    const body = spec.form?.toString();
    for (let hop = 0; ; hop++) {
      const target: RequestTarget = { method, host: this.host, path };
      const started = performance.now();
      let retries = 0;
      const log = (status: number | undefined, error?: string): void => {
        const entry: RequestLogEntry = { method, path, status, durationMs: performance.now() - started, retries };
        if (error !== undefined) entry.error = error;
        try {
          this.options.onRequest?.(entry);
        } catch {
          // A failing logger must not fail the request.
        }
      };
      let answer: Exchange;
      try {
        answer = await this.exchange(url, target, body, spec.signal, (count) => (retries = count));
      } catch (error) {
        if (error instanceof ApiError) log(error.status, error.status === undefined ? (error.reason ?? error.kind) : undefined);
        else log(undefined, 'unexpected error');
        throw error;
      }
      const { status, headers, text } = answer;
      if (status < 300) {
        try {
          const value = read({ status, text, target });
          log(status);
          return value;
        } catch (error) {
          log(status, error instanceof ApiError ? (error.reason ?? error.kind) : 'unexpected error');
          throw error;
        }
      }
      log(status);
      const location = headers.get('location');
      const next = location === null ? undefined : safeUrl(location, url);
      if (next !== undefined && REDIRECT_STATUSES.includes(status) && next.origin !== this.origin) {
        throw new ApiError(
          { kind: 'redirect', ...target, status, redirectTo: next.origin },
          `The service at ${target.host} redirected ${target.method} ${target.path} to another origin (${next.origin}); it was not followed, so the API key is not sent there.`,
        );
      }
      // A write is only re-sent where a 307/308 says the same request belongs; 301/302/303
      // would turn it into a GET (fetch semantics), which is never what a write meant.
      const followable = method === 'GET' ? REDIRECT_STATUSES : [307, 308];
      if (next === undefined || !followable.includes(status)) throw errorForStatus(target, status, headers, text, undefined);
      if (hop + 1 >= MAX_REDIRECTS) {
        throw new ApiError(
          { kind: 'redirect', ...target, status, reason: 'too many redirects' },
          `The service at ${target.host} redirected ${target.method} ${target.path} more than ${MAX_REDIRECTS} times.`,
        );
      }
      // Only GETs reach here with 301/302/303, so method and body stay as they are.
      url = next.href;
      path = `${next.pathname}${next.search}`;
    }
  }

  /**
   * One request with its retries (reads only): answers the first answer that is not to be
   * retried, status < 400 or not; throws ApiError for a status ≥ 400 and for every failure
   * without an answer. `onRetry` is told the count before each retry is sent.
   */
  private async exchange(
    url: string,
    target: RequestTarget,
    body: string | undefined,
    signal: AbortSignal | undefined,
    onRetry: (count: number) => void,
  ): Promise<Exchange> {
    let key: string | undefined;
    try {
      if (signal?.aborted) throw signal.reason;
      const asked = this.options.getKey();
      // A key at hand is used at once; only a promised one costs a turn of the event loop.
      key = (typeof asked === 'object' ? await asked : asked)?.trim();
      const headers: Record<string, string> = { Accept: 'application/json' };
      if (key !== undefined && key !== '') {
        if (!KEY_CHARS.test(key)) {
          throw new ApiError(
            { kind: 'unauthorized', ...target, reason: 'invalid key characters' },
            'The API key contains characters that cannot be sent in an HTTP header; set it again.',
          );
        }
        headers.Authorization = `Bearer ${key}`;
      }
      if (body !== undefined) headers['Content-Type'] = FORM_TYPE;
      const init: RequestInit = { method: target.method, headers, body, redirect: 'manual' };
      const isRead = target.method === 'GET';
      let waitedMs = 0;
      for (let retry = 0; ; ) {
        let answer: Exchange | undefined;
        let failure: unknown;
        try {
          answer = await this.attempt(url, init, signal);
        } catch (error) {
          failure = error;
        }
        const wait = isRead && retry < this.options.retryLimit ? this.retryWait(answer, failure, retry + 1) : undefined;
        if (wait === undefined || waitedMs + wait > this.options.retryMaxWaitMs) {
          if (answer === undefined) throw failure;
          // In a browser (./browser): a redirect it made opaque, a Retry-After it hid.
          const hidden = hiddenRedirectError(answer, target);
          if (hidden) throw hidden;
          if (answer.status >= 400) {
            throw withHiddenRetryAfter(errorForStatus(target, answer.status, answer.headers, answer.text, key), answer);
          }
          return answer;
        }
        waitedMs += wait;
        await delay(wait, signal);
        onRetry(++retry);
      }
    } catch (error) {
      throw (
        this.toApiError(error, target, signal) ??
        (await browserFetchError(error, target, this.origin, this.options.fetch ?? fetch)) ??
        error
      );
    }
  }

  /**
   * One fetch and its body read, within `timeoutMs`: one timer and one AbortController per
   * attempt, both let go as soon as the body is in. The caller's signal aborts it too.
   */
  private async attempt(url: string, init: RequestInit, signal: AbortSignal | undefined): Promise<Exchange> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new AttemptTimeout()), this.options.timeoutMs);
    const onAbort = (): void => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort);
    try {
      if (signal?.aborted) throw signal.reason;
      init.signal = controller.signal;
      const fetcher = this.options.fetch ?? fetch;
      const response = await fetcher(url, init);
      const text = await response.text();
      return { status: response.status, type: response.type, headers: response.headers, text };
    } catch (error) {
      // Whatever the fetch reported, an attempt cut short by its timer is a timeout.
      throw controller.signal.reason instanceof AttemptTimeout && !signal?.aborted ? controller.signal.reason : error;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Milliseconds to wait before retry number `retryCount`, or undefined when not to retry. */
  private retryWait(answer: Exchange | undefined, failure: unknown, retryCount: number): number | undefined {
    if (answer !== undefined) {
      if (!RETRY_STATUSES.includes(answer.status)) return undefined;
      const after = parseRetryAfter(answer.headers.get('retry-after')) ?? hiddenRetryAfterWait(answer);
      if (after !== undefined) return after;
    } else if (
      failure instanceof AttemptTimeout ||
      failure instanceof ApiError ||
      !(isFetchNetworkFailure(failure) || isBrowserFetchFailure(failure))
    ) {
      // Timeouts (the user already waited the whole timeout), aborts and anything unexpected.
      return undefined;
    } else if (PERMANENT_NETWORK_REASONS.has(networkReason(failure))) {
      return undefined;
    }
    return BACKOFF_MS * 2 ** (retryCount - 1);
  }

  /** The ApiError for a failed exchange; undefined for errors that are not HTTP failures (bugs), which are rethrown. */
  private toApiError(error: unknown, target: RequestTarget, signal: AbortSignal | undefined): ApiError | undefined {
    if (error instanceof ApiError) return error;
    // Checked first: an abort surfaces as whatever the fetch or the retry wait was doing.
    if (signal?.aborted) {
      return new ApiError({ kind: 'cancelled', ...target, reason: 'cancelled', cause: error }, `${target.method} ${target.path} was cancelled.`);
    }
    if (error instanceof AttemptTimeout) {
      const timeoutMs = this.options.timeoutMs;
      const seconds = Math.round(timeoutMs / 100) / 10;
      return new ApiError(
        { kind: 'timeout', ...target, reason: 'timeout', timeoutMs, cause: error },
        `The service at ${target.host} did not answer ${target.method} ${target.path} within ${seconds} s.`,
      );
    }
    if (isFetchNetworkFailure(error)) {
      const reason = networkReason(error);
      return new ApiError({ kind: 'network', ...target, reason, cause: error }, `Cannot reach ${target.host} (${reason}).`);
    }
    return undefined;
  }
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
function delay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function safeUrl(location: string, base: string): URL | undefined {
  try {
    const next = new URL(location, base);
    return next.protocol === 'http:' || next.protocol === 'https:' ? next : undefined;
  } catch {
    return undefined;
  }
}
