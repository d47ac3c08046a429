/**
 * Long work that sends many requests one after another (a bulk write, Export List as CSV…,
 * insights) meets a service's rate limit (contract: 60 requests a minute) and is told to wait
 * longer than the client waits by itself (a read's waits stay within 10 s in all). Such work
 * waits as long as the service asks, at most {@link MAX_WAIT_S} a time and {@link MAX_WAITS}
 * times a request, and can be cancelled while it waits. Imports no `vscode`.
 *
 * A 429 refuses a request before it is carried out, so sending a write again after one is safe.
 */
import { ApiError, isApiError } from './errors';

/**
 * The waits when the service does not say how long (or a browser hides `Retry-After`), one
 * a time: growing, so three of them outlast a one-minute window.
 */
export const UNKNOWN_WAITS_S = [5, 20, 60] as const;
export const MAX_WAIT_S = 60;
export const MAX_WAITS = 3;

export interface RateLimitWaitOptions {
  /** Aborts a wait: the request is not sent again and the call rejects as `cancelled`. */
  signal?: AbortSignal;
  /** Told before each wait, with its seconds (progress: "rate limited: waiting 30 s"). */
  onWait?: (seconds: number) => void;
  /** Told when a wait is over, before the request goes again. */
  onResume?: () => void;
}

/**
 * Runs `request`; when it fails with `rateLimited`, waits as the service asks and runs it
 * again. Resolves its answer; rejects with its error once the waits are used up, or as
 * `cancelled` when `signal` aborts a wait.
 */
export async function waitingOutRateLimits<T>(
  request: () => Promise<T>,
  options: RateLimitWaitOptions = {},
): Promise<T> {
  for (let waits = 0; ; waits++) {
    try {
      return await request();
    } catch (error) {
      if (!isApiError(error, 'rateLimited') || waits >= MAX_WAITS) throw error;
      const seconds = Math.min(MAX_WAIT_S, Math.max(1, error.retryAfter ?? UNKNOWN_WAITS_S[waits] ?? MAX_WAIT_S));
      options.onWait?.(seconds);
      if (!(await pause(seconds, options.signal))) {
        throw new ApiError(
          { kind: 'cancelled', host: error.host, method: error.method, path: error.path },
          'Cancelled while waiting out the rate limit.',
        );
      }
      options.onResume?.();
    }
  }
}

/** Waits `seconds`; false when `signal` aborts first. */
function pause(seconds: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted === true) return Promise.resolve(false);
  return new Promise((resolve) => {
    const stop = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve(true);
    }, seconds * 1000);
    signal?.addEventListener('abort', stop, { once: true });
  });
}
