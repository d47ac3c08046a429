/**
 * The recent-reports cache: the whole reports of the latest list answers, in memory, so a
 * report opened from its row shows its analysis at once; the views keep only summaries. A kept
 * report serves only a row of the same version ({@link sameVersion}). Imports no `vscode`.
 */
import type { Report, ReportId } from '../api/types';
import { checkCounts } from '../presentation/format';

/** How many reports are kept: one page of the largest page size a list asks for. */
export const RECENT_REPORTS_LIMIT = 100;

export class RecentReports {
  /** Insertion order is recency: the oldest entry is the first. */
  readonly #reports = new Map<string, Report>();

  constructor(private readonly limit = RECENT_REPORTS_LIMIT) {}

  /** Keeps the whole reports of a list answer from `serviceUrl`, as the most recent. */
  keep(serviceUrl: string, reports: readonly Report[]): void {
    for (const report of reports) {
      const key = keyOf(serviceUrl, report.id);
      this.#reports.delete(key);
      if (hasAnalysis(report)) this.#reports.set(key, report);
    }
    for (const key of this.#reports.keys()) {
      if (this.#reports.size <= this.limit) break;
      this.#reports.delete(key);
    }
  }

  /** The whole report behind a tree row's summary, when one of the same version is kept. */
  forRow(serviceUrl: string, row: Report): Report | undefined {
    const kept = this.#reports.get(keyOf(serviceUrl, row.id));
    return kept !== undefined && sameVersion(kept, row) ? kept : undefined;
  }

  /** How many reports are kept (for tests and the bench). */
  get size(): number {
    return this.#reports.size;
  }

  /** Forgets everything (the connection changed: another key may see other reports). */
  clear(): void {
    this.#reports.clear();
  }
}

/** Whether a summary's counts (either copy's, if it is one) are those of the other's checks. */
function sameCounts(a: Report, b: Report): boolean {
  const [summary, whole] = a.summary !== undefined ? [a.summary, b] : [b.summary, a];
  if (summary === undefined || whole.summary !== undefined) return true;
  const counts = checkCounts(whole);
  return summary.passed === counts.passed && summary.failed === counts.failed && summary.all === counts.all;
}

function keyOf(serviceUrl: string, id: ReportId): string {
  return `${serviceUrl}\n${String(id)}`;
}

/** Whether the answer carried the report's analysis (a service may leave `results` out of lists). */
function hasAnalysis(report: Report): boolean {
  const results = report.raw.results;
  return report.summary === undefined && typeof results === 'object' && results !== null;
}

/**
 * Whether two copies of a report are the same version: every field a row shows, the dates a
 * write moves and, for a row's summary, its pass/fail counts (which tell a re-analysis apart
 * on a service that sends no dates) are equal.
 */
export function sameVersion(a: Report, b: Report): boolean {
  return (
    sameCounts(a, b) &&
    String(a.id) === String(b.id) &&
    a.url === b.url &&
    a.project === b.project &&
    a.result === b.result &&
    a.score === b.score &&
    a.privacy === b.privacy &&
    a.generatedAt?.getTime() === b.generatedAt?.getTime() &&
    a.updatedAt?.getTime() === b.updatedAt?.getTime()
  );
}
