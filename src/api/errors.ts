/**
 * The one error type of the service client. Every failure is an `ApiError` with a `kind`;
 * callers switch on `kind`, never on message text. Imports no `vscode`.
 */

export type ApiErrorKind =
  | 'unauthorized' // 401
  | 'forbidden' // 403
  | 'notFound' // 404
  | 'validation' // 422 (and 400/413 with field messages)
  | 'rateLimited' // 429
  | 'server' // 5xx and other unexpected statuses
  | 'network' // refused, DNS, reset, dropped
  | 'cors' // in a browser: the service allows no requests from another origin (it answers, the browser hides it)
  | 'timeout' // no answer within the timeout
  | 'badResponse' // 2xx whose body is not the JSON expected (HTML, empty, truncated)
  | 'redirect' // a redirect to another origin, refused so the key stays home
  | 'cancelled'; // aborted by the caller

export interface ApiErrorInit {
  kind: ApiErrorKind;
  /** Host (and port) of the service, for messages like "Cannot reach host". */
  host: string;
  method: string;
  /** Path and query, never with secrets. */
  path: string;
  status?: number;
  /** The service's own `message`, when it sent one as JSON. */
  serviceMessage?: string;
  /** Validation messages per field (`errors` of a 422). */
  fieldErrors?: Record<string, string[]>;
  /** Seconds to wait, from `Retry-After` of a 429. */
  retryAfter?: number;
  /** Short technical reason for network failures: `ECONNREFUSED`, `ENOTFOUND`, … */
  reason?: string;
  /** The timeout that elapsed, for `timeout` errors. */
  timeoutMs?: number;
  /** Origin (scheme, host, port) a refused redirect pointed to, for `redirect` errors. */
  redirectTo?: string;
  cause?: unknown;
}

export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly host: string;
  readonly method: string;
  readonly path: string;
  readonly status: number | undefined;
  readonly serviceMessage: string | undefined;
  readonly fieldErrors: Record<string, string[]> | undefined;
  readonly retryAfter: number | undefined;
  readonly reason: string | undefined;
  readonly timeoutMs: number | undefined;
  readonly redirectTo: string | undefined;

  constructor(init: ApiErrorInit, message: string) {
    super(message, { cause: init.cause });
    this.name = 'ApiError';
    this.kind = init.kind;
    this.host = init.host;
    this.method = init.method;
    this.path = init.path;
    this.status = init.status;
    this.serviceMessage = init.serviceMessage;
    this.fieldErrors = init.fieldErrors;
    this.retryAfter = init.retryAfter;
    this.reason = init.reason;
    this.timeoutMs = init.timeoutMs;
    this.redirectTo = init.redirectTo;
  }

  /** All field messages of a validation error, flattened, or []. */
  fieldMessages(field?: string): string[] {
    if (!this.fieldErrors) return [];
    if (field !== undefined) return this.fieldErrors[field] ?? [];
    return Object.values(this.fieldErrors).flat();
  }
}

/** Whether `e` is an ApiError, of kind `kind` when one is given. */
export function isApiError<K extends ApiErrorKind = ApiErrorKind>(e: unknown, kind?: K): e is ApiError & { kind: K } {
  return e instanceof ApiError && (kind === undefined || e.kind === kind);
}

/** What went wrong, for a log line: an error's message, or anything else as text. */
export function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The `reason` of a `cancelled` error no one asked for: the user switched to another service. */
export const SERVICE_CHANGED = 'service changed';

/** The same when the user removed the current service's API key (Remove API Key, Sign Out). */
export const KEY_REMOVED = 'key removed';

/** The same when the current service's key changed (Set API Key…, another window) during long work that stops at that. */
export const KEY_CHANGED = 'key changed';

/** The reason of a 401 to a request sent with a key the user has replaced since. */
export const KEY_REPLACED = 'key replaced';

/** `error` (a 401) marked as the old key's: it says nothing of the new one, and a Retry may work. */
export function keyReplacedError(error: ApiError): ApiError {
  return new ApiError({ ...error, reason: KEY_REPLACED, cause: error }, error.message);
}

/**
 * What the client of a service the user has left, or whose key they removed, throws instead of
 * sending without a key: `cancelled`, so lists drop it quietly, with a reason the error reporter
 * tells the user, since a command they started stopped.
 */
export function serviceChangedError(serviceUrl: string, reason = SERVICE_CHANGED): ApiError {
  const host = new URL(serviceUrl).host;
  return new ApiError({ kind: 'cancelled', host, method: '', path: '', reason }, `Not sent to ${host}: ${reason}.`);
}
