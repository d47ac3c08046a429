/**
 * The HTTP layer of the client, over ky: the key in a `beforeRequest` hook, a timeout per
 * attempt, bounded retries for reads only, redirects followed by hand so the key never
 * leaves the service's origin, one log entry per exchange, and every failure as `ApiError`.
 * Imports no `vscode`.
 */
import ky, { isHTTPError, isNetworkError, isTimeoutError, type KyInstance, type ShouldRetryState } from 'ky';
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
  query?: URLSearchParams;
  /** Form fields; sent as `application/x-www-form-urlencoded`. */
  form?: URLSearchParams;
  signal?: AbortSignal | undefined;
}

type LogFn = (status: number | undefined, error?: string) => void;

/** A 2xx answer, body read as text. */
export interface Answer {
  status: number;
  text: string;
  target: RequestTarget;
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

export class Transport {
  private readonly ky: KyInstance;
  private readonly origin: string;

  constructor(private readonly options: TransportOptions) {
    this.origin = new URL(options.baseUrl).origin;
    this.ky = ky.create({
      timeout: options.timeoutMs,
      // Redirects are followed by `send` itself, after an origin check (see there).
      redirect: 'manual',
      // 3xx are answers to act on, not errors.
      throwHttpErrors: (status) => status >= 400,
      headers: { Accept: 'application/json' },
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  }

  /**
   * Sends one request and answers `read` of its 2xx response, or throws `ApiError`. Reads (GET) are
   * retried on `RETRY_STATUSES` and dropped connections, honouring `Retry-After`, at most
   * `retryLimit` times and `retryMaxWaitMs` of waiting in all; other methods are sent once.
   * Same-origin redirects are followed (any for GET, only 307/308 for writes); a redirect to
   * another origin is refused with kind `redirect`, so the key is never sent there.
   */
  async send<T>(spec: RequestSpec, read: (answer: Answer) => T): Promise<T> {
    const base = this.options.baseUrl.replace(/\/+$/, '');
    let url = new URL(`${base}/${spec.path}`);
    const query = spec.query?.toString() ?? '';
    if (query !== '') url.search = query;
    const method: string = spec.method;
    const form = spec.form;
    for (let hop = 0; ; hop++) {
      const { status, headers, text, target, log } = await this.exchange(url, method, form, spec.signal);
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
      if (next === undefined || !followable.includes(status)) {
        throw errorForStatus(target, status, headers, text, undefined);
      }
      if (hop + 1 >= MAX_REDIRECTS) {
        throw new ApiError(
          { kind: 'redirect', ...target, status, reason: 'too many redirects' },
          `The service at ${target.host} redirected ${target.method} ${target.path} more than ${MAX_REDIRECTS} times.`,
        );
      }
      // Only GETs reach here with 301/302/303, so method and body stay as they are.
      url = next;
    }
  }

  /**
   * One ky call (with its retries). Throws ApiError, logged, for everything but 2xx/3xx;
   * for those the caller logs through `log` once it knows whether the body was usable.
   */
  private async exchange(
    url: URL,
    method: string,
    form: URLSearchParams | undefined,
    signal: AbortSignal | undefined,
  ): Promise<{ status: number; headers: Headers; text: string; target: RequestTarget; log: LogFn }> {
    const target: RequestTarget = { method, host: url.host, path: `${url.pathname}${url.search}` };
    const started = performance.now();
    let retries = 0;
    let key: string | undefined;
    const log: LogFn = (status, error) => {
      const entry: RequestLogEntry = { method, path: target.path, status, durationMs: performance.now() - started, retries };
      if (error !== undefined) entry.error = error;
      try {
        this.options.onRequest?.(entry);
      } catch {
        // A failing logger must not fail the request.
      }
    };

    const isRead = method === 'GET';
    let waitedMs = 0;
    let plannedMs = 0;
    const shouldRetry = ({ error, retryCount }: ShouldRetryState): boolean => {
      const wait = this.retryWait(error, retryCount);
      if (wait === undefined || waitedMs + wait > this.options.retryMaxWaitMs) return false;
      plannedMs = wait;
      waitedMs += wait;
      return true;
    };

    try {
      const promise = this.ky(url, {
        method,
        signal,
        ...(form ? { body: form.toString(), headers: { 'Content-Type': 'application/x-www-form-urlencoded' } } : {}),
        retry: isRead
          ? {
              limit: this.options.retryLimit,
              methods: ['get'],
              statusCodes: [...RETRY_STATUSES],
              afterStatusCodes: [],
              retryOnTimeout: false,
              shouldRetry,
              // `shouldRetry` has just decided the wait (Retry-After or backoff, within budget).
              delay: () => plannedMs,
              backoffLimit: Number.POSITIVE_INFINITY,
              maxRetryAfter: Number.POSITIVE_INFINITY,
            }
          : { limit: 0, methods: [] },
        hooks: {
          beforeRequest: [
            async ({ request }) => {
              // Belt and braces: only ever to the service's own origin.
              if (new URL(request.url).origin !== this.origin) return;
              key = (await this.options.getKey())?.trim();
              if (key === undefined || key === '') return;
              if (!KEY_CHARS.test(key)) {
                throw new ApiError(
                  { kind: 'unauthorized', ...target, reason: 'invalid key characters' },
                  'The API key contains characters that cannot be sent in an HTTP header; set it again.',
                );
              }
              request.headers.set('Authorization', `Bearer ${key}`);
            },
          ],
          beforeRetry: [
            ({ retryCount }) => {
              retries = retryCount;
            },
          ],
        },
      });
      const text = await promise.text();
      const response = await promise;
      return { status: response.status, headers: response.headers, text, target, log };
    } catch (error) {
      const apiError = this.toApiError(error, target, signal, key);
      if (apiError === undefined) {
        log(undefined, 'unexpected error');
        throw error;
      }
      log(apiError.status, apiError.status === undefined ? (apiError.reason ?? apiError.kind) : undefined);
      throw apiError;
    }
  }

  /** Milliseconds to wait before retry number `retryCount`, or undefined when not to retry. */
  private retryWait(error: Error, retryCount: number): number | undefined {
    if (isHTTPError(error)) {
      if (!RETRY_STATUSES.includes(error.response.status)) return undefined;
      const after = parseRetryAfter(error.response.headers.get('retry-after'));
      if (after !== undefined) return after;
    } else if (isNetworkError(error)) {
      if (PERMANENT_NETWORK_REASONS.has(networkReason(error))) return undefined;
    } else {
      // Timeouts (the user already waited the whole timeout) and anything unexpected.
      return undefined;
    }
    return BACKOFF_MS * 2 ** (retryCount - 1);
  }

  /** The ApiError for a failed exchange; undefined for errors that are not HTTP failures (bugs), which are rethrown. */
  private toApiError(
    error: unknown,
    target: RequestTarget,
    signal: AbortSignal | undefined,
    key: string | undefined,
  ): ApiError | undefined {
    if (error instanceof ApiError) return error;
    // Checked first: an abort surfaces as whatever the fetch or the retry wait was doing.
    if (signal?.aborted) {
      return new ApiError({ kind: 'cancelled', ...target, reason: 'cancelled', cause: error }, `${target.method} ${target.path} was cancelled.`);
    }
    if (isHTTPError(error)) {
      return errorForStatus(target, error.response.status, error.response.headers, error.data, key);
    }
    if (isTimeoutError(error)) {
      const seconds = Math.round(this.options.timeoutMs / 100) / 10;
      return new ApiError(
        { kind: 'timeout', ...target, reason: 'timeout', timeoutMs: this.options.timeoutMs, cause: error },
        `The service at ${target.host} did not answer ${target.method} ${target.path} within ${seconds} s.`,
      );
    }
    if (isNetworkError(error) || isFetchNetworkFailure(error)) {
      const reason = networkReason(error);
      return new ApiError({ kind: 'network', ...target, reason, cause: error }, `Cannot reach ${target.host} (${reason}).`);
    }
    return undefined;
  }
}

function safeUrl(location: string, base: URL): URL | undefined {
  try {
    const next = new URL(location, base);
    return next.protocol === 'http:' || next.protocol === 'https:' ? next : undefined;
  } catch {
    return undefined;
  }
}
