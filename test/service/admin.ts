/**
 * `/__admin/*`: the test-facing control API, reachable only with `faults: true`. JSON
 * bodies, no authentication, no rate limit. See README.md for every endpoint.
 */
import { hashPassword } from './api';
import type { FaultQueue } from './faults';
import { parseFaultSpec } from './faults';
import { json, type Answer } from './http';
import { presentReport } from './present';
import type { Store } from './store';
import { nowIso } from './time';
import { CANONICAL_SHAPE, type FaultSpec, type RecordedRequest, type Shape, type Speed } from './types';
import { validationAnswer } from './validation';

export interface AdminContext {
  store: Store;
  faults: FaultQueue;
  requests: RecordedRequest[];
  /** The live shape; admin changes it in place. */
  shape: Shape;
  /** The live latency and analysis delay; admin changes them in place. */
  speed: Speed;
  /** The account of a key; undefined for an unknown key. */
  accountOf(key: string): string | undefined;
  /** The first key: its account owns seeded and admin-inserted reports by default. */
  firstKey: string;
  /** Empties data, faults, the request log, the shape, the speed (back to the start options) and the rate limits. */
  reset(): void;
  /** Adds seeded reports to an account. */
  seed(account: string, count: number): Promise<void>;
}

/** Answer order of a report's fields; others follow in the order given. */
const REPORT_FIELDS = [
  'url',
  'project',
  'result',
  'score',
  'privacy',
  'results',
  'generated_at',
  'created_at',
  'updated_at',
];

const SHAPE_VALUES: { [K in keyof Shape]: readonly Shape[K][] } = {
  ids: ['number', 'string'],
  scores: ['number', 'string', 'missing'],
  dates: ['iso', 'sql'],
  list: ['laravel', 'links', 'data', 'array'],
  deleteStatus: [200, 202, 204],
};

const ENDPOINTS: Record<string, string[]> = {
  '/__admin/faults': ['GET', 'POST', 'DELETE'],
  '/__admin/requests': ['GET', 'DELETE'],
  '/__admin/shape': ['GET', 'POST', 'DELETE'],
  '/__admin/speed': ['GET', 'POST'],
  '/__admin/reports': ['POST'],
  '/__admin/reset': ['POST'],
  '/__admin/seed': ['POST'],
};

function parseJson(bytes: Buffer): { ok: true; value: unknown } | { ok: false } {
  const text = bytes.toString('utf8');
  if (text.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Answers an admin request (the body is read as JSON whatever its Content-Type). */
export async function handleAdmin(method: string, pathname: string, bytes: Buffer, ctx: AdminContext): Promise<Answer> {
  const path = pathname.replace(/\/+$/, '');
  const allowed = ENDPOINTS[path];
  if (!allowed) return json(404, { message: `The route ${pathname.slice(1)} could not be found.` });
  if (!allowed.includes(method)) {
    return json(
      405,
      {
        message: `The ${method} method is not supported for route ${path.slice(1)}. Supported methods: ${allowed.join(', ')}.`,
      },
      { Allow: allowed.join(', ') },
    );
  }
  const parsed = parseJson(bytes);
  if (!parsed.ok) return json(400, { message: 'The request body is not valid JSON.' });
  const body = parsed.value;

  switch (`${method} ${path}`) {
    case 'GET /__admin/faults':
      return json(200, ctx.faults.list());
    case 'POST /__admin/faults': {
      const list = Array.isArray(body) ? body : [body];
      const specs: FaultSpec[] = [];
      for (const item of list) {
        const result = parseFaultSpec(item);
        if ('errors' in result) return validationAnswer(result.errors);
        specs.push(result.spec);
      }
      for (const spec of specs) ctx.faults.add(spec);
      return json(200, { queued: ctx.faults.list().length, faults: ctx.faults.list() });
    }
    case 'DELETE /__admin/faults':
      return json(200, { cleared: ctx.faults.clear() });
    case 'GET /__admin/requests':
      return json(200, ctx.requests);
    case 'DELETE /__admin/requests': {
      const count = ctx.requests.length;
      ctx.requests.length = 0;
      return json(200, { cleared: count });
    }
    case 'GET /__admin/shape':
      return json(200, ctx.shape);
    case 'DELETE /__admin/shape':
      Object.assign(ctx.shape, CANONICAL_SHAPE);
      return json(200, ctx.shape);
    case 'POST /__admin/shape':
      return changeShape(body, ctx.shape);
    case 'GET /__admin/speed':
      return json(200, ctx.speed);
    case 'POST /__admin/speed':
      return changeSpeed(body, ctx.speed);
    case 'POST /__admin/reports':
      return insertReport(body, ctx);
    case 'POST /__admin/reset':
      ctx.reset();
      return json(200, { reset: true });
    case 'POST /__admin/seed': {
      if (
        !isObject(body) ||
        !Number.isSafeInteger(body.count) ||
        (body.count as number) < 1 ||
        (body.count as number) > 100_000
      ) {
        return validationAnswer({ count: ['The count must be an integer from 1 to 100000.'] });
      }
      const key = body.key === undefined ? ctx.firstKey : body.key;
      const account = typeof key === 'string' ? ctx.accountOf(key) : undefined;
      if (account === undefined) return validationAnswer({ key: ['The key is not a key of this service.'] });
      await ctx.seed(account, body.count as number);
      return json(200, { seeded: body.count, total: ctx.store.count(account) });
    }
  }
  return json(404, { message: `The route ${pathname.slice(1)} could not be found.` });
}

function changeShape(body: unknown, shape: Shape): Answer {
  if (!isObject(body)) return validationAnswer({ shape: ['The shape must be a JSON object.'] });
  const errors: Record<string, string[]> = {};
  const next: Partial<Record<keyof Shape, unknown>> = {};
  for (const key of Object.keys(SHAPE_VALUES) as (keyof Shape)[]) {
    if (body[key] === undefined) continue;
    if (!(SHAPE_VALUES[key] as readonly unknown[]).includes(body[key])) {
      errors[key] = [`The ${key} must be one of ${SHAPE_VALUES[key].join(', ')}.`];
    } else next[key] = body[key];
  }
  if (Object.keys(errors).length > 0) return validationAnswer(errors);
  Object.assign(shape, next);
  return json(200, shape);
}

/** Sets the latency and the analysis delay given (each 0 to 60000 ms); answers both. */
function changeSpeed(body: unknown, speed: Speed): Answer {
  if (!isObject(body)) return validationAnswer({ speed: ['The speed must be a JSON object.'] });
  const errors: Record<string, string[]> = {};
  const next: Partial<Speed> = {};
  for (const key of ['latencyMs', 'analysisDelayMs'] as const) {
    const value = body[key];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 60_000) {
      errors[key] = [`The ${key} must be an integer from 0 to 60000.`];
    } else next[key] = value;
  }
  if (Object.keys(errors).length > 0) return validationAnswer(errors);
  Object.assign(speed, next);
  return json(200, speed);
}

/**
 * Inserts a raw report: fields are kept as given (hostile values included); `id` is always
 * the next id; `project` (host of `url`), `privacy` (0), `created_at` and `updated_at` (now)
 * are filled when absent; `omit` removes fields, to test missing ones. `password` is kept
 * hashed and never answered.
 */
function insertReport(body: unknown, ctx: AdminContext): Answer {
  if (!isObject(body) || !isObject(body.report))
    return validationAnswer({ report: ['The report must be a JSON object.'] });
  const key = body.key === undefined ? ctx.firstKey : body.key;
  const account = typeof key === 'string' ? ctx.accountOf(key) : undefined;
  if (account === undefined) return validationAnswer({ key: ['The key is not a key of this service.'] });
  const omit = body.omit === undefined ? [] : body.omit;
  if (!Array.isArray(omit) || !omit.every((item) => typeof item === 'string')) {
    return validationAnswer({ omit: ['The omit must be a list of field names.'] });
  }
  const given = body.report;
  const now = nowIso();
  const merged: Record<string, unknown> = { ...given };
  delete merged.id;
  delete merged.password;
  if (!('project' in merged)) merged.project = hostOf(merged.url);
  if (!('privacy' in merged)) merged.privacy = 0;
  if (!('created_at' in merged)) merged.created_at = now;
  if (!('updated_at' in merged)) merged.updated_at = now;
  for (const name of omit) delete merged[name];
  const fields: Record<string, unknown> = {};
  for (const name of REPORT_FIELDS) if (name in merged) fields[name] = merged[name];
  for (const [name, value] of Object.entries(merged)) if (!(name in fields)) fields[name] = value;
  const passwordHash = typeof given.password === 'string' ? hashPassword(given.password) : null;
  const report = ctx.store.insert(account, fields, passwordHash);
  const shown = presentReport(report, ctx.shape);
  // The report's fields at the top level, and the same report under `data` like a store answer.
  return json(201, { ...shown, data: shown });
}

function hostOf(url: unknown): string {
  if (typeof url !== 'string') return '';
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}
