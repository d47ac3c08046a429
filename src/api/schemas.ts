/**
 * Tolerant reading of the service's answers (contract §5) into the domain types. Only what
 * identifies a thing is required (else `badResponse`); any other field of the wrong type becomes
 * `undefined`, never `NaN` or `Invalid Date`.
 */
import type { Check, Importance, Page, Privacy, Project, Report, ReportResult } from './types';
import { isRecord, withoutPasswords } from '../text/guards';

/** An answer body that does not have the shape expected; `problem` is short and holds no server text. */
export class ResponseShapeError extends Error {
  constructor(readonly problem: string) {
    super(`Unexpected answer shape: ${problem}`);
    this.name = 'ResponseShapeError';
  }
}

// Field readers: total functions from any JSON value to a normalized value or undefined.

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

/** An integer of at least `min` (1 for page numbers, 0 for counts), else undefined. */
function toInteger(value: unknown, min: number): number | undefined {
  const n = toNumber(value);
  return n !== undefined && Number.isInteger(n) && n >= min ? n : undefined;
}

export function toResult(value: unknown): ReportResult | undefined {
  return value === 'good' || value === 'decent' || value === 'bad' ? value : undefined;
}

/** 0, 1, 2 as numbers or as the strings "0".."2" (form-encoding servers send those). */
export function toPrivacy(value: unknown): Privacy | undefined {
  if (value === 0 || value === 1 || value === 2) return value;
  if (typeof value !== 'string' || !/^\s*[012]\s*$/.test(value)) return undefined;
  return Number(value) as Privacy;
}

export function toImportance(value: unknown): Importance | undefined {
  if (value === 'high' || value === 'medium' || value === 'low') return value;
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
 * What the service writes (Laravel's form), which `Date.parse` reads whole: faster than taking
 * it apart with {@link DATE_TIME}, and every list answer holds many dates.
 */
const CANONICAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;

/**
 * Date.UTC reads years 0-99 as 1900-1999, so those are read 400 years later and taken back:
 * the Gregorian calendar repeats every 400 years (146,097 days), leap days included.
 */
const GREGORIAN_CYCLE_MS = 146_097 * 86_400_000;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/**
 * A date from an ISO 8601 or `YYYY-MM-DD HH:MM:SS` string. A time without zone is UTC, as the
 * service writes it; impossible dates are undefined, where `Date.UTC` would roll them over.
 */
export function toDate(value: unknown): Date | undefined {
  if (typeof value !== 'string') return undefined;
  if (CANONICAL_DATE_TIME.test(value)) {
    // Date.parse rolls an impossible day over (February 30 reads as March 2; 24:00 as the next
    // day), so the day read back has to be the day written; otherwise the reader below decides.
    const date = new Date(Date.parse(value));
    if (date.getUTCDate() === Number(value.slice(8, 10))) return date;
  }
  const m = DATE_TIME.exec(value.trim());
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const [hour, minute, second] = [Number(m[4] ?? '0'), Number(m[5] ?? '0'), Number(m[6] ?? '0')];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const offset = zoneOffsetMinutes(m[8] ?? 'Z');
  if (offset === undefined) return undefined;
  const millis = Number((m[7] ?? '').slice(0, 3).padEnd(3, '0'));
  const early = year < 100;
  const time =
    Date.UTC(early ? year + 400 : year, month - 1, day, hour, minute, second, millis) -
    offset * 60_000 -
    (early ? GREGORIAN_CYCLE_MS : 0);
  return Number.isFinite(time) ? new Date(time) : undefined;
}

/** `Z`, `+02`, `+0200` or `+02:00` as minutes east of UTC; undefined for an impossible offset. */
function zoneOffsetMinutes(zone: string): number | undefined {
  if (zone.toUpperCase() === 'Z') return 0;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2)) : 0;
  if (hours > 23 || minutes > 59) return undefined;
  return (zone[0] === '-' ? -1 : 1) * (hours * 60 + minutes);
}

/**
 * A report's `results` sent as JSON text (tolerated), read as the object would be: its nesting
 * capped at the depth `results` has in a report (the cap runs before it is parsed, and a deeper
 * value makes posting it to the panel throw) and without passwords. Undefined when not JSON.
 */
function readResultsText(text: string): { value: unknown; hadPassword: boolean } | undefined {
  let parsed: unknown;
  try {
    parsed = capNesting(JSON.parse(text), 1);
  } catch {
    return undefined;
  }
  const value = withoutPasswords(parsed);
  return { value, hadPassword: value !== parsed };
}

/** A report's `results` map (or, tolerated, a list of named checks or its JSON text) as checks. */
export function toChecks(value: unknown): Check[] {
  const results = typeof value === 'string' ? readResultsText(value)?.value : value;
  if (typeof results !== 'object' || results === null) return [];
  const checks: Check[] = [];
  if (Array.isArray(results)) {
    for (let index = 0; index < results.length; index++) {
      const entry: unknown = results[index];
      checks.push(toCheck(isRecord(entry) && typeof entry.name === 'string' ? entry.name : String(index), entry));
    }
    return checks;
  }
  const map = results as Record<string, unknown>;
  const names = Object.keys(map);
  for (let index = 0; index < names.length; index++) checks.push(toCheck(names[index], map[names[index]]));
  return checks;
}

function toCheck(name: string, entry: unknown): Check {
  if (!isRecord(entry)) return { name, passed: undefined, importance: undefined, value: entry };
  const passed = entry.passed;
  const importance = entry.importance;
  return {
    name,
    passed: passed === true || passed === false ? passed : toPassed(passed),
    importance:
      importance === 'high' || importance === 'medium' || importance === 'low' ? importance : toImportance(importance),
    value: entry.value,
  };
}

function toProjectName(value: unknown): string | undefined {
  if (typeof value === 'string') return value === '' ? undefined : value;
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;
}

function pageParam(link: unknown): number | undefined {
  if (typeof link !== 'string') return undefined;
  try {
    return toInteger(new URL(link, 'http://relative.invalid/').searchParams.get('page'), 1);
  } catch {
    return undefined;
  }
}

/** Deepest nesting kept from a report body; anything deeper reads as {@link TOO_DEEP}. */
export const MAX_NESTING = 64;
/** What a value nested deeper than {@link MAX_NESTING} levels reads as. */
export const TOO_DEEP = '(nested too deep)';

/**
 * `value` with everything nested deeper than {@link MAX_NESTING} levels replaced by
 * {@link TOO_DEEP}. A hostile report can nest thousands of levels; `JSON.stringify` and the
 * structured clone behind the panel's `postMessage` then overflow the stack, and the panel never
 * leaves "loading".
 */
export function capNesting(value: unknown, depth = 0): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_NESTING) return TOO_DEEP;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      if (typeof item !== 'object' || item === null) continue;
      const capped = capNesting(item, depth + 1);
      if (capped !== item) (copy ??= value.slice())[index] = capped;
    }
    return copy ?? value;
  }
  const record = value as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const key in record) {
    const item = record[key];
    if (typeof item !== 'object' || item === null || !Object.hasOwn(record, key)) continue;
    const capped = capNesting(item, depth + 1);
    if (capped !== item) (copy ??= { ...record })[key] = capped;
  }
  return copy ?? value;
}

/** `where.field`, or `field` at the top level. */
function at(where: string, field: string): string {
  return where === '' ? field : `${where}.${field}`;
}

// Entry points used by the client. Each throws ResponseShapeError on an unusable body.

/** One report object (not wrapped). Nesting is capped at {@link MAX_NESTING} levels. */
export function parseReport(body: unknown, where = ''): Report {
  if (!isRecord(body)) throw new ResponseShapeError(`${where || 'body'}: expected a report object`);
  let input = withoutPasswords(capNesting(body)) as Record<string, unknown>;
  let results = input.results;
  if (typeof results === 'string') {
    const read = readResultsText(results);
    results = read?.value;
    // A password echoed inside the text goes from the raw data too.
    if (read?.hadPassword === true) input = { ...input, results: JSON.stringify(read.value) };
  }
  const id = input.id;
  // A number past 2^53 (or with a fraction) is not the one the server sent once JSON.parse has
  // read it, and its text names another report: Delete would act on that one.
  if (!((typeof id === 'number' && Number.isSafeInteger(id)) || (typeof id === 'string' && id !== ''))) {
    throw new ResponseShapeError(`${at(where, 'id')}: expected an integer below 2^53 or a non-empty string`);
  }
  // A report without a URL (old data, say) is shown as "Report 42", not made a reason to
  // refuse the whole page it came in.
  const url = typeof input.url === 'string' ? input.url : '';
  const project = input.project;
  return {
    id,
    url,
    project: typeof project === 'string' ? project : undefined,
    result: toResult(input.result),
    score: toNumber(input.score),
    privacy: toPrivacy(input.privacy),
    checks: results === undefined ? [] : toChecks(results),
    generatedAt: toDate(input.generated_at),
    createdAt: toDate(input.created_at),
    updatedAt: toDate(input.updated_at),
    raw: input,
  };
}

/** One project object. The contract names it `project`; `name` is read when `project` is absent. */
export function parseProject(input: unknown, where = ''): Project {
  if (!isRecord(input)) throw new ResponseShapeError(`${where || 'body'}: expected a project object`);
  const name = toProjectName(input.project) ?? toProjectName(input.name);
  if (name === undefined) throw new ResponseShapeError(`${where || 'body'}: expected a project name`);
  return { name, createdAt: toDate(input.created_at), raw: input };
}

/** A single-report answer: `{ data: report }` or a bare report. */
export function parseReportAnswer(body: unknown): Report {
  if (isRecord(body) && 'data' in body && !('id' in body && 'url' in body)) {
    if (!isRecord(body.data)) throw new ResponseShapeError('data: expected a report object');
    return parseReport(body.data, 'data');
  }
  return parseReport(body);
}

/** A list answer — `{data, links, meta}`, `{data, links}`, `{data}` or a bare array — as a page. */
export function parseListAnswer<T>(
  body: unknown,
  parseItem: (item: unknown, where: string) => T,
  page: number,
  perPage: number,
): Page<T> {
  let data: unknown;
  let links: Record<string, unknown> | undefined;
  let meta: Record<string, unknown> | undefined;
  if (Array.isArray(body)) {
    data = body;
  } else {
    if (!isRecord(body)) throw new ResponseShapeError('body: expected a list or an object with a data list');
    data = body.data;
    if (!Array.isArray(data)) throw new ResponseShapeError('data: expected an array');
    if (isRecord(body.links)) links = body.links;
    if (isRecord(body.meta)) meta = body.meta;
  }
  const list = data as unknown[];
  const items: T[] = new Array<T>(list.length);
  for (let index = 0; index < list.length; index++) items[index] = parseItem(list[index], `data[${index}]`);

  const metaLastPage = meta && toInteger(meta.last_page, 1);
  const currentPage = (meta && toInteger(meta.current_page, 1)) ?? page;
  const pageSize = (meta && toInteger(meta.per_page, 1)) ?? perPage;
  const total = meta && toInteger(meta.total, 0);
  const lastPage =
    metaLastPage ??
    (links && pageParam(links.last)) ??
    (total !== undefined ? Math.max(1, Math.ceil(total / pageSize)) : undefined);
  let hasMore: boolean;
  // `links.next: null` means "no next page"; a missing key means "not said".
  if (metaLastPage !== undefined) hasMore = currentPage < metaLastPage;
  else if (links !== undefined && 'next' in links) hasMore = typeof links.next === 'string' && links.next !== '';
  else if (lastPage !== undefined) hasMore = currentPage < lastPage;
  else hasMore = items.length >= pageSize; // no metadata: a full page may have a successor
  return { items, page: currentPage, perPage: pageSize, total, lastPage, hasMore };
}
