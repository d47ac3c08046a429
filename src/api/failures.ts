/**
 * Turning HTTP failures into `ApiError`s: status → kind, the service's message made safe to show,
 * network reasons dug out of `error.cause` chains, `Retry-After` parsing. Imports no `vscode`.
 */
import * as l10n from '@vscode/l10n';
import { ApiError, type ApiErrorKind } from './errors';
import { isRecord } from '../text/guards';

/** The `reason` of a `badResponse` whose answer passed the size cap (16 MB after decompression). */
export const TOO_LARGE_REASON = 'answer larger than 16 MB';

/** Longest service message kept, in characters. */
export const SERVICE_MESSAGE_MAX = 300;

/** Where a request went, for errors and log lines. `path` holds path and query, never secrets. */
export interface RequestTarget {
  method: string;
  host: string;
  path: string;
}

/**
 * Server text made safe for a one-line message: invisible and bidi characters removed,
 * whitespace collapsed, length capped, and the request's secrets, should a hostile server echo
 * them, blanked out ({@link withoutSecrets}). Undefined when nothing usable is left.
 */
export function sanitizeServerText(text: string, secrets: readonly string[] = [], max = SERVICE_MESSAGE_MAX): string | undefined {
  let clean = withoutSecrets(text, secrets);
  if (clean === undefined) return undefined;
  clean = clean
    // eslint-disable-next-line no-control-regex -- removing control characters is the point
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (clean === '') return undefined;
  if (clean.length > max) clean = `${clean.slice(0, max - 1).trimEnd()}…`;
  // The cut or the collapse may have re-joined pieces of a secret; blank them again.
  return withoutSecrets(clean, secrets);
}

/**
 * `text` with each secret in it replaced by `***`; undefined when a secret sits inside a word,
 * where blanking it would show where it was ("The ***word field").
 */
export function withoutSecrets(text: string, secrets: readonly (string | undefined)[]): string | undefined {
  let clean = text;
  for (const secret of secrets) {
    if (!secret) continue;
    const pieces = clean.split(secret);
    const last = pieces.length - 1;
    if (pieces.some((piece, i) => (i > 0 && /^[\p{L}\p{N}]/u.test(piece)) || (i < last && /[\p{L}\p{N}]$/u.test(piece)))) {
      return undefined;
    }
    clean = pieces.join('***');
  }
  return clean;
}

/**
 * The path and query of `url` (a same-origin redirect's target) as the log and messages show
 * them: each path segment, query name or value that holds a secret, as sent or percent-decoded
 * and in any case, is `***`. The service chose that URL and may have put the key in it.
 */
export function redactedPath(url: URL, secrets: readonly string[]): string {
  const needles = secrets.filter((secret) => secret !== '').map((secret) => secret.toLowerCase());
  const holdsSecret = (text: string): boolean => {
    const forms = [text, decoded(text.replace(/\+/g, ' '))].map((form) => form.toLowerCase());
    return needles.some((needle) => forms.some((form) => form.includes(needle)));
  };
  const path = url.pathname
    .split('/')
    .map((segment) => (holdsSecret(segment) ? '***' : segment))
    .join('/');
  if (url.search === '') return path;
  const query = url.search
    .slice(1)
    .split('&')
    .map((part) => {
      const [name = '', ...value] = part.split('=');
      if (holdsSecret(name)) return '***';
      return value.length > 0 && holdsSecret(value.join('=')) ? `${name}=***` : part;
    })
    .join('&');
  return `${path}?${query}`;
}

/** Percent-decoded text; as it is where it does not decode. */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * Milliseconds to wait from a `Retry-After` value (delay seconds or an HTTP date), else
 * undefined. Over six digits is not a delay: an epoch time sent by mistake, say.
 */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d{1,6}$/.test(text)) return Number(text) * 1000;
  // Only date-looking text: Date.parse also accepts bare numbers like "1.5" as years.
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}

export function kindForStatus(status: number): ApiErrorKind {
  switch (status) {
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
    case 410:
      return 'notFound';
    case 400:
    case 413:
    case 422:
      return 'validation';
    case 429:
      return 'rateLimited';
    default:
      return 'server';
  }
}

/** The parsed JSON of an error body: ky's `HTTPError.data` is parsed for a JSON content type, else text. */
function jsonOf(data: unknown): unknown {
  if (typeof data !== 'string') return data;
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
}

/** A field's message that held a secret inside a word (see {@link withoutSecrets}), in its place: the field still says it was refused. */
export function secretInMessage(): string {
  return l10n.t('The service refused this value. Its message repeated the value, so it is not shown.');
}

/** The most fields, and messages per field, read from a 422: enough for any form, bounded for a hostile answer. */
const MAX_FIELDS = 20;
const MAX_MESSAGES_PER_FIELD = 5;

function fieldErrorsOf(errors: unknown, secrets: readonly string[]): Record<string, string[]> | undefined {
  if (!isRecord(errors)) return undefined;
  const fields: Record<string, string[]> = {};
  for (const [field, value] of Object.entries(errors).slice(0, MAX_FIELDS)) {
    const list: unknown[] = Array.isArray(value) ? value : [value];
    const messages = list
      .filter((m): m is string => typeof m === 'string')
      .slice(0, MAX_MESSAGES_PER_FIELD)
      .map((m) => (withoutSecrets(m, secrets) === undefined ? secretInMessage() : sanitizeServerText(m, secrets)))
      .filter((m): m is string => m !== undefined);
    // A field's name is a key to look messages up by (`password`), never shown: kept as sent when it holds a secret.
    if (messages.length > 0) fields[sanitizeServerText(field, secrets, 80) ?? field] = messages;
  }
  return Object.keys(fields).length > 0 ? fields : undefined;
}

/** The error for an HTTP answer with status ≥ 300 that is not followed; `secrets` are the request's (key, password), blanked out of the service's text. */
export function errorForStatus(
  target: RequestTarget,
  status: number,
  headers: Headers,
  body: unknown,
  secrets: readonly string[],
): ApiError {
  const kind = kindForStatus(status);
  const json = jsonOf(body);
  const record = isRecord(json) ? json : {};
  const serviceMessage = typeof record.message === 'string' ? sanitizeServerText(record.message, secrets) : undefined;
  const fieldErrors = kind === 'validation' ? fieldErrorsOf(record.errors, secrets) : undefined;
  const waitMs = parseRetryAfter(headers.get('retry-after'));
  const retryAfter = kind === 'rateLimited' && waitMs !== undefined ? Math.ceil(waitMs / 1000) : undefined;
  const init = { kind, ...target, status, serviceMessage, fieldErrors, retryAfter };
  const sentence = statusSentence(kind, `${target.method} ${target.path}`, status, retryAfter);
  return new ApiError(init, `The service at ${target.host} ${sentence}`);
}

/** What the service did, for the log: `rejected the API key (GET /api/v1/reports answered 401).` */
function statusSentence(kind: ApiErrorKind, at: string, status: number, retryAfter: number | undefined): string {
  switch (kind) {
    case 'unauthorized':
      return `rejected the API key (${at} answered 401).`;
    case 'forbidden':
      return `does not allow this API key to ${at} (403).`;
    case 'notFound':
      return `has nothing at ${at} (${status}).`;
    case 'validation':
      return `did not accept ${at} (${status}).`;
    case 'rateLimited':
      return retryAfter === undefined
        ? `is rate limiting requests (${at} answered 429).`
        : `is rate limiting requests; ${at} may be retried after ${retryAfter} s.`;
    default:
      return `answered ${status} to ${at}.`;
  }
}

/** The error for a 2xx answer whose body is unusable. `problem` is our own text, never server text. */
export function badResponseError(target: RequestTarget, status: number, problem: string, cause?: unknown): ApiError {
  return new ApiError(
    { kind: 'badResponse', ...target, status, reason: problem, cause },
    `The service at ${target.host} answered ${status} to ${target.method} ${target.path} with a body that is not the expected JSON (${problem}).`,
  );
}

/** Reasons of failures without an answer in the client's own words (messages.ts translates them). */
export const NETWORK_ERROR = 'network error';
export const CONNECTION_CLOSED = 'connection closed';
export const CONNECT_TIMEOUT = 'connect timeout';
export const HEADERS_TIMEOUT = 'headers timeout';
export const BODY_TIMEOUT = 'body timeout';

const FRIENDLY_CODES: Record<string, string> = {
  UND_ERR_SOCKET: CONNECTION_CLOSED,
  UND_ERR_CLOSED: CONNECTION_CLOSED,
  UND_ERR_CONNECT_TIMEOUT: CONNECT_TIMEOUT,
  UND_ERR_HEADERS_TIMEOUT: HEADERS_TIMEOUT,
  UND_ERR_BODY_TIMEOUT: BODY_TIMEOUT,
};

/**
 * A short reason for a failure without an HTTP answer: the first error `code` in the `cause`
 * chain (`AggregateError.errors` included: Node tried several addresses), a short known message,
 * or "network error".
 */
export function networkReason(error: unknown): string {
  const queue: unknown[] = [error];
  const seen = new Set<unknown>();
  let message: string | undefined;
  while (queue.length > 0) {
    const current = queue.shift();
    if (typeof current !== 'object' || current === null || seen.has(current)) continue;
    seen.add(current);
    const { code, cause, errors, message: text } = current as { code?: unknown; cause?: unknown; errors?: unknown; message?: unknown };
    if (typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,40}$/.test(code)) return FRIENDLY_CODES[code] ?? code;
    // Keep the deepest short message; messages of outer wrappers ("fetch failed") say less.
    if (typeof text === 'string' && text.length > 0 && text.length <= 60 && !/[\r\n]/.test(text)) message = text;
    queue.push(cause);
    if (Array.isArray(errors)) queue.push(...(errors as unknown[]));
  }
  if (message === undefined || message === 'fetch failed') return NETWORK_ERROR;
  return message === 'terminated' ? CONNECTION_CLOSED : message;
}
