/**
 * The query state of both views: what the user chose (filters, sort), the API query each
 * choice becomes, the text that shows it, and its stored form. Imports no `vscode`: strings
 * the user sees go through `@vscode/l10n` (VS Code's `l10n` in the extension's bundles).
 */
import * as l10n from '@vscode/l10n';
import {
  REPORT_RESULTS,
  type PerPage,
  type ProjectQuery,
  type ProjectSortKey,
  type ReportQuery,
  type ReportResult,
  type ReportSortKey,
  type SortDirection,
} from '../api/types';
import type { ProjectQueryState, ReportQueryState } from '../parts';
import { isOneOf, isRecord } from '../text/guards';
import { singleLine } from '../text/text';
import { unicodeHost } from '../text/pages';

export const REPORT_SORT_KEYS: readonly ReportSortKey[] = ['id', 'generated_at', 'url', 'score'];
export const PROJECT_SORT_KEYS: readonly ProjectSortKey[] = ['created_at', 'project'];
export const SORT_DIRECTIONS: readonly SortDirection[] = ['desc', 'asc'];

/** Longest search text kept, and the longest project name a user may type; longer text is cut. */
export const MAX_FILTER_LENGTH = 200;

export type { ProjectQueryState, ReportQueryState };

/** The service's own defaults: newest first. */
export const DEFAULT_REPORT_QUERY: ReportQueryState = Object.freeze({
  search: undefined,
  project: undefined,
  result: undefined,
  sortBy: 'id',
  sort: 'desc',
});

export const DEFAULT_PROJECT_QUERY: ProjectQueryState = Object.freeze({
  search: undefined,
  sortBy: 'created_at',
  sort: 'desc',
});

/** Trims filter text and cuts it at `limit`; empty or whitespace-only text means "no filter". */
export function normalizeFilterText(text: unknown, limit = MAX_FILTER_LENGTH): string | undefined {
  if (typeof text !== 'string') return undefined;
  const trimmed = text.trim().slice(0, limit).trim();
  return trimmed === '' ? undefined : trimmed;
}

/**
 * A project name to filter by, trimmed and kept whole: it is the host name of a report's URL,
 * which has no length limit, and cut it would match no report.
 */
export function normalizeProjectName(text: unknown): string | undefined {
  return normalizeFilterText(text, Infinity);
}

export function isReportResult(value: unknown): value is ReportResult {
  return isOneOf(REPORT_RESULTS, value);
}

export function isReportSortKey(value: unknown): value is ReportSortKey {
  return isOneOf(REPORT_SORT_KEYS, value);
}

export function isProjectSortKey(value: unknown): value is ProjectSortKey {
  return isOneOf(PROJECT_SORT_KEYS, value);
}

export function isSortDirection(value: unknown): value is SortDirection {
  return value === 'asc' || value === 'desc';
}

/** A new report query with some filters changed; `undefined` or empty text clears a filter. */
export function withReportFilters(
  state: ReportQueryState,
  change: { search?: string | undefined; project?: string | undefined; result?: ReportResult | undefined },
): ReportQueryState {
  return {
    ...state,
    search: 'search' in change ? normalizeFilterText(change.search) : state.search,
    project: 'project' in change ? normalizeProjectName(change.project) : state.project,
    result: 'result' in change ? (isReportResult(change.result) ? change.result : undefined) : state.result,
  };
}

export function withReportSort(state: ReportQueryState, sortBy: ReportSortKey, sort: SortDirection): ReportQueryState {
  return { ...state, sortBy, sort };
}

/** Drops every filter and keeps the sort (what Clear Filters does). */
export function clearReportFilters(state: ReportQueryState): ReportQueryState {
  return { ...state, search: undefined, project: undefined, result: undefined };
}

export function withProjectSearch(state: ProjectQueryState, search: string | undefined): ProjectQueryState {
  return { ...state, search: normalizeFilterText(search) };
}

export function withProjectSort(
  state: ProjectQueryState,
  sortBy: ProjectSortKey,
  sort: SortDirection,
): ProjectQueryState {
  return { ...state, sortBy, sort };
}

/** Whether any filter narrows the Reports view (drives `ContextKey.reportsFiltered`). */
export function isReportQueryFiltered(state: ReportQueryState): boolean {
  return state.search !== undefined || state.project !== undefined || state.result !== undefined;
}

/** Whether a search narrows the Projects view (drives `ContextKey.projectsSearching`). */
export function isProjectQuerySearching(state: ProjectQueryState): boolean {
  return state.search !== undefined;
}

export function sameReportQuery(a: ReportQueryState, b: ReportQueryState): boolean {
  return (
    a.search === b.search &&
    a.project === b.project &&
    a.result === b.result &&
    a.sortBy === b.sortBy &&
    a.sort === b.sort
  );
}

export function sameProjectQuery(a: ProjectQueryState, b: ProjectQueryState): boolean {
  return a.search === b.search && a.sortBy === b.sortBy && a.sort === b.sort;
}

/**
 * The list query sent to the service for the Reports view. Every field is set explicitly,
 * defaults included, so the answer never depends on a server's own defaults.
 */
export function toReportQuery(state: ReportQueryState, perPage: PerPage): ReportQuery {
  const query: ReportQuery = { sortBy: state.sortBy, sort: state.sort, perPage };
  if (state.search !== undefined) {
    query.search = state.search;
    query.searchBy = 'url';
  }
  if (state.project !== undefined) query.project = state.project;
  if (state.result !== undefined) query.result = state.result;
  return query;
}

/**
 * The list query for a project's children in the Projects view: that project's reports,
 * in the Reports view's sort (product spec), without the Reports view's other filters.
 */
export function toProjectReportsQuery(project: string, reportsState: ReportQueryState, perPage: PerPage): ReportQuery {
  return { project, sortBy: reportsState.sortBy, sort: reportsState.sort, perPage };
}

export function toProjectQuery(state: ProjectQueryState, perPage: PerPage): ProjectQuery {
  const query: ProjectQuery = { sortBy: state.sortBy, sort: state.sort, perPage };
  if (state.search !== undefined) {
    query.search = state.search;
    query.searchBy = 'project';
  }
  return query;
}

/** A setting value as a page size the service accepts; anything else is the default 25. */
export function toPerPage(value: unknown): PerPage {
  return value === 10 || value === 25 || value === 50 || value === 100 ? value : 25;
}

// ---- Labels -------------------------------------------------------------------------------

/** The result as a word for descriptions: `good`, `decent`, `bad` (lower case, as in `bad · …`). */
export function resultWord(result: ReportResult): string {
  switch (result) {
    case 'good':
      return l10n.t('good');
    case 'decent':
      return l10n.t('decent');
    case 'bad':
      return l10n.t('bad');
  }
}

function arrow(sort: SortDirection): string {
  return sort === 'desc' ? '↓' : '↑';
}

/** Short name of a report sort key, for the view description: `score ↓`. */
export function reportSortShortLabel(sortBy: ReportSortKey): string {
  switch (sortBy) {
    case 'id':
      return l10n.t('created');
    case 'generated_at':
      return l10n.t('generated');
    case 'url':
      return l10n.t('URL');
    case 'score':
      return l10n.t('score');
  }
}

export function projectSortShortLabel(sortBy: ProjectSortKey): string {
  return sortBy === 'created_at' ? l10n.t('created') : l10n.t('name');
}

export interface SortChoice<K extends string> {
  readonly sortBy: K;
  readonly sort: SortDirection;
  /** E.g. `Score: highest first`. */
  readonly label: string;
}

/** A row of the sort pickers: key, direction, and how the picker names the pair. */
function sortChoice<K extends string>(sortBy: K, sort: SortDirection, label: string): SortChoice<K> {
  return { sortBy, sort, label };
}

/** Every report sort the service offers (key × direction), natural direction first. */
export function reportSortChoices(): SortChoice<ReportSortKey>[] {
  return [
    sortChoice('id', 'desc', l10n.t('Date created: newest first')),
    sortChoice('id', 'asc', l10n.t('Date created: oldest first')),
    sortChoice('generated_at', 'desc', l10n.t('Date generated: newest first')),
    sortChoice('generated_at', 'asc', l10n.t('Date generated: oldest first')),
    sortChoice('url', 'asc', l10n.t('URL: A to Z')),
    sortChoice('url', 'desc', l10n.t('URL: Z to A')),
    sortChoice('score', 'desc', l10n.t('Score: highest first')),
    sortChoice('score', 'asc', l10n.t('Score: lowest first')),
  ];
}

export function projectSortChoices(): SortChoice<ProjectSortKey>[] {
  return [
    sortChoice('created_at', 'desc', l10n.t('Date created: newest first')),
    sortChoice('created_at', 'asc', l10n.t('Date created: oldest first')),
    sortChoice('project', 'asc', l10n.t('Name: A to Z')),
    sortChoice('project', 'desc', l10n.t('Name: Z to A')),
  ];
}

/** Cuts long text for a one-line description, with an ellipsis. */
/** Filter text (a project name from the service, a typed search) for the view's description: one line, at most `max` characters. */
function shorten(text: string, max = 40): string {
  const line = singleLine(text);
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/**
 * The Reports view's description: every active filter, then the sort, e.g.
 * `bad · example.com · "pricing" · score ↓`. The sort is always shown, so a list never
 * looks unsorted; the filters only when set.
 */
export function describeReportQuery(state: ReportQueryState): string {
  const parts: string[] = [];
  if (state.result !== undefined) parts.push(resultWord(state.result));
  if (state.project !== undefined) parts.push(shorten(unicodeHost(state.project)));
  if (state.search !== undefined) parts.push(quoted(shorten(state.search)));
  parts.push(`${reportSortShortLabel(state.sortBy)} ${arrow(state.sort)}`);
  return parts.join(' · ');
}

/** The Projects view's description, e.g. `"shop" · name ↑`. */
export function describeProjectQuery(state: ProjectQueryState): string {
  const parts: string[] = [];
  if (state.search !== undefined) parts.push(quoted(shorten(state.search)));
  parts.push(`${projectSortShortLabel(state.sortBy)} ${arrow(state.sort)}`);
  return parts.join(' · ');
}

/** A search as the descriptions show it: in the language's quotation marks ("pricing", „pricing“). */
function quoted(search: string): string {
  return l10n.t('"{0}"', search);
}

// ---- Persistence --------------------------------------------------------------------------

/** Version of the stored form; a different one is ignored (defaults apply). */
const STORAGE_VERSION = 1;

export interface StoredReportQuery {
  v: number;
  search?: string;
  project?: string;
  result?: string;
  sortBy: string;
  sort: string;
}

export interface StoredProjectQuery {
  v: number;
  search?: string;
  sortBy: string;
  sort: string;
}

/** The report query as plain JSON for `Memento.update`. */
export function serializeReportQuery(state: ReportQueryState): StoredReportQuery {
  return { v: STORAGE_VERSION, ...state };
}

export function serializeProjectQuery(state: ProjectQueryState): StoredProjectQuery {
  return { v: STORAGE_VERSION, ...state };
}

/**
 * Reads a stored report query back. Storage is not trusted (another version of the extension,
 * a hand-edited database): each field is checked on its own and a bad one falls back to its
 * default, so one broken value never loses the others, and garbage never reaches a request.
 */
export function deserializeReportQuery(raw: unknown): ReportQueryState {
  if (!isRecord(raw) || raw.v !== STORAGE_VERSION) return DEFAULT_REPORT_QUERY;
  const sortOk = isReportSortKey(raw.sortBy) && isSortDirection(raw.sort);
  return {
    search: normalizeFilterText(raw.search),
    project: normalizeProjectName(raw.project),
    result: isReportResult(raw.result) ? raw.result : undefined,
    // Key and direction only make sense together (score ↓ is not URL ↓).
    sortBy: sortOk ? (raw.sortBy as ReportSortKey) : DEFAULT_REPORT_QUERY.sortBy,
    sort: sortOk ? (raw.sort as SortDirection) : DEFAULT_REPORT_QUERY.sort,
  };
}

export function deserializeProjectQuery(raw: unknown): ProjectQueryState {
  if (!isRecord(raw) || raw.v !== STORAGE_VERSION) return DEFAULT_PROJECT_QUERY;
  const sortOk = isProjectSortKey(raw.sortBy) && isSortDirection(raw.sort);
  return {
    search: normalizeFilterText(raw.search),
    sortBy: sortOk ? (raw.sortBy as ProjectSortKey) : DEFAULT_PROJECT_QUERY.sortBy,
    sort: sortOk ? (raw.sort as SortDirection) : DEFAULT_PROJECT_QUERY.sort,
  };
}
