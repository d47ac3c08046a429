/**
 * Tolerant reading of the service's answers (contract §5) into the normalized domain types.
 *
 * Only what identifies a thing is required (a report's `id` and `url`, a project's name, a
 * list's items): without it the answer is unusable and the caller gets a `badResponse`.
 * Every other field is read leniently: a value of the wrong type becomes `undefined`
 * ("missing"), never `NaN`, `Invalid Date` or a crash. `raw` keeps the object as sent.
 * Imports no `vscode`.
 */
import * as v from 'valibot';
import type { Check, Importance, Page, Privacy, Project, Report, ReportResult } from './types';

/** An answer body that does not have the shape expected; `problem` is short and holds no server text. */
export class ResponseShapeError extends Error {
  constructor(readonly problem: string) {
    super(`Unexpected answer shape: ${problem}`);
    this.name = 'ResponseShapeError';
  }
}

// ---------------------------------------------------------------------------------------
// Field readers: total functions from any JSON value to a normalized value or undefined.

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const NUMERIC = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;

/** A finite number from a number or a numeric string; anything else is undefined. */
export function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && NUMERIC.test(value.trim())) {
    const n = Number(value.trim());
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

/** A positive integer (page numbers, counts ≥ 1), else undefined. */
function toPositiveInt(value: unknown): number | undefined {
  const n = toNumber(value);
  return n !== undefined && Number.isInteger(n) && n >= 1 ? n : undefined;
}

function toCount(value: unknown): number | undefined {
  const n = toNumber(value);
  return n !== undefined && Number.isInteger(n) && n >= 0 ? n : undefined;
}

export function toResult(value: unknown): ReportResult | undefined {
  return value === 'good' || value === 'decent' || value === 'bad' ? value : undefined;
}

/** 0, 1, 2 as numbers or as the strings "0".."2" (form-encoding servers send those). */
export function toPrivacy(value: unknown): Privacy | undefined {
  const n = typeof value === 'string' ? (/^\s*[012]\s*$/.test(value) ? Number(value) : undefined) : value;
  return n === 0 || n === 1 || n === 2 ? n : undefined;
}

export function toImportance(value: unknown): Importance | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim().toLowerCase();
  return text === 'high' || text === 'medium' || text === 'low' ? text : undefined;
}

/** true/false, and the 1/0 and "true"/"false" spellings some serializers use. */
export function toPassed(value: unknown): boolean | undefined {
  if (value === true || value === 1 || value === '1' || value === 'true') return true;
  if (value === false || value === 0 || value === '0' || value === 'false') return false;
  return undefined;
}

// ISO 8601 (`2026-11-20T10:15:30.000000Z`, with or without zone) and SQL (`2026-11-20 10:15:30`).
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/**
 * A date from an ISO 8601 or `YYYY-MM-DD HH:MM:SS` string. A time without zone is taken
 * as UTC (the service writes UTC; reading it as local time would shift it per machine).
 * Impossible dates (month 13, February 30) are undefined.
 */
export function toDate(value: unknown): Date | undefined {
  if (typeof value !== 'string') return undefined;
  const m = DATE_TIME.exec(value.trim());
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const hour = m[4] === undefined ? 0 : Number(m[4]);
  const minute = m[5] === undefined ? 0 : Number(m[5]);
  const second = m[6] === undefined ? 0 : Number(m[6]);
  const millis = m[7] === undefined ? 0 : Number(m[7].slice(0, 3).padEnd(3, '0'));
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return undefined;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > daysInMonth) return undefined;
  let offsetMinutes = 0;
  const zone = m[8];
  if (zone !== undefined && zone.toUpperCase() !== 'Z') {
    const digits = zone.slice(1).replace(':', '');
    const zoneHours = Number(digits.slice(0, 2));
    const zoneMinutes = digits.length > 2 ? Number(digits.slice(2)) : 0;
    if (zoneHours > 23 || zoneMinutes > 59) return undefined;
    offsetMinutes = (zone.startsWith('-') ? -1 : 1) * (zoneHours * 60 + zoneMinutes);
  }
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day); // setUTCFullYear keeps years 0-99 literal, Date.UTC does not
  utc.setUTCHours(hour, minute, second, millis);
  const time = utc.getTime() - offsetMinutes * 60_000;
  return Number.isFinite(time) ? new Date(time) : undefined;
}

/** A report's `results` map (or, tolerated, a list of named checks or its JSON text) as checks. */
export function toChecks(value: unknown): Check[] {
  let results = value;
  if (typeof results === 'string') {
    try {
      results = JSON.parse(results);
    } catch {
      return [];
    }
  }
  if (Array.isArray(results)) {
    return results.map((entry, index) =>
      toCheck(isRecord(entry) && typeof entry.name === 'string' ? entry.name : String(index), entry),
    );
  }
  if (isRecord(results)) return Object.entries(results).map(([name, entry]) => toCheck(name, entry));
  return [];
}

function toCheck(name: string, entry: unknown): Check {
  if (!isRecord(entry)) return { name, passed: undefined, importance: undefined, value: entry };
  return { name, passed: toPassed(entry.passed), importance: toImportance(entry.importance), value: entry.value };
}

// ---------------------------------------------------------------------------------------
// Schemas. `lenient(f)` accepts any value or a missing key and maps it through `f`.

const lenient = <T>(read: (value: unknown) => T) => v.optional(v.pipe(v.unknown(), v.transform(read)));

const IdSchema = v.union([v.pipe(v.number(), v.finite()), v.pipe(v.string(), v.nonEmpty())]);

const ReportSchema = v.pipe(
  v.looseObject({
    id: IdSchema,
    url: v.string(),
    project: lenient((x) => (typeof x === 'string' ? x : undefined)),
    result: lenient(toResult),
    score: lenient(toNumber),
    privacy: lenient(toPrivacy),
    results: lenient(toChecks),
    generated_at: lenient(toDate),
    created_at: lenient(toDate),
    updated_at: lenient(toDate),
  }),
  v.transform(
    (o): Omit<Report, 'raw'> => ({
      id: o.id,
      url: o.url,
      project: o.project,
      result: o.result,
      score: o.score,
      privacy: o.privacy,
      checks: o.results ?? [],
      generatedAt: o.generated_at,
      createdAt: o.created_at,
      updatedAt: o.updated_at,
    }),
  ),
);

function toProjectName(value: unknown): string | undefined {
  if (typeof value === 'string') return value === '' ? undefined : value;
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;
}

const ProjectSchema = v.pipe(
  v.looseObject({
    project: lenient(toProjectName),
    // The contract names it `project`; `name` is read when `project` is absent.
    name: lenient(toProjectName),
    created_at: lenient(toDate),
  }),
  v.rawTransform(({ dataset, addIssue, NEVER }): Omit<Project, 'raw'> => {
    const name = dataset.value.project ?? dataset.value.name;
    if (name === undefined) {
      addIssue({ expected: 'a project name', path: undefined });
      return NEVER;
    }
    return { name, createdAt: dataset.value.created_at };
  }),
);

const MetaSchema = v.looseObject({
  current_page: lenient(toPositiveInt),
  last_page: lenient(toPositiveInt),
  per_page: lenient(toPositiveInt),
  total: lenient(toCount),
});

const LinksSchema = v.looseObject({
  last: lenient((x) => (typeof x === 'string' ? pageParam(x) : undefined)),
  // `null` means "no next page"; a missing key means "not said".
  next: v.optional(v.unknown()),
});

const EnvelopeSchema = v.looseObject({
  data: v.array(v.unknown()),
  // Read separately below: a malformed `links` or `meta` is ignored, not fatal.
  links: v.optional(v.unknown()),
  meta: v.optional(v.unknown()),
});

function pageParam(link: string): number | undefined {
  try {
    return toPositiveInt(new URL(link, 'http://relative.invalid/').searchParams.get('page'));
  } catch {
    return undefined;
  }
}

function describeIssues(issues: readonly v.BaseIssue<unknown>[], prefix: string): string {
  const issue = issues[0];
  if (!issue) return `${prefix || 'body'} is not valid`;
  const path = [prefix, v.getDotPath(issue)].filter((part) => part !== '' && part !== null).join('.');
  return `${path || 'body'}: expected ${issue.expected ?? 'another value'}`;
}

function parseWith<T>(schema: v.GenericSchema<unknown, T>, input: unknown, where: string): T {
  const result = v.safeParse(schema, input);
  if (!result.success) throw new ResponseShapeError(describeIssues(result.issues, where));
  return result.output;
}

// ---------------------------------------------------------------------------------------
// Entry points used by the client. Each throws ResponseShapeError on an unusable body.

/** One report object (not wrapped). */
export function parseReport(input: unknown, where = ''): Report {
  if (!isRecord(input)) throw new ResponseShapeError(`${where || 'body'}: expected a report object`);
  return { ...parseWith(ReportSchema, input, where), raw: input };
}

/** One project object. */
export function parseProject(input: unknown, where = ''): Project {
  if (!isRecord(input)) throw new ResponseShapeError(`${where || 'body'}: expected a project object`);
  return { ...parseWith(ProjectSchema, input, where), raw: input };
}

/** A single-report answer: `{ data: report }` or a bare report. */
export function parseReportAnswer(body: unknown): Report {
  if (isRecord(body) && 'data' in body && !('id' in body && 'url' in body)) {
    if (!isRecord(body.data)) throw new ResponseShapeError('data: expected a report object');
    return parseReport(body.data, 'data');
  }
  return parseReport(body);
}

/**
 * A list answer — `{data, links, meta}`, `{data, links}`, `{data}` or a bare array — as a
 * page. `page` and `perPage` are what was asked for; the server's `meta` wins when it says.
 */
export function parseListAnswer<T>(
  body: unknown,
  parseItem: (item: unknown, where: string) => T,
  page: number,
  perPage: number,
): Page<T> {
  let data: unknown[];
  let links: v.InferOutput<typeof LinksSchema> | undefined;
  let meta: v.InferOutput<typeof MetaSchema> | undefined;
  let hasLinksNext = false;
  if (Array.isArray(body)) {
    data = body;
  } else {
    const envelope = parseWith(EnvelopeSchema, body, '');
    data = envelope.data;
    const linksResult = v.safeParse(LinksSchema, envelope.links);
    const metaResult = v.safeParse(MetaSchema, envelope.meta);
    links = linksResult.success ? linksResult.output : undefined;
    meta = metaResult.success ? metaResult.output : undefined;
    hasLinksNext = isRecord(envelope.links) && 'next' in envelope.links;
  }
  const items = data.map((item, index) => parseItem(item, `data[${index}]`));

  const currentPage = meta?.current_page ?? page;
  const pageSize = meta?.per_page ?? perPage;
  const total = meta?.total;
  const lastPage = meta?.last_page ?? links?.last ?? (total !== undefined ? Math.max(1, Math.ceil(total / pageSize)) : undefined);
  let hasMore: boolean;
  if (meta?.last_page !== undefined) hasMore = currentPage < meta.last_page;
  else if (hasLinksNext) hasMore = typeof links?.next === 'string' && links.next !== '';
  else if (lastPage !== undefined) hasMore = currentPage < lastPage;
  else hasMore = items.length >= pageSize; // no metadata: a full page may have a successor
  return { items, page: currentPage, perPage: pageSize, total, lastPage, hasMore };
}
