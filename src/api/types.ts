/**
 * Domain types of the report service, normalized from whatever shape the server sent
 * (contract §5). Imports no `vscode`.
 */

/** A report id, kept exactly as the server sent it (number or string). */
export type ReportId = number | string;
export type ReportResult = 'good' | 'decent' | 'bad';
export const REPORT_RESULTS: readonly ReportResult[] = ['good', 'decent', 'bad'];
/** 0 = Public, 1 = Private, 2 = Password. */
export type Privacy = 0 | 1 | 2;
export type Importance = 'high' | 'medium' | 'low';
export type PerPage = 10 | 25 | 50 | 100;
export const PER_PAGE_VALUES: readonly PerPage[] = [10, 25, 50, 100];
export type SortDirection = 'asc' | 'desc';
export type ReportSortKey = 'id' | 'generated_at' | 'url' | 'score';
export type ProjectSortKey = 'created_at' | 'project';

/** One check of a report's analysis (`results[name]`). Missing parts stay undefined. */
export interface Check {
  name: string;
  passed: boolean | undefined;
  importance: Importance | undefined;
  /** Any JSON value, as sent. */
  value: unknown;
}

export interface Report {
  id: ReportId;
  url: string;
  project: string | undefined;
  result: ReportResult | undefined;
  /** 0-100, or undefined when missing or not numeric. */
  score: number | undefined;
  privacy: Privacy | undefined;
  checks: Check[];
  generatedAt: Date | undefined;
  createdAt: Date | undefined;
  updatedAt: Date | undefined;
  /** Every field exactly as the server sent it, unknown ones included (for the raw view). */
  raw: Record<string, unknown>;
  /**
   * Set only on a list summary (src/views/summary.ts), which the views hold instead of the
   * report: its analysis is left out (`checks` is empty, `raw` keeps only top-level scalars)
   * and these are the analysis's counts the tooltip shows.
   */
  summary?: CheckCounts;
}

/** How many checks of an analysis passed and failed, of how many. */
export interface CheckCounts {
  passed: number;
  failed: number;
  all: number;
}

export interface Project {
  name: string;
  createdAt: Date | undefined;
  raw: Record<string, unknown>;
}

/** One page of a list answer. */
export interface Page<T> {
  items: T[];
  /** 1-based page this answer is for. */
  page: number;
  perPage: number;
  /** Total items on the server, when the server said (meta.total). */
  total: number | undefined;
  /** Last page number, when the server said (meta.last_page or links.last). */
  lastPage: number | undefined;
  /** Whether a next page exists (from meta/links, else: a full page means maybe more). */
  hasMore: boolean;
  /** Requests the service still allows in its rate-limit window (`X-RateLimit-Remaining`), when it could be read. */
  rateLimitRemaining?: number;
}

/** How a read is carried out, for callers that handle rate limits themselves. */
export interface ReadOptions {
  /**
   * A 429 comes back at once as `rateLimited` instead of being retried by the client: the
   * loader of every page of a list pauses the whole load once rather than each request alone.
   */
  rateLimitToCaller?: boolean;
}

export interface ReportQuery {
  search?: string;
  /** Field `search` applies to; the service knows only `url` (its default). Sent only when set. */
  searchBy?: 'url';
  project?: string;
  result?: ReportResult;
  sortBy?: ReportSortKey;
  sort?: SortDirection;
  perPage?: PerPage;
}

export interface ProjectQuery {
  search?: string;
  /** Field `search` applies to; the service knows only `project` (its default). Sent only when set. */
  searchBy?: 'project';
  sortBy?: ProjectSortKey;
  sort?: SortDirection;
  perPage?: PerPage;
}

export interface NewReport {
  url: string;
  privacy?: Privacy;
  /** Only sent when privacy is 2. Never logged. */
  password?: string;
}

export interface ReportChange {
  privacy?: Privacy;
  /** Only sent when privacy is 2. Never logged. */
  password?: string;
  /** true sends `update=1`: run the analysis again. */
  update?: boolean;
}

/** The client surface: one method per operation of the service. */
export interface ReportsApi {
  listReports(query: ReportQuery, page: number, signal?: AbortSignal, options?: ReadOptions): Promise<Page<Report>>;
  getReport(id: ReportId, signal?: AbortSignal): Promise<Report>;
  createReport(input: NewReport, signal?: AbortSignal): Promise<Report>;
  updateReport(id: ReportId, change: ReportChange, signal?: AbortSignal): Promise<Report>;
  deleteReport(id: ReportId, signal?: AbortSignal): Promise<void>;
  listProjects(query: ProjectQuery, page: number, signal?: AbortSignal, options?: ReadOptions): Promise<Page<Project>>;
  deleteProject(name: string, signal?: AbortSignal): Promise<void>;
}

/** One line of the request log: never holds the key, a password or a body. */
export interface RequestLogEntry {
  method: string;
  /** Path and query of the request, e.g. `/api/v1/reports?page=2`. */
  path: string;
  status: number | undefined;
  durationMs: number;
  /** How many times this request was retried before this outcome. */
  retries: number;
  /** Short reason when there was no HTTP status (timeout, network). */
  error?: string;
}
