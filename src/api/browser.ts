/**
 * What differs when the client's `fetch` is a browser's: the extension's browser entry runs in
 * the web worker extension host (vscode.dev, github.dev, code-server's web host), where the
 * service is another origin and the browser's rules apply. The transport asks this module at
 * the few points where they change what it can know; under Node every function here answers
 * "nothing to do". Imports no `vscode`, no Node built-in.
 *
 * - A redirect cannot be inspected: `redirect: 'manual'` yields an opaque answer (status 0, no
 *   `Location`), so it fails with a clear message instead of being followed blindly (Node
 *   keeps following same-origin redirects and refusing the others).
 * - A service without CORS fails with the same bare `TypeError` as an unreachable host; a
 *   `mode: 'no-cors'` request, which needs no CORS and resolves whenever the host answers,
 *   tells the two apart.
 * - Response headers the service does not expose (Laravel's default exposes none) read as
 *   `null`: `Retry-After` is invisible, so a 429 waits a fixed backoff, and says so.
 */
import {
  CORS_REFUSED,
  HIDDEN_ERROR_PAGE,
  HIDDEN_REDIRECT,
  HIDDEN_RETRY_AFTER,
  HIDDEN_RETRY_AFTER_WAIT_MS,
  HTTP_BLOCKED,
} from './browserReasons';
import { ApiError } from './errors';
import { NETWORK_ERROR, type RequestTarget } from './failures';

export * from './browserReasons';
/** How long the probe that tells a CORS refusal from an unreachable host may take. */
const PROBE_TIMEOUT_MS = 5_000;

/** Statuses whose retry would wait for `Retry-After`. */
const WAIT_STATUSES: readonly number[] = [429, 503];

/** The fields of a fetch `Response` this module reads. */
export interface ResponseFacts {
  status: number;
  /** `opaqueredirect` for a redirect under `redirect: 'manual'` in a browser. */
  type: string;
  headers: Headers;
}

/**
 * The error for an answer a browser made opaque: a redirect under `redirect: 'manual'`.
 * Undefined for every other answer (and always under Node, whose answers are never opaque).
 */
export function hiddenRedirectError(response: ResponseFacts, target: RequestTarget): ApiError | undefined {
  if (response.type !== 'opaqueredirect') return undefined;
  return new ApiError(
    { kind: 'redirect', ...target, reason: HIDDEN_REDIRECT },
    `The service at ${target.host} answered ${target.method} ${target.path} with a redirect, which the browser does not let the extension inspect; it was not followed.`,
  );
}

/**
 * Milliseconds to wait before retrying a 429 or 503 in a browser without a readable
 * `Retry-After`; undefined when the header is readable, the answer is not one of those, or
 * this is not a browser. In a browser an absent header and a hidden one look the same
 * (`null`), so both get the fixed wait. `inBrowser` is for tests.
 */
export function hiddenRetryAfterWait(response: ResponseFacts, inBrowser = runsInBrowser()): number | undefined {
  if (!inBrowser || !WAIT_STATUSES.includes(response.status)) return undefined;
  return response.headers.get('retry-after') === null ? HIDDEN_RETRY_AFTER_WAIT_MS : undefined;
}

/** A final 429 error, marked when the browser hid its `Retry-After` (the message then says what was waited). */
export function withHiddenRetryAfter(error: ApiError, response: ResponseFacts, inBrowser = runsInBrowser()): ApiError {
  if (error.kind !== 'rateLimited' || hiddenRetryAfterWait(response, inBrowser) === undefined) return error;
  return new ApiError(
    { ...error, reason: HIDDEN_RETRY_AFTER, cause: error.cause },
    `The service at ${error.host} is rate limiting requests; the browser hides Retry-After, so reads waited ${HIDDEN_RETRY_AFTER_WAIT_MS / 1000} s between tries.`,
  );
}

/**
 * Whether `error` is how a browser's fetch fails without an answer: a bare `TypeError`
 * ("Failed to fetch", "NetworkError when attempting to fetch resource.", "Load failed"),
 * without the `cause` Node's fetch gives. CORS refusals, refused connections, DNS failures
 * and mixed-content blocks all look the same.
 */
export function isBrowserFetchFailure(error: unknown): boolean {
  return (
    error instanceof TypeError &&
    (error.cause === undefined || error.cause === null) &&
    error.message !== 'fetch failed'
  );
}

/**
 * The error for a browser fetch failure: `cors` when the host answers a `mode: 'no-cors'` request
 * (so it is reachable, and the browser withheld its answer from the extension), else `network`. The
 * probe is a plain GET of the service's origin, sent without the key (a no-cors request may carry
 * none) and without credentials.
 */
export async function browserFetchError(
  error: unknown,
  target: RequestTarget,
  origin: string,
  fetcher: typeof fetch,
  answeredBefore = false,
): Promise<ApiError | undefined> {
  // A request to an http: origin the browser would block was never sent (`httpBlockedError`).
  if (!isBrowserFetchFailure(error)) return undefined;
  if (await answersWithoutCors(origin, fetcher)) {
    if (answeredBefore) {
      return new ApiError(
        { kind: 'network', ...target, reason: HIDDEN_ERROR_PAGE, cause: error },
        `The service at ${target.host} answered ${target.method} ${target.path} with an error page the browser hides (no CORS headers).`,
      );
    }
    return new ApiError(
      { kind: 'cors', ...target, reason: CORS_REFUSED, cause: error },
      `The service at ${target.host} does not allow requests from the browser (CORS): ${target.method} ${target.path} was blocked.`,
    );
  }
  return new ApiError(
    { kind: 'network', ...target, reason: NETWORK_ERROR, cause: error },
    `Cannot reach ${target.host} (network error).`,
  );
}

async function answersWithoutCors(origin: string, fetcher: typeof fetch): Promise<boolean> {
  try {
    await fetcher(`${origin}/`, {
      method: 'GET',
      mode: 'no-cors',
      credentials: 'omit',
      // `redirect: 'manual'` is not allowed with no-cors; a redirect followed here sends nothing secret.
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether the extension's code runs in a browser (the web worker extension host): there the
 * editor's policy lets it call http: services only on this machine (`httpBlockedInBrowser`).
 */
export function runsInBrowser(): boolean {
  const scope = globalThis as { importScripts?: unknown; document?: unknown };
  return typeof scope.importScripts === 'function' || typeof scope.document === 'object';
}

/**
 * Whether the browser will not let the extension reach `serviceOrigin` over http:. VS Code runs
 * web extensions in a worker under its own content security policy, whose `connect-src`
 * allows http: only to `localhost` and `127.0.0.1` (any port); from a page served over https:
 * mixed-content blocking says the same. Always false outside a browser.
 */
export function httpBlockedInBrowser(serviceOrigin: string): boolean {
  if (!runsInBrowser()) return false;
  let service: URL;
  try {
    service = new URL(serviceOrigin);
  } catch {
    return false;
  }
  return service.protocol === 'http:' && !['localhost', '127.0.0.1'].includes(service.hostname.toLowerCase());
}

/** The error of a request not sent because the browser would block it (`httpBlockedInBrowser`), or undefined. */
export function httpBlockedError(origin: string, target: RequestTarget): ApiError | undefined {
  if (!httpBlockedInBrowser(origin)) return undefined;
  return new ApiError(
    { kind: 'network', ...target, reason: HTTP_BLOCKED },
    `Not sent to ${target.host}: in a browser, VS Code lets extensions use http: only to localhost and 127.0.0.1.`,
  );
}
