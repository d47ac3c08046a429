/**
 * The rate-limit policy: every wait the extension makes because the service is rate limiting
 * (contract: 60 requests a minute per key, a 429 with `Retry-After`), in one place. The
 * transport, long work (bulk writes, insights, exports), the views and auto refresh read their
 * numbers and decisions here. Imports no `vscode`.
 *
 * | Who                      | Waits when the service names a time        | When it names none (or a browser hides it) |
 * | ------------------------ | ------------------------------------------ | ------------------------------------------ |
 * | a read (transport)       | `Retry-After`, within 10 s in all          | 2 s a retry, at most 2 retries             |
 * | long work, per request   | `Retry-After`, at most 60 s, 3 times       | 5 s, 20 s, then 60 s                       |
 * | the list loader          | the same wait, once for the whole load     | the same; then one request at a time       |
 * | views and auto refresh   | hold off until `Retry-After` has passed    | hold off for the window, 60 s              |
 *
 * A 429 refuses a request before it is carried out, so sending a write again after one is safe.
 */
import { ApiError, isApiError } from './errors';

/** The numbers of the policy (the table above). */
export const RATE_LIMIT = {
  /** Retries of one read after a 429, a timeout or a transient server fault. */
  readRetries: 2,
  /** The most a read waits between its retries, in all: a longer `Retry-After` goes to the caller. */
  readWaitBudgetMs: 10_000,
  /**
   * A read's wait before retrying a 429 (or 503) without a `Retry-After` it can read: long
   * enough that the retry does not spend the window's next request at once.
   */
  unnamedReadWaitMs: 2_000,
  /** Long work waits at most this long a time, whatever the service asks. */
  longWorkMaxWaitS: 60,
  /** Long work waits out at most this many 429s of one request. */
  longWorkMaxWaits: 3,
  /** Long work's waits when the service names no time: growing, so three of them outlast a one-minute window. */
  longWorkUnnamedWaitsS: [5, 20, 60] as readonly number[],
  /** The contract's window: a 429 without a readable `Retry-After` holds the views off this long. */
  windowMs: 60_000,
} as const;

/** The first backoff of a read's retry after a timeout or server fault; it doubles per retry. */
export const SERVER_FAULT_BACKOFF_MS = 300;

/**
 * Milliseconds a read waits before retry number `retryCount` (1-based) of a failed attempt:
 * the `Retry-After` the service named (`namedMs`), else for a rate limit the fixed wait, else
 * the doubling backoff of a server fault.
 */
export function readRetryWaitMs(retryCount: number, namedMs: number | undefined, rateLimited: boolean): number {
  if (namedMs !== undefined) return namedMs;
  if (rateLimited) return RATE_LIMIT.unnamedReadWaitMs;
  return SERVER_FAULT_BACKOFF_MS * 2 ** (retryCount - 1);
}

/**
 * Seconds long work waits after its `waits`-th 429 (0-based) of one request: the service's
 * `Retry-After`, at least 1 and at most {@link RATE_LIMIT.longWorkMaxWaitS}; else the growing
 * waits. Undefined when it has waited {@link RATE_LIMIT.longWorkMaxWaits} times already.
 */
export function longWorkWaitS(error: ApiError, waits: number): number | undefined {
  if (waits >= RATE_LIMIT.longWorkMaxWaits) return undefined;
  const unnamed = RATE_LIMIT.longWorkUnnamedWaitsS[waits] ?? RATE_LIMIT.longWorkMaxWaitS;
  return Math.min(RATE_LIMIT.longWorkMaxWaitS, Math.max(1, error.retryAfter ?? unnamed));
}

/**
 * Until when (epoch ms) views and auto refresh leave the service alone after `error`, a 429:
 * its `Retry-After`, or the contract's window when it named none the client could read.
 */
export function holdOffUntil(error: ApiError, now = Date.now()): number {
  return now + (error.retryAfter !== undefined ? error.retryAfter * 1000 : RATE_LIMIT.windowMs);
}

export interface RateLimitWaitOptions {
  /** Aborts a wait: the request is not sent again and the call rejects as `cancelled`. */
  signal?: AbortSignal;
  /** Told before each wait, with its seconds (progress: "rate limited: waiting 30 s"). */
  onWait?: (seconds: number) => void;
  /** Told when a wait is over, before the request goes again. */
  onResume?: () => void;
}

/**
 * Long work's way through a rate limit: runs `request`; when it fails with `rateLimited`,
 * waits as {@link longWorkWaitS} says and runs it again. Resolves its answer; rejects with its
 * error once the waits are used up, or as `cancelled` when `signal` aborts a wait.
 */
export async function waitingOutRateLimits<T>(
  request: () => Promise<T>,
  options: RateLimitWaitOptions = {},
): Promise<T> {
  for (let waits = 0; ; waits++) {
    try {
      return await request();
    } catch (error) {
      if (!isApiError(error, 'rateLimited')) throw error;
      const seconds = longWorkWaitS(error, waits);
      if (seconds === undefined) throw error;
      options.onWait?.(seconds);
      if (!(await pause(seconds * 1000, options.signal))) throw cancelledWhileWaiting(error);
      options.onResume?.();
    }
  }
}

/** The error of long work cancelled while it waited out `error`, a 429. */
export function cancelledWhileWaiting(error: ApiError): ApiError {
  return new ApiError(
    { kind: 'cancelled', host: error.host, method: error.method, path: error.path },
    'Cancelled while waiting out the rate limit.',
  );
}

/** Waits `ms`; false when `signal` aborts first. */
export function pause(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted === true) return Promise.resolve(false);
  return new Promise((resolve) => {
    const stop = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', stop, { once: true });
  });
}
