/**
 * Fault injection (only with `faults: true`): faults queued with `POST /__admin/faults`, or
 * sent per request in an `X-Fault` header holding the same JSON. A fault can answer any
 * status with a JSON, HTML, truncated, malformed or empty body, add headers, wait, redirect
 * to another origin, or drop the connection. Three bodies are too large for any client to
 * keep (a gzip bomb, 60 MB, an endless stream), and any fault body can be sent slowly
 * (`bodyDelayMs`: the first half at once, the rest after the delay).
 */
import { STATUS_CODES, type ServerResponse } from 'node:http';
import { createGzip } from 'node:zlib';
import { json, type Answer } from './http';
import type { FaultBody, FaultSpec } from './types';

/** Bodies streamed by {@link streamAnswer} rather than written as one answer. */
const STREAMED_BODIES = ['gzipBomb', 'huge', 'endless'] as const;
const BODY_KINDS = ['json', 'html', 'truncated', 'malformed', 'empty', ...STREAMED_BODIES];
/** What the gzip bomb decompresses to (64 MiB, about 64 KB on the wire). */
export const GZIP_BOMB_BYTES = 64 * 1024 * 1024;
/** The size of the `huge` body: 60 MB. */
export const HUGE_BYTES = 60 * 1000 * 1000;
const CHUNK_BYTES = 64 * 1024;

export type SpecResult = { spec: FaultSpec } | { errors: Record<string, string[]> };

/** Checks a fault spec from the admin API or the header; unknown keys are ignored. */
export function parseFaultSpec(value: unknown): SpecResult {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { errors: { fault: ['A fault must be a JSON object.'] } };
  }
  const input = value as Record<string, unknown>;
  const errors: Record<string, string[]> = {};
  const fail = (field: string, message: string): void => {
    (errors[field] ??= []).push(message);
  };
  const spec: FaultSpec = {};
  if (input.method !== undefined) {
    if (typeof input.method !== 'string' || !/^[A-Za-z]+$/.test(input.method))
      fail('method', 'The method must be an HTTP method name.');
    else spec.method = input.method.toUpperCase();
  }
  if (input.path !== undefined) {
    if (typeof input.path !== 'string' || !input.path.startsWith('/'))
      fail('path', 'The path must be a string starting with /.');
    else spec.path = input.path;
  }
  if (input.query !== undefined) {
    const query = input.query;
    if (
      query === null ||
      typeof query !== 'object' ||
      Array.isArray(query) ||
      !Object.values(query).every((value) => typeof value === 'string')
    )
      fail('query', 'The query must be an object of parameter names and string values.');
    else spec.query = query as Record<string, string>;
  }
  if (input.times !== undefined) {
    if (!Number.isSafeInteger(input.times) || (input.times as number) < 1)
      fail('times', 'The times must be a positive integer.');
    else spec.times = input.times as number;
  }
  if (input.status !== undefined) {
    // 1xx are no final answers.
    if (!Number.isInteger(input.status) || (input.status as number) < 200 || (input.status as number) > 599) {
      fail('status', 'The status must be an integer from 200 to 599.');
    } else spec.status = input.status as number;
  }
  if (input.body !== undefined) {
    const body = input.body;
    if (typeof body === 'string') {
      if (BODY_KINDS.includes(body)) spec.body = body as FaultBody;
      else fail('body', `The body must be one of ${BODY_KINDS.join(', ')}, {raw: string} or a JSON object.`);
    } else if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
      spec.body = body as FaultBody;
    } else {
      fail('body', `The body must be one of ${BODY_KINDS.join(', ')}, {raw: string} or a JSON object.`);
    }
  }
  if (input.headers !== undefined) {
    const headers = input.headers;
    if (headers === null || typeof headers !== 'object' || Array.isArray(headers)) {
      fail('headers', 'The headers must be an object of strings.');
    } else {
      const clean: Record<string, string> = {};
      for (const [name, item] of Object.entries(headers)) {
        if (
          !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) ||
          (typeof item !== 'string' && typeof item !== 'number') ||
          /[\r\n]/.test(String(item))
        ) {
          fail('headers', `The header ${name} is not a valid header.`);
        } else clean[name] = String(item);
      }
      spec.headers = clean;
    }
  }
  if (input.delayMs !== undefined) {
    if (typeof input.delayMs !== 'number' || !(input.delayMs >= 0) || input.delayMs > 600_000) {
      fail('delayMs', 'The delayMs must be a number from 0 to 600000.');
    } else spec.delayMs = input.delayMs;
  }
  if (input.redirectTo !== undefined) {
    let ok = false;
    if (typeof input.redirectTo === 'string') {
      try {
        ok = /^https?:$/.test(new URL(input.redirectTo).protocol);
      } catch {
        ok = false;
      }
    }
    if (!ok) fail('redirectTo', 'The redirectTo must be an absolute http or https URL.');
    else spec.redirectTo = input.redirectTo as string;
  }
  if (input.drop !== undefined) {
    if (typeof input.drop !== 'boolean') fail('drop', 'The drop must be a boolean.');
    else spec.drop = input.drop;
  }
  if (input.noCors !== undefined) {
    if (typeof input.noCors !== 'boolean') fail('noCors', 'The noCors must be a boolean.');
    else spec.noCors = input.noCors;
  }
  if (input.bodyDelayMs !== undefined) {
    if (typeof input.bodyDelayMs !== 'number' || !(input.bodyDelayMs >= 0) || input.bodyDelayMs > 600_000) {
      fail('bodyDelayMs', 'The bodyDelayMs must be a number from 0 to 600000.');
    } else spec.bodyDelayMs = input.bodyDelayMs;
  }
  return Object.keys(errors).length > 0 ? { errors } : { spec };
}

/** Faults waiting for matching requests, first queued first used. */
export class FaultQueue {
  private readonly faults: { spec: FaultSpec; left: number }[] = [];

  add(spec: FaultSpec): void {
    this.faults.push({ spec, left: spec.times ?? 1 });
  }

  clear(): number {
    const count = this.faults.length;
    this.faults.length = 0;
    return count;
  }

  /** The queued faults with how many uses each has left. */
  list(): (FaultSpec & { left: number })[] {
    return this.faults.map((fault) => ({ ...fault.spec, left: fault.left }));
  }

  /** The first fault matching the request, used once. */
  take(method: string, pathname: string, search = ''): FaultSpec | undefined {
    const params = new URLSearchParams(search);
    // Without a path a fault waits for an API request, so the analysis fetching a demo page
    // during a store never uses up a fault meant for the client.
    const index = this.faults.findIndex(
      (fault) =>
        (fault.spec.method === undefined || fault.spec.method === method) &&
        (fault.spec.path === undefined ? pathname.startsWith('/api/') : pathname.startsWith(fault.spec.path)) &&
        // The last of a repeated parameter, as the service reads it.
        Object.entries(fault.spec.query ?? {}).every(([name, value]) => params.getAll(name).at(-1) === value),
    );
    if (index < 0) return undefined;
    const fault = this.faults[index];
    if (--fault.left <= 0) this.faults.splice(index, 1);
    return fault.spec;
  }
}

/** What a fault does to a request, after its delay. */
export type FaultOutcome =
  | { kind: 'drop' }
  | { kind: 'answer'; answer: Answer; bodyDelayMs?: number }
  | { kind: 'stream'; status: number; body: StreamedBody; headers: Record<string, string> }
  | { kind: 'continue'; headers: Record<string, string> };

export type StreamedBody = (typeof STREAMED_BODIES)[number];

/** The canonical JSON body of a status (contract §4), used for `body: 'json'` and a bare status. */
function canonicalBody(status: number): unknown {
  switch (status) {
    case 401:
      return { message: 'Unauthenticated.' };
    case 403:
      return { message: 'This action is unauthorized.' };
    case 404:
      return { message: 'Resource not found.', status: 404 };
    case 422:
      return { message: 'The url field is required.', errors: { url: ['The url field is required.'] } };
    case 429:
      return { message: 'Too Many Attempts.' };
    default:
      return status >= 500 ? { message: 'Server Error' } : { message: STATUS_CODES[status] ?? 'Unknown' };
  }
}

function htmlPage(status: number): string {
  const title = `${status} ${STATUS_CODES[status] ?? ''}`.trim();
  return `<!DOCTYPE html>\n<html><head><title>${title}</title></head><body><center><h1>${title}</h1></center><hr><center>nginx</center></body></html>\n`;
}

const TRUNCATED = '{"data":[{"id":1,"url":"https://example.com/pricing","project":"example.com","result":"go';
const MALFORMED = '{"data": [{"id": 1, "url": \'https://example.com/\', }], "meta": {current_page: 1}}';

/** Turns a fault into its outcome for a request with this path and query. */
export function faultOutcome(spec: FaultSpec, pathname: string, search: string): FaultOutcome {
  if (spec.drop) return { kind: 'drop' };
  const headers = spec.headers ?? {};
  if (spec.redirectTo !== undefined) {
    const status = spec.status !== undefined && spec.status >= 300 && spec.status < 400 ? spec.status : 302;
    const location = `${spec.redirectTo.replace(/\/+$/, '')}${pathname}${search}`;
    return { kind: 'answer', answer: json(status, { message: 'Found' }, { Location: location, ...headers }) };
  }
  if (spec.status === undefined && spec.body === undefined) return { kind: 'continue', headers };
  const status = spec.status ?? (spec.body !== undefined ? 200 : 500);
  const extra: Record<string, string> =
    status === 429 ? { 'Retry-After': '1', 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '0' } : {};
  const body = spec.body ?? 'json';
  if (typeof body === 'string' && (STREAMED_BODIES as readonly string[]).includes(body)) {
    return { kind: 'stream', status, body: body as StreamedBody, headers };
  }
  let answer: Answer;
  if (body === 'json') answer = json(status, canonicalBody(status));
  else if (body === 'html') answer = { status, text: htmlPage(status), contentType: 'text/html; charset=UTF-8' };
  else if (body === 'truncated') answer = { status, text: TRUNCATED, contentType: 'application/json' };
  else if (body === 'malformed') answer = { status, text: MALFORMED, contentType: 'application/json' };
  else if (body === 'empty') answer = { status, text: '', contentType: 'application/json' };
  else if (Object.keys(body).length === 1 && typeof (body as { raw?: unknown }).raw === 'string') {
    answer = { status, text: (body as { raw: string }).raw, contentType: 'application/json' };
  } else answer = json(status, body);
  answer.headers = { ...extra, ...headers };
  return spec.bodyDelayMs === undefined
    ? { kind: 'answer', answer }
    : { kind: 'answer', answer, bodyDelayMs: spec.bodyDelayMs };
}

let gzipBomb: Buffer | undefined;

/**
 * The gzip of a padded list answer of `size` bytes, compressed chunk by chunk so the service
 * never holds the whole (a client test measures the memory of this process).
 */
async function compressedPadding(size: number): Promise<Buffer> {
  const { head, tail, padding } = paddedJson(size);
  const gzip = createGzip({ level: 9 });
  const output: Buffer[] = [];
  gzip.on('data', (chunk: Buffer) => output.push(chunk));
  const ended = new Promise((resolve) => gzip.on('end', resolve));
  const spaces = Buffer.alloc(CHUNK_BYTES, ' ');
  gzip.write(head);
  for (let left = padding; left > 0; left -= CHUNK_BYTES) {
    if (!gzip.write(left >= CHUNK_BYTES ? spaces : spaces.subarray(0, left))) {
      await new Promise((resolve) => gzip.once('drain', resolve));
    }
  }
  gzip.end(tail);
  await ended;
  return Buffer.concat(output);
}

/** A list answer's opening, then spaces: valid JSON if a client ever read all of it. */
function paddedJson(size: number): { head: Buffer; tail: Buffer; padding: number } {
  const head = Buffer.from('{"data":[');
  const tail = Buffer.from(']}');
  return { head, tail, padding: size - head.length - tail.length };
}

/**
 * Writes one of the bodies no client should keep, honouring back pressure and stopping as
 * soon as the client goes away (or `alive` says the service is stopping):
 * - `gzipBomb`: `Content-Encoding: gzip`, about 64 KB that decompress to {@link GZIP_BOMB_BYTES};
 * - `huge`: {@link HUGE_BYTES} with a `Content-Length`;
 * - `endless`: chunked, never ends.
 */
export async function streamAnswer(
  res: ServerResponse,
  outcome: Extract<FaultOutcome, { kind: 'stream' }>,
  alive: () => boolean,
): Promise<void> {
  const headers: Record<string, string | number> = {
    'Content-Type': 'application/json',
    'Cache-Control': 'no-cache, private',
    ...outcome.headers,
  };
  if (outcome.body === 'gzipBomb') {
    gzipBomb ??= await compressedPadding(GZIP_BOMB_BYTES);
    res.writeHead(outcome.status, { ...headers, 'Content-Encoding': 'gzip', 'Content-Length': gzipBomb.length });
    res.end(gzipBomb);
    return;
  }
  const spaces = Buffer.alloc(CHUNK_BYTES, ' ');
  const { head, tail, padding } = paddedJson(HUGE_BYTES);
  if (outcome.body === 'huge') headers['Content-Length'] = HUGE_BYTES;
  res.writeHead(outcome.status, headers);
  res.write(head);
  let left = outcome.body === 'huge' ? padding : Infinity;
  while (left > 0) {
    if (res.destroyed || !alive()) return;
    const chunk = left >= CHUNK_BYTES ? spaces : spaces.subarray(0, left);
    left -= chunk.length;
    if (!res.write(chunk)) await drained(res);
  }
  res.end(tail);
}

/** Resolves once `res` can take more, or has closed. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/**
 * Writes an answer slowly: status, headers and the first half of the body at once, the
 * rest after `delayMs` (so a client's timeout has to cover reading the body).
 */
export async function writeSlowly(
  res: ServerResponse,
  answer: Answer,
  delayMs: number,
  sleep: (ms: number) => Promise<boolean>,
): Promise<void> {
  const text = answer.text ?? (answer.body === undefined ? '' : JSON.stringify(answer.body));
  const payload = Buffer.from(text);
  const half = payload.subarray(0, Math.floor(payload.length / 2));
  res.writeHead(answer.status, {
    'Content-Type': answer.contentType ?? 'application/json',
    'Cache-Control': 'no-cache, private',
    ...answer.headers,
    'Content-Length': payload.length,
  });
  res.write(half);
  if (!(await sleep(delayMs)) || res.destroyed) {
    res.destroy();
    return;
  }
  res.end(payload.subarray(half.length));
}
