/**
 * Helpers of the conformance suite: raw HTTP calls to a running reference service (no
 * client library, so every byte the service sends is what the test sees).
 */
import assert from 'node:assert/strict';
import http, { type IncomingHttpHeaders } from 'node:http';
import { startService, type RunningService } from '../service/server';
import type { ServiceOptions } from '../service/types';

/** A parsed JSON answer: tests read it field by field and assert what they find. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- untyped JSON from the wire, checked by the asserts
export type Json = any;

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** The parsed body when it is JSON; undefined otherwise. */
  json: Json;
}

export interface CallOptions {
  /** API key sent as `Authorization: Bearer <key>`; null sends none. */
  key?: string | null;
  /** Sent form-urlencoded. */
  form?: Record<string, string | number> | [string, string][];
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as is. */
  body?: string | Buffer;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

/** One HTTP request; resolves with the whole answer. Rejects only on a network error. */
export function call(base: string, method: string, path: string, options: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (options.key !== null && options.key !== undefined) headers.Authorization = `Bearer ${options.key}`;
  let body: string | Buffer | undefined = options.body;
  if (options.form !== undefined) {
    const entries = Array.isArray(options.form)
      ? options.form
      : Object.entries(options.form).map(([k, v]): [string, string] => [k, String(v)]);
    body = new URLSearchParams(entries).toString();
    headers['Content-Type'] ??= 'application/x-www-form-urlencoded';
  } else if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['Content-Type'] ??= 'application/json';
  }
  // Node sends a GET or DELETE body without length or chunking unless told the length.
  if (body !== undefined) headers['Content-Length'] ??= String(Buffer.byteLength(body));
  return new Promise((resolve, reject) => {
    // Not `new URL(path, base)`: a path like `//api` must stay a path.
    const origin = new URL(base);
    const target = { hostname: origin.hostname, port: origin.port, path, method, headers, agent: false };
    const req = http.request(target, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown;
        if (/json/.test(String(res.headers['content-type'])) && text !== '') {
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = undefined;
          }
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: parsed });
      });
    });
    req.setTimeout(options.timeoutMs ?? 20_000, () => req.destroy(new Error(`${method} ${path} timed out`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** Calls bound to one service and key. */
export function client(service: RunningService, key: string | null = 'demo-key') {
  const run = (method: string, path: string, options: CallOptions = {}): Promise<Reply> =>
    call(service.url, method, path, { key, ...options });
  return {
    get: (path: string, options?: CallOptions) => run('GET', path, options),
    post: (path: string, options?: CallOptions) => run('POST', path, options),
    put: (path: string, options?: CallOptions) => run('PUT', path, options),
    patch: (path: string, options?: CallOptions) => run('PATCH', path, options),
    delete: (path: string, options?: CallOptions) => run('DELETE', path, options),
    call: run,
  };
}

/**
 * A call to the admin API (JSON body, no key) answered with the whole reply (status, headers,
 * body), never thrown: conformance checks the admin API's own answers. Other test levels use
 * test/service/adminClient.ts, which answers the JSON and throws on a failure.
 */
export function adminReply(service: RunningService, method: string, path: string, body?: unknown): Promise<Reply> {
  return call(service.url, method, path, { key: null, ...(body === undefined ? {} : { json: body }) });
}

/** Inserts a raw report through the admin API and answers its id. */
export async function insertReport(
  service: RunningService,
  report: Record<string, unknown>,
  key?: string,
): Promise<number> {
  const reply = await adminReply(service, 'POST', '/__admin/reports', key === undefined ? { report } : { key, report });
  assert.equal(reply.status, 201, reply.text);
  return reply.json.data.id as number;
}

/**
 * Starts a service for one suite (mocha `before`/`after`), quiet and without rate limit
 * unless the options say otherwise.
 */
export function useService(options: ServiceOptions = {}): { readonly service: RunningService } {
  const holder: { service?: RunningService } = {};
  before(async function () {
    this.timeout(30_000);
    holder.service = await startService({ rateLimit: 0, quiet: true, ...options });
  });
  after(async () => {
    await holder.service?.stop();
  });
  return {
    get service(): RunningService {
      assert.ok(holder.service, 'the service is not started');
      return holder.service;
    },
  };
}

/** Asserts the canonical 422 body with these fields (in any order) and answers it. */
export function assertValidation(
  reply: Reply,
  fields: string[],
): { message: string; errors: Record<string, string[]> } {
  assert.equal(reply.status, 422, reply.text);
  assert.equal(typeof reply.json?.message, 'string');
  assert.deepEqual(Object.keys(reply.json.errors).sort(), [...fields].sort());
  for (const field of fields) {
    assert.ok(Array.isArray(reply.json.errors[field]) && reply.json.errors[field].length > 0, `errors.${field}`);
    for (const message of reply.json.errors[field]) assert.equal(typeof message, 'string');
  }
  return reply.json;
}

/** Canonical Laravel timestamp. */
export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** Ordinal (code unit) comparison, as the contract sorts text. */
export function ordinal(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Every item of a list, page by page, checking that pages never overlap. */
export async function allPages(get: (path: string) => Promise<Reply>, path: string, perPage = 100): Promise<Json[]> {
  const items: Json[] = [];
  for (let page = 1; page < 10_000; page++) {
    const sep = path.includes('?') ? '&' : '?';
    const reply = await get(`${path}${sep}per_page=${perPage}&page=${page}`);
    assert.equal(reply.status, 200, reply.text);
    items.push(...reply.json.data);
    if (reply.json.meta.current_page >= reply.json.meta.last_page) break;
  }
  return items;
}
