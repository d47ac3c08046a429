/**
 * Loads the reports insights aggregate: the report list (`project=`, `per_page=100`, newest
 * first by `sort_by=id&sort=desc`), page after page, one request at a time (the client's 429
 * policy applies to each, and a longer wait the service asks for is waited out:
 * `api/rateLimitWaits.ts`), up to a cap. `vscode`-free.
 *
 * A load is resumable: when a page fails, what was loaded stays in the `LoadProgress` and
 * `loadReports` called again with it continues at the page that failed.
 */
import type { Page, Report, ReportsApi } from '../api/types';
import { waitingOutRateLimits } from '../api/rateLimitWaits';

/** The report list's largest page (contract §2). */
export const INSIGHTS_PAGE_SIZE = 100;
/** The `Setting.insightsLimit` setting's bounds and default. */
export const INSIGHTS_LIMIT_MIN = 100;
export const INSIGHTS_LIMIT_MAX = 20_000;
export const INSIGHTS_LIMIT_DEFAULT = 2_000;

/** The setting's value, made a whole number within its bounds (a hand-edited setting may be anything). */
export function insightsLimit(value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return INSIGHTS_LIMIT_DEFAULT;
  return Math.min(INSIGHTS_LIMIT_MAX, Math.max(INSIGHTS_LIMIT_MIN, Math.floor(value)));
}

/** What a load has fetched so far. */
export interface LoadProgress {
  /** The reports loaded, newest first, at most `limit`. */
  reports: Report[];
  /** The next page to request (1-based). */
  nextPage: number;
  /** The number of reports the server said the list holds (latest page's `meta.total`), when it said. */
  total: number | undefined;
  /** Whether every report up to the cap is loaded. */
  done: boolean;
  /** Whether the cap stopped the load while the server had more. */
  capped: boolean;
}

export function emptyProgress(): LoadProgress {
  return { reports: [], nextPage: 1, total: undefined, done: false, capped: false };
}

/** The project disappeared on the server while it was being loaded. */
export class ProjectGoneError extends Error {
  constructor(readonly project: string) {
    super(`The project ${project} no longer has reports on the service.`);
    this.name = 'ProjectGoneError';
  }
}

export interface LoadOptions {
  /** The project, or null for every report. */
  project: string | null;
  /** Most reports to keep (the newest). */
  limit: number;
  signal?: AbortSignal;
  /** Called after each page with the progress so far. */
  onPage?: (progress: LoadProgress) => void;
  /** Called when the service rate limits and the load waits (seconds), and when it goes on (null). */
  onWait?: (seconds: number | null) => void;
}

/**
 * Loads pages into `progress` (mutated, so a caller keeps what came before a failure) until
 * the list ends or `limit` reports are in. Rejects with the client's error (the progress keeps
 * the pages before it), with `ProjectGoneError` when a project that had reports answers an
 * empty list, or with the client's cancellation when `signal` aborts.
 */
export async function loadReports(
  api: ReportsApi,
  progress: LoadProgress,
  options: LoadOptions,
): Promise<LoadProgress> {
  const { project, limit, signal } = options;
  const seen = new Set(progress.reports.map((r) => String(r.id)));
  while (!progress.done) {
    const query = { ...(project === null ? {} : { project }), sortBy: 'id', sort: 'desc', perPage: INSIGHTS_PAGE_SIZE } as const;
    // Many pages meet the service's rate limit: the load waits as long as it asks.
    const page: Page<Report> = await waitingOutRateLimits(() => api.listReports(query, progress.nextPage, signal), {
      ...(signal ? { signal } : {}),
      onWait: (seconds) => options.onWait?.(seconds),
      onResume: () => options.onWait?.(null),
    });
    // The project held reports a page ago and the server now says it has none: it was
    // deleted meanwhile (a project exists while it has reports, contract §1).
    if (project !== null && page.items.length === 0 && progress.reports.length > 0 && page.total === 0)
      throw new ProjectGoneError(project);
    progress.total = page.total;
    progress.nextPage += 1;
    const before = progress.reports.length;
    for (const report of page.items) {
      // A report created while paging shifts the newest-first pages by one: skip repeats.
      const key = String(report.id);
      if (seen.has(key)) continue;
      seen.add(key);
      if (progress.reports.length >= limit) break;
      progress.reports.push(report);
    }
    // A page of nothing new ends it too: a service that ignores `page` sends page 1 forever.
    const more = page.hasMore && page.items.length > 0 && progress.reports.length > before;
    if (progress.reports.length >= limit) {
      progress.done = true;
      progress.capped = more || (page.total !== undefined && page.total > limit);
    } else if (!more) progress.done = true;
    options.onPage?.(progress);
  }
  return progress;
}
