/**
 * HTTP plumbing of the reference service: answers, body reading and parsing the way a
 * PHP/Laravel stack does it (form arrays `a[]=`, TrimStrings, ConvertEmptyStringsToNull).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** An answer, built by a handler and written by {@link writeAnswer}. */
export interface Answer {
  status: number;
  /** JSON body; ignored when `text` is set or the status is 204. */
  body?: unknown;
  /** Raw body, sent as is with `contentType`. */
  text?: string | Buffer;
  contentType?: string;
  headers?: Record<string, string>;
}

/** Largest request body the service reads (Laravel's post size limit of this service). */
export const MAX_BODY_BYTES = 1024 * 1024;

/** A JSON answer. */
export function json(status: number, body: unknown, headers?: Record<string, string>): Answer {
  return headers ? { status, body, headers } : { status, body };
}

/** Writes an answer; a connection that went away meanwhile is ignored. */
export function writeAnswer(res: ServerResponse, answer: Answer, extraHeaders: Record<string, string> = {}): void {
  if (res.writableEnded || res.destroyed) return;
  let payload: string | Buffer = '';
  let contentType = answer.contentType ?? 'application/json';
  if (answer.status !== 204 && answer.status !== 304) {
    if (answer.text !== undefined) payload = answer.text;
    else if (answer.body !== undefined) payload = JSON.stringify(answer.body);
  } else {
    contentType = '';
  }
  const headers: Record<string, string | number> = {
    'Cache-Control': 'no-cache, private',
    ...extraHeaders,
    ...answer.headers,
  };
  if (contentType && !hasHeader(headers, 'content-type')) headers['Content-Type'] = contentType;
  if (answer.status !== 204 && answer.status !== 304) headers['Content-Length'] = Buffer.byteLength(payload);
  try {
    res.writeHead(answer.status, headers);
    res.end(payload);
  } catch {
    // Invalid header values from a fault spec, or a socket closed under us: never crash.
    if (!res.headersSent) {
      res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ message: 'Server Error' }));
    } else {
      res.destroy();
    }
  }
}

function hasHeader(headers: Record<string, unknown>, name: string): boolean {
  return Object.keys(headers).some((key) => key.toLowerCase() === name);
}

/** A request body read up to {@link MAX_BODY_BYTES}; the rest is read and dropped. */
export interface RawBody {
  bytes: Buffer;
  tooLarge: boolean;
}

/** Reads the whole body; resolves (never rejects) even when the client goes away. */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<RawBody> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let seen = 0;
    let tooLarge = false;
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) tooLarge = true;
    req.on('data', (chunk: Buffer) => {
      seen += chunk.length;
      // Draining keeps the 413 answer readable by the client; a flood beyond this is cut off.
      if (seen > 64 * limit) req.destroy();
      if (tooLarge) return;
      size += chunk.length;
      if (size > limit) {
        tooLarge = true;
        chunks.length = 0;
        return;
      }
      chunks.push(chunk);
    });
    const done = (): void => resolve({ bytes: tooLarge ? Buffer.alloc(0) : Buffer.concat(chunks), tooLarge });
    req.on('end', done);
    req.on('error', done);
    req.on('close', done);
  });
}

/** Input fields after parsing: strings, string arrays and maps (form), or any JSON value. */
export type Fields = Record<string, unknown>;

export type ParsedBody = { ok: true; fields: Fields } | { ok: false; message: string };

/**
 * Parses a body by its Content-Type like PHP and Laravel do: form-urlencoded (also when no
 * type is given), multipart form fields, JSON objects. Other types are ignored (no fields).
 */
export function parseBody(bytes: Buffer, contentType: string | undefined): ParsedBody {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'application/json' || type.endsWith('+json')) {
    const text = bytes.toString('utf8');
    if (text.trim() === '') return { ok: true, fields: {} };
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return { ok: false, message: 'The request body is not valid JSON.' };
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      return { ok: false, message: 'The JSON body must be an object.' };
    }
    return { ok: true, fields: value as Fields };
  }
  if (type === '' || type === 'application/x-www-form-urlencoded') {
    return { ok: true, fields: parseParams(new URLSearchParams(bytes.toString('utf8'))) };
  }
  if (type === 'multipart/form-data') {
    const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType ?? '');
    const name = boundary?.[1] ?? boundary?.[2];
    if (!name) return { ok: false, message: 'The multipart body has no boundary.' };
    return { ok: true, fields: parseParams(multipartEntries(bytes, name.trim())) };
  }
  return { ok: true, fields: {} };
}

/** Text fields of a multipart/form-data body (files are skipped, as they are no field here). */
function multipartEntries(bytes: Buffer, boundary: string): [string, string][] {
  const entries: [string, string][] = [];
  const parts = bytes.toString('latin1').split(`--${boundary}`);
  for (const part of parts.slice(1)) {
    if (part.startsWith('--')) break;
    const split = part.indexOf('\r\n\r\n');
    if (split < 0) continue;
    const head = part.slice(0, split);
    const name = /content-disposition:[^\r\n]*\bname="([^"]*)"/i.exec(head)?.[1];
    if (name === undefined || /\bfilename=/i.test(head)) continue;
    const value = part.slice(split + 4).replace(/\r\n$/, '');
    entries.push([Buffer.from(name, 'latin1').toString('utf8'), Buffer.from(value, 'latin1').toString('utf8')]);
  }
  return entries;
}

/**
 * PHP-style parameters: a repeated name keeps its last value, `name[]` collects a list and
 * `name[key]` a map, so a client sending arrays meets the same validation errors as on PHP.
 */
export function parseParams(entries: Iterable<[string, string]>): Fields {
  const fields: Fields = {};
  for (const [key, value] of entries) {
    const open = key.indexOf('[');
    if (open > 0 && key.endsWith(']')) {
      const name = key.slice(0, open);
      const inner = key.slice(open + 1, -1);
      const existing = fields[name];
      if (inner === '') {
        if (Array.isArray(existing)) existing.push(value);
        else fields[name] = [value];
      } else {
        const map =
          existing !== null && typeof existing === 'object' && !Array.isArray(existing) ? (existing as Fields) : {};
        map[inner] = value;
        fields[name] = map;
      }
    } else {
      fields[key] = value;
    }
  }
  return fields;
}

/** Field names exempt from trimming, as in Laravel's TrimStrings middleware. */
const UNTRIMMED = new Set(['password', 'password_confirmation', 'current_password']);

/**
 * Laravel's global input middleware: strings are trimmed (passwords excepted) and empty
 * strings become null, recursively.
 */
export function normalizeInput(fields: Fields): Fields {
  const out: Fields = {};
  for (const [key, value] of Object.entries(fields)) out[key] = normalizeValue(value, UNTRIMMED.has(key));
  return out;
}

function normalizeValue(value: unknown, keepSpaces: boolean): unknown {
  if (typeof value === 'string') {
    const text = keepSpaces ? value : value.trim();
    return text === '' ? null : text;
  }
  if (Array.isArray(value)) return value.map((item) => normalizeValue(item, keepSpaces));
  if (value !== null && typeof value === 'object') {
    const out: Fields = {};
    for (const [key, item] of Object.entries(value)) out[key] = normalizeValue(item, keepSpaces);
    return out;
  }
  return value;
}

/** PHP's rawurlencode: every byte but `A-Z a-z 0-9 - _ . ~` is percent-encoded. */
export function rawUrlEncode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** A query string (without `?`) the way Laravel's paginator builds its links. */
export function buildQuery(params: [string, string][]): string {
  return params.map(([key, value]) => `${rawUrlEncode(key)}=${rawUrlEncode(value)}`).join('&');
}
