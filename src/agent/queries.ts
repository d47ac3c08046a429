/**
 * The reads behind the agent tools, on the service client: the tools' inputs checked, a
 * search by exact page URL, and the `per_page` a limit asks for. Imports no `vscode`; unit-tested
 * against the reference service.
 */
import {
  PER_PAGE_VALUES,
  REPORT_RESULTS,
  type PerPage,
  type Report,
  type ReportId,
  type ReportQuery,
  type ReportsApi,
  type ReportSortKey,
  type SortDirection,
} from '../api/types';
import { isOneOf, isRecord, isReportId } from '../text/guards';
import type { FoundReports } from './results';

/** `pageReports_findReports`'s limit when none is given. */
export const DEFAULT_LIMIT = 20;
/** The most list pages one exact-URL search reads (each of 100 reports). */
export const URL_SEARCH_PAGES = 5;

const SORT_KEYS: readonly ReportSortKey[] = ['id', 'generated_at', 'url', 'score'];
const DIRECTIONS: readonly SortDirection[] = ['asc', 'desc'];

/** `pageReports_findReports`'s input, checked. */
export interface FindInput {
  readonly url?: string;
  readonly query: Omit<ReportQuery, 'perPage'>;
  readonly limit: number;
}

/** An input the tool cannot use: the text says what to send instead. */
export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputError';
  }
}

function optionalText(input: Record<string, unknown>, field: string): string | undefined {
  const value = input[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value.trim() === '' || value.length > 2048)
    throw new InputError(`${field} must be a non-empty string of at most 2048 characters.`);
  return value.trim();
}

function record(input: unknown): Record<string, unknown> {
  if (input === undefined || input === null) return {};
  if (!isRecord(input)) throw new InputError('The input must be a JSON object.');
  return input;
}

/** Reads `pageReports_findReports`'s input: `{ url?, search?, project?, result?, sortBy?, sort?, limit? }`. */
export function readFindInput(raw: unknown): FindInput {
  const input = record(raw);
  const url = optionalText(input, 'url');
  const search = optionalText(input, 'search');
  const project = optionalText(input, 'project');
  const { result, sortBy, sort, limit } = input;
  if (result !== undefined && !isOneOf(REPORT_RESULTS, result))
    throw new InputError('result must be "good", "decent" or "bad".');
  if (sortBy !== undefined && !isOneOf(SORT_KEYS, sortBy))
    throw new InputError('sortBy must be "id" (date created), "generated_at", "url" or "score".');
  if (sort !== undefined && !isOneOf(DIRECTIONS, sort)) throw new InputError('sort must be "asc" or "desc".');
  if (limit !== undefined && !(typeof limit === 'number' && Number.isInteger(limit) && limit >= 1 && limit <= 100))
    throw new InputError('limit must be a whole number from 1 to 100.');
  if (url !== undefined && search !== undefined)
    throw new InputError('Give url (an exact page) or search (part of a URL), not both.');
  return {
    ...(url === undefined ? {} : { url }),
    query: {
      ...(search === undefined ? {} : { search }),
      ...(project === undefined ? {} : { project }),
      ...(result === undefined ? {} : { result }),
      ...(sortBy === undefined ? {} : { sortBy }),
      ...(sort === undefined ? {} : { sort }),
    },
    limit: limit ?? DEFAULT_LIMIT,
  };
}

/** Reads `pageReports_getReport`'s input: exactly one of `{ id }` (number or string) and `{ url }`. */
export function readReportInput(raw: unknown): { id: ReportId } | { url: string } {
  const input = record(raw);
  const url = optionalText(input, 'url');
  const { id } = input;
  if (id !== undefined && url !== undefined) throw new InputError('Give id or url, not both.');
  if (url !== undefined) return { url };
  if (id === undefined)
    throw new InputError('Give the report id (as pageReports_findReports lists it) or the exact page url.');
  if (!isReportId(id)) throw new InputError('id must be a report id: a whole number, or the text the service gave.');
  return { id };
}

/** Reads `pageReports_reanalyzeReport`'s input: `{ id }`. */
export function readIdInput(raw: unknown): ReportId {
  const { id } = record(raw);
  if (!isReportId(id))
    throw new InputError(
      'Give the report id (a whole number, or the text the service gave), as pageReports_findReports lists it.',
    );
  return id;
}

/** Reads `pageReports_getInsights`'s input: `{ project? }` (omitted: all projects). */
export function readProjectInput(raw: unknown): string | null {
  return optionalText(record(raw), 'project') ?? null;
}

/** Reads `pageReports_createReport`'s input: `{ url, privacy? }`, privacy 0 (Public) or 1 (Private). */
export function readCreateInput(raw: unknown, isHttpUrl: (text: string) => boolean): { url: string; privacy: 0 | 1 } {
  const input = record(raw);
  if ('password' in input)
    throw new InputError(
      'A password cannot be set through an agent: the user sets it with Page Reports: Change Privacy....',
    );
  const url = optionalText(input, 'url');
  if (url === undefined || /\s/.test(url) || !isHttpUrl(url))
    throw new InputError('url must be the absolute http:// or https:// URL of the page to analyze.');
  const privacy = input.privacy ?? 0;
  if (privacy !== 0 && privacy !== 1)
    throw new InputError(
      'privacy must be 0 (Public) or 1 (Private); a password-protected report is set up by the user.',
    );
  return { url, privacy };
}

/** The smallest page size the service allows that holds `limit` reports (at most 100). */
export function perPageFor(limit: number): PerPage {
  return PER_PAGE_VALUES.find((size) => size >= limit) ?? 100;
}

/** A URL for comparing pages: without its fragment and one trailing slash. */
function pageKey(url: string): string {
  const hash = url.indexOf('#');
  const bare = hash === -1 ? url : url.slice(0, hash);
  return bare.endsWith('/') ? bare.slice(0, -1) : bare;
}

/** Whether two URLs name the same page: equal but for a fragment and one trailing slash. */
export function samePage(a: string, b: string): boolean {
  return pageKey(a) === pageKey(b);
}

/**
 * The reports `input` asks for: the service's list (its search, filters and sort) at the next
 * allowed page size, cut to the limit; with `url`, the reports of exactly that page, found through
 * the service's search for it and checked here, over at most {@link URL_SEARCH_PAGES} pages.
 */
export async function findReports(api: ReportsApi, input: FindInput, signal?: AbortSignal): Promise<FoundReports> {
  if (input.url === undefined) {
    const page = await api.listReports({ ...input.query, perPage: perPageFor(input.limit) }, 1, signal);
    return {
      reports: page.items.slice(0, input.limit),
      total: page.total ?? (page.hasMore ? undefined : page.items.length),
    };
  }
  const { reports, complete } = await reportsOfPage(api, input.url, input.query, signal);
  return { reports: reports.slice(0, input.limit), total: complete ? reports.length : undefined };
}

/**
 * The reports whose URL is `url`'s page, in the order `query` sorts them, and whether every
 * page of the search was read.
 */
async function reportsOfPage(
  api: ReportsApi,
  url: string,
  query: Omit<ReportQuery, 'perPage'>,
  signal?: AbortSignal,
): Promise<{ reports: Report[]; complete: boolean }> {
  const matches: Report[] = [];
  for (let number = 1; number <= URL_SEARCH_PAGES; number++) {
    const page = await api.listReports({ ...query, search: pageKey(url), perPage: 100 }, number, signal);
    matches.push(...page.items.filter((r) => samePage(r.url, url)));
    if (!page.hasMore || page.items.length === 0) return { reports: matches, complete: true };
  }
  return { reports: matches, complete: false };
}

/** The report of exactly `url`'s page analysed last, or undefined when there is none. */
export async function latestReportOf(api: ReportsApi, url: string, signal?: AbortSignal): Promise<Report | undefined> {
  const { reports } = await reportsOfPage(api, url, { sortBy: 'generated_at', sort: 'desc' }, signal);
  return reports[0];
}
