/**
 * What the Reports and Projects views keep of a report: its list summary. Rows, tooltips, sorting
 * and commands need the id, URL, project, result, score, privacy and dates; the analysis
 * (`results`, often most of a report's size) goes with the answer it came in.
 */
import type { Check, Page, Report } from '../api/types';
import type { RecentReports } from '../stores/recentReports';
import { checkCounts } from '../presentation/format';

/** One empty array for every summary's `checks` (a summary has no analysis). */
const NO_CHECKS: Check[] = [];
Object.freeze(NO_CHECKS);

/** Whether `report` is a list summary (its analysis left out), not a full report. */
export function isListSummary(report: Report): boolean {
  return report.summary !== undefined;
}

/**
 * The report as a list keeps it: every normalized field, the analysis replaced by its counts, and
 * of `raw` only the top-level scalars (nested objects and arrays such as `results` go).
 */
export function toListSummary(report: Report): Report {
  if (report.summary) return report;
  const raw: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(report.raw)) {
    if (value === null || typeof value !== 'object') raw[key] = value;
  }
  return { ...report, checks: NO_CHECKS, raw, summary: checkCounts(report) };
}

/** A page of reports as the lists keep it: each report as its summary. */
export function summarizePage(page: Page<Report>): Page<Report> {
  return { ...page, items: page.items.map(toListSummary) };
}

/**
 * A list answer from `serviceUrl` as the views take it: the whole reports go to the
 * recent-reports cache (for a panel opened from their rows), the list keeps the summaries.
 */
export function listedPage(
  page: Page<Report>,
  recentReports: RecentReports,
  serviceUrl: string | undefined,
): Page<Report> {
  if (serviceUrl !== undefined) recentReports.keep(serviceUrl, page.items);
  return summarizePage(page);
}
