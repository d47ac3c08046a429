/**
 * Loads the reports insights aggregate: the report list (`project=`, `per_page=100`, newest first
 * by `sort_by=id&sort=desc`), every page up to a cap, through the list loader (`api/allPages.ts`: a
 * few pages at a time, rate limits waited out).
 */
import { emptyAllPages, loadAllPages, type AllPages } from '../api/allPages';
import type { Report, ReportsApi } from '../api/types';

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

/** What a load has fetched so far: `items` are the reports, newest first, at most the cap. */
export type LoadProgress = AllPages<Report>;

export function emptyProgress(): LoadProgress {
  return emptyAllPages<Report>();
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
  const { project, limit } = options;
  const query = { ...(project === null ? {} : { project }), sortBy: 'id', sort: 'desc', perPage: INSIGHTS_PAGE_SIZE } as const;
  return loadAllPages(progress, {
    fetchPage: (page, signal, read) => api.listReports(query, page, signal, read),
    keyOf: (report) => String(report.id),
    perPage: INSIGHTS_PAGE_SIZE,
    limit,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onPage ? { onPage: options.onPage } : {}),
    ...(options.onWait ? { onWait: options.onWait } : {}),
    checkPage: (page, load) => {
      // The project held reports a page ago and the server now says it has none: it was
      // deleted meanwhile (a project exists while it has reports, contract §1).
      if (project !== null && page.items.length === 0 && load.items.length > 0 && page.total === 0)
        throw new ProjectGoneError(project);
    },
  });
}
