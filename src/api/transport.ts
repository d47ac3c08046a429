/**
 * The HTTP layer of the client, on ky: one ky instance per connection. ky does the timeout
 * per attempt, the retries of reads (which statuses, `Retry-After`, backoff) and the hooks;
 * this file says what this service needs on top: the key for this origin only, a total
 * wait budget across retries, a cap on the answer's size, redirects refused across origins,
 * one log entry per exchange, and every failure as `ApiError`. Imports no `vscode` and no
 * `node:*` module (it also has to run in a browser worker).
 */
import ky, { HTTPError, NetworkError, TimeoutError, type KyInstance, type ShouldRetryState } from 'ky';
import { browserFetchError, hiddenRedirectError, hiddenRetryAfterWait, httpBlockedError, withHiddenRetryAfter } from './browser';
import { ApiError } from './errors';
import { readRetryWaitMs } from './rateLimit';
import {
  errorForStatus,
  networkReason,
  parseRetryAfter,
  redactedPath,
  TOO_LARGE_REASON,
  withoutSecrets,
  type RequestTarget,
} from './failures';
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
  /** Query parameters; none when undefined or empty. */
  query?: URLSearchParams;
  /** Form fields; sent as `application/x-www-form-urlencoded`. */
  form?: URLSearchParams;
  signal?: AbortSignal | undefined;
  /** A 429 is not retried: the caller pauses its own work (`ReadOptions.rateLimitToCaller`). */
  rateLimitToCaller?: boolean;
}

/** A 2xx answer, body read as text. */
export interface Answer {
  status: number;
  text: string;
  headers: Headers;
  target: RequestTarget;
}

/** Statuses a read is retried on: timeouts, rate limits and transient server faults. */
export const RETRY_STATUSES: readonly number[] = [408, 429, 500, 502, 503, 504];
/** Statuses whose `Retry-After` says how long to wait before the retry. */
const RETRY_AFTER_STATUSES: readonly number[] = [429, 503];
/** Largest answer body read, after decompression: 16 MB. A constant, not a setting. */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;
/** Redirect answers in a row that end a request: the first four are followed, the fifth fails it (5 requests in all). */
const MAX_REDIRECTS = 5;
/** Statuses a `Response` may not be built with a body for. */
const NULL_BODY_STATUSES: readonly number[] = [204, 205, 304];
const REDIRECT_STATUSES: readonly number[] = [301, 302, 303, 307, 308];
/** Network failures retrying cannot fix. */
const PERMANENT_NETWORK_REASONS = new Set(['ENOTFOUND', 'bad port', 'ERR_INVALID_URL']);
/**
 * The platform fetch, as it was when this module loaded (on the extension's first use). Any
 * extension in the same extension host can wrap `globalThis.fetch` and read the key from the
 * requests passing through it; taking it once narrows that to a wrapper installed before then.
 */
const platformFetchAtStart: typeof fetch = globalThis.fetch.bind(globalThis);
/** What may follow `Bearer `: visible ASCII. Anything else would be rejected by `Headers` with the value in the message. */
const KEY_CHARS = /^[\x21-\x7e]+$/;

/** Thrown by the size-capped fetch when an answer passes `MAX_ANSWER_BYTES`. */
class AnswerTooLarge extends Error {
  constructor(readonly status: number) {
    super(TOO_LARGE_REASON);
    this.name = 'AnswerTooLarge';
  }
}

/**
 * An answer the capped fetch has read whole: a Response without a body stream whose `text()` gives
 * the text already read, to ky (an error's data) and to the transport alike. Handing ky the bytes again in a
 * new Response would read them through a second stream.
 */
class ReadAnswer extends Response {
  constructor(
    private readonly bodyText: string,
    init: ResponseInit,
  ) {
    super(null, init);
  }

  // A property, as the DOM and undici typings declare it.
  override readonly text = (): Promise<string> => Promise.resolve(this.bodyText);
}

/** One request (one hop of it, when redirected), as the hooks see it through ky's `context`. */
interface Exchange {
  target: RequestTarget;
  signal: AbortSignal | undefined;
  key?: string;
  /** The report password the form carries, if any: blanked out of the service's text like the key. */
  password?: string;
  /** Retries so far (told by ky's beforeRetry hook). */
  retries: number;
  /** Milliseconds of waiting before retries so far. */
  waitedMs: number;
  /** The wait shouldRetry chose for the retry ky is about to make (ky's `delay` reads it). */
  nextWaitMs?: number;
  /** A 429 goes back to the caller without a retry. */
  rateLimitToCaller: boolean;
  startedAt: number;
}

export class Transport {
  private readonly origin: string;
  private readonly host: string;
  /** The base URL's path without a trailing slash ('' for a bare origin). */
  private readonly basePath: string;
  private readonly ky: KyInstance;
  /** The platform fetch (or the one the options give): under ky's capped reads, and for the browser's no-cors probe (./browser). */
  private readonly platformFetch: typeof fetch;
  /** Whether the service has answered this client (in a browser: through CORS), so a hidden answer is no CORS setup. */
  private answeredBefore = false;

  constructor(private readonly options: TransportOptions) {
    const base = new URL(options.baseUrl);
    this.origin = base.origin;
    this.host = base.host;
    this.basePath = base.pathname.replace(/\/+$/, '');
    this.platformFetch = options.fetch ?? platformFetchAtStart;
    this.ky = ky.create({
      prefix: `${this.origin}${this.basePath}`,
      headers: { Accept: 'application/json' },
      // Per attempt; the capped fetch reads the whole body inside it, so a slow body times out too.
      timeout: options.timeoutMs,
      // Redirects are looked at here: a 3xx comes back as an answer, never followed by fetch.
      redirect: 'manual',
      throwHttpErrors: (status) => status >= 400,
      retry: {
        limit: options.retryLimit,
        methods: ['get'],
        statusCodes: [...RETRY_STATUSES],
        afterStatusCodes: [...RETRY_AFTER_STATUSES],
        delay: backoff,
      },
      fetch: cappedFetch(this.platformFetch),
      hooks: {
        beforeRequest: [({ request, options: { context } }) => this.addKey(request, exchangeOf(context))],
        // No afterResponse hook: ky hands each one a clone of the answer (a stream tee). The
        // answers that end an exchange are logged by `send` instead; failures by beforeError.
        beforeRetry: [
          ({ retryCount, options: { context } }) => {
            exchangeOf(context).retries = retryCount;
          },
        ],
        beforeError: [({ error, retryCount, options: { context } }) => this.failed(error, retryCount, exchangeOf(context))],
      },
    });
  }

  /**
   * Sends one request and answers `read` of its 2xx response, or throws `ApiError`. Same-origin
   * redirects are followed (any for GET, only 307/308 for writes); a redirect to another origin is
   * refused with kind `redirect`, so neither key nor form body goes there.
   */
  async send<T>(spec: RequestSpec, read: (answer: Answer) => T): Promise<T> {
    const params = spec.query?.toString() ?? '';
    const query = params === '' ? '' : `?${params}`;
    let input: string | URL = `${spec.path}${query}`;
    let path = `${this.basePath}/${spec.path}${query}`;
    for (let hop = 1; ; hop++) {
      const exchange: Exchange = {
        target: { method: spec.method, host: this.host, path },
        signal: spec.signal,
        password: spec.form?.get('password') ?? undefined,
        retries: 0,
        waitedMs: 0,
        rateLimitToCaller: spec.rateLimitToCaller === true,
        startedAt: performance.now(),
      };
      // In a browser (./browser): a request its policy would block is not sent at all.
      const blocked = httpBlockedError(this.origin, exchange.target);
      if (blocked) {
        this.log(exchange, undefined, blocked.reason);
        throw blocked;
      }
      const response = await this.ky(input, {
        method: spec.method,
        body: spec.form,
        signal: spec.signal,
        context: { exchange },
        retry: {
          shouldRetry: (state) => this.shouldRetry(state, exchange),
          // What shouldRetry chose: a browser's fixed wait for a hidden Retry-After (./browser) included.
          delay: (attempt) => exchange.nextWaitMs ?? backoff(attempt),
        },
      });
      this.answeredBefore = true;
      if (response.ok) return this.answered(response, exchange, read);
      this.log(exchange, response.status);
      const next = await this.redirectTarget(response, exchange, hop);
      input = next;
      // Logged and put in messages from here on: never with the key the service may have put in it.
      path = redactedPath(next, secretsOf(exchange));
    }
  }

  /** Where a 3xx answer may be followed to, or the `ApiError` that ends the request. */
  private async redirectTarget(response: Response, exchange: Exchange, hop: number): Promise<URL> {
    const { target } = exchange;
    // In a browser (./browser): a redirect it made opaque cannot be followed.
    const hidden = hiddenRedirectError(response, target);
    if (hidden) throw hidden;
    const status = response.status;
    const location = response.headers.get('location');
    const next = location === null ? undefined : safeUrl(location, `${this.origin}${target.path}`);
    if (next !== undefined && REDIRECT_STATUSES.includes(status) && next.origin !== this.origin) {
      // The service chose that host and may have put the key there, lowercased by the URL parser.
      const secrets = secretsOf(exchange).map((secret) => secret.toLowerCase());
      const elsewhere = withoutSecrets(next.origin, secrets) ?? `${next.protocol}//***`;
      throw new ApiError(
        { kind: 'redirect', ...target, status, redirectTo: elsewhere },
        `The service at ${target.host} redirected ${target.method} ${target.path} to another origin (${elsewhere}); it was not followed, so the API key is not sent there.`,
      );
    }
    // A write is only re-sent where a 307/308 says the same request belongs; 301/302/303
    // would turn it into a GET (fetch semantics), which is never what a write meant.
    const followable = target.method === 'GET' ? REDIRECT_STATUSES : [307, 308];
    if (next === undefined || !followable.includes(status)) {
      throw errorForStatus(target, status, response.headers, await response.text(), secretsOf(exchange));
    }
    if (hop >= MAX_REDIRECTS) {
      throw new ApiError(
        { kind: 'redirect', ...target, status, reason: 'too many redirects' },
        `The service at ${target.host} redirected ${target.method} ${target.path} ${MAX_REDIRECTS} times in a row; not followed further.`,
      );
    }
    return next;
  }

  /** beforeRequest: the key, asked once per request (not per retry), and only for this origin. */
  private async addKey(request: Request, exchange: Exchange): Promise<void> {
    if (new URL(request.url).origin !== this.origin) return;
    const key = (await this.options.getKey())?.trim();
    if (key === undefined || key === '') return;
    if (!KEY_CHARS.test(key)) {
      throw new ApiError(
        { kind: 'unauthorized', ...exchange.target, reason: 'invalid key characters' },
        'The API key contains characters that cannot be sent in an HTTP header; set it again.',
      );
    }
    exchange.key = key;
    request.headers.set('Authorization', `Bearer ${key}`);
  }

  /** A 2xx answer read, and its log entry; a body that cannot be read is logged as this exchange's failure. */
  private async answered<T>(response: Response, exchange: Exchange, read: (answer: Answer) => T): Promise<T> {
    const status = response.status;
    try {
      const value = read({ status, text: await response.text(), headers: response.headers, target: exchange.target });
      this.log(exchange, status);
      return value;
    } catch (error) {
      this.log(exchange, status, error instanceof ApiError ? (error.reason ?? error.kind) : 'unexpected error');
      throw error;
    }
  }

  /**
   * retry.shouldRetry: refuses retries that cannot help (permanent network failures) and those
   * whose wait would pass the request's total wait budget. A retry it allows returns true, so ky
   * waits `retry.delay`, the wait counted here.
   */
  private shouldRetry({ error, retryCount }: ShouldRetryState, exchange: Exchange): boolean | undefined {
    exchange.nextWaitMs = undefined;
    let waitMs: number;
    if (error instanceof HTTPError) {
      const status = error.response.status;
      if (!RETRY_STATUSES.includes(status)) return undefined;
      if (status === 429 && exchange.rateLimitToCaller) return false;
      const after = RETRY_AFTER_STATUSES.includes(status) ? parseRetryAfter(error.response.headers.get('retry-after')) : undefined;
      waitMs = readRetryWaitMs(retryCount, after ?? hiddenRetryAfterWait(error.response), status === 429);
    } else if (error instanceof NetworkError) {
      if (PERMANENT_NETWORK_REASONS.has(networkReason(error.cause))) return false;
      waitMs = readRetryWaitMs(retryCount, undefined, false);
    } else {
      return undefined;
    }
    if (exchange.waitedMs + waitMs > this.options.retryMaxWaitMs) return false;
    exchange.waitedMs += waitMs;
    exchange.nextWaitMs = waitMs;
    return true;
  }

  /** beforeError: every failure as `ApiError`, and its log entry. Anything else (a bug) is logged and passed on. */
  private async failed(error: Error, retryCount: number, exchange: Exchange): Promise<Error> {
    exchange.retries = retryCount;
    let apiError = this.toApiError(error, exchange);
    // In a browser (./browser): a CORS refusal fails like an unreachable host; a probe tells them apart.
    if (apiError?.kind === 'network' && error instanceof NetworkError) {
      apiError =
        (await browserFetchError(error.cause, exchange.target, this.origin, this.platformFetch, this.answeredBefore)) ??
        apiError;
    }
    if (apiError === undefined) {
      this.log(exchange, undefined, 'unexpected error');
      return error;
    }
    // An error status speaks for itself; anything else says what went wrong.
    const httpFailure = error instanceof HTTPError;
    if (httpFailure) this.answeredBefore = true;
    this.log(exchange, apiError.status, httpFailure ? undefined : (apiError.reason ?? apiError.kind));
    return apiError;
  }

  private toApiError(error: Error, exchange: Exchange): ApiError | undefined {
    const { target } = exchange;
    if (error instanceof ApiError) return error;
    // Checked first: an abort surfaces as whatever the fetch or the retry wait was doing.
    if (exchange.signal?.aborted) {
      return new ApiError({ kind: 'cancelled', ...target, reason: 'cancelled', cause: error }, `${target.method} ${target.path} was cancelled.`);
    }
    if (error instanceof HTTPError) {
      const failure = errorForStatus(target, error.response.status, error.response.headers, error.data, secretsOf(exchange));
      return withHiddenRetryAfter(failure, error.response);
    }
    if (error instanceof TimeoutError) {
      const timeoutMs = this.options.timeoutMs;
      const seconds = Math.round(timeoutMs / 100) / 10;
      return new ApiError(
        { kind: 'timeout', ...target, reason: 'timeout', timeoutMs },
        `The service at ${target.host} did not answer ${target.method} ${target.path} within ${seconds} s.`,
      );
    }
    if (error instanceof AnswerTooLarge) {
      return new ApiError(
        { kind: 'badResponse', ...target, status: error.status, reason: TOO_LARGE_REASON },
        `The service at ${target.host} sent an answer larger than 16 MB.`,
      );
    }
    if (error instanceof NetworkError) {
      const reason = networkReason(error.cause);
      return new ApiError({ kind: 'network', ...target, reason, cause: error.cause }, `Cannot reach ${target.host} (${reason}).`);
    }
    return undefined;
  }

  private log(exchange: Exchange, status: number | undefined, error?: string): void {
    const { method, path } = exchange.target;
    const { retries, startedAt } = exchange;
    const entry: RequestLogEntry = { method, path, status, durationMs: performance.now() - startedAt, retries };
    if (error !== undefined) entry.error = error;
    try {
      this.options.onRequest?.(entry);
    } catch {
      // A failing logger must not fail the request.
    }
  }
}

function exchangeOf(context: Record<string, unknown>): Exchange {
  return context.exchange as Exchange;
}

/** What must never show in an error's text: the key sent and the form's password. */
function secretsOf(exchange: Exchange): string[] {
  return [exchange.key, exchange.password].filter((secret): secret is string => secret !== undefined && secret !== '');
}

/** Wait before retry number `retryCount` of a timeout or server fault, when the service named none. */
function backoff(retryCount: number): number {
  return readRetryWaitMs(retryCount, undefined, false);
}

/**
 * The fetch ky calls: the platform fetch plus the whole body read, so ky's per-attempt timeout
 * covers the body, and a dropped connection during the body is a network error ky may retry. Past
 * `MAX_ANSWER_BYTES` the read is cancelled and the attempt fails.
 */
function cappedFetch(platformFetch: typeof fetch): typeof fetch {
  return async (input, init) => {
    const response = await platformFetch(input, init);
    // A browser's manual redirect (no status, headers or body), and answers without a body.
    if (response.type === 'opaqueredirect' || response.body === null || NULL_BODY_STATUSES.includes(response.status)) {
      return response;
    }
    const text = await readCapped(response.body, response.status);
    const { status, statusText, headers } = response;
    return new ReadAnswer(text, { status, statusText, headers });
  };
}

/** A body's text (UTF-8, as `Response.text()` reads it), or `AnswerTooLarge` once it passes `MAX_ANSWER_BYTES`. */
async function readCapped(body: ReadableStream<Uint8Array>, status: number): Promise<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      parts.length = 0;
      await reader.cancel().catch(() => undefined);
      throw new AnswerTooLarge(status);
    }
    parts.push(decoder.decode(value, { stream: true }));
  }
  parts.push(decoder.decode());
  return parts.join('');
}

function safeUrl(location: string, base: string): URL | undefined {
  try {
    const next = new URL(location, base);
    return next.protocol === 'http:' || next.protocol === 'https:' ? next : undefined;
  } catch {
    return undefined;
  }
}
