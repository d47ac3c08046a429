/**
 * The report of a page, as the findings and hovers need it: the one analysed last among the
 * reports whose URL is the page's. The service's search is a substring match, so the lookup
 * asks for the URL sorted by generation date, newest first, and keeps the first exact match,
 * reading at most {@link LOOKUP_PAGES} pages. One lookup per page at a time; the answer is kept
 * until {@link PageReports.clear} (a refresh, a service or key change) or a write replaces it.
 * No `vscode`.
 */
import type { Report, ReportId, ReportsApi } from '../api/types';
import { pageKey, samePage } from './sources';

/** How many pages of 100 a lookup reads before it says the page has no report. */
export const LOOKUP_PAGES = 3;

/** The latest report of `pageUrl` on the service, or undefined when it has none. */
export async function latestReportOf(
  api: Pick<ReportsApi, 'listReports'>,
  pageUrl: string,
  signal?: AbortSignal,
): Promise<Report | undefined> {
  const query = { search: pageUrl, searchBy: 'url', sortBy: 'generated_at', sort: 'desc', perPage: 100 } as const;
  for (let page = 1; page <= LOOKUP_PAGES; page++) {
    const answer = await api.listReports(query, page, signal);
    const match = answer.items.find((report) => samePage(report.url, pageUrl));
    if (match !== undefined) return match;
    if (!answer.hasMore || answer.items.length === 0) return undefined;
  }
  return undefined;
}

/** What is known of a page: its report, or that it has none. */
export type Known = { readonly report: Report | undefined };

/**
 * The pages' reports of one service and key, by page. A lookup in flight is shared; an answer
 * that arrives after {@link clear} is dropped, so a service switch never shows another
 * service's findings.
 */
export class PageReports {
  readonly #known = new Map<string, Known>();
  readonly #inFlight = new Map<string, Promise<Report | undefined>>();
  #generation = 0;

  /** What is loaded for `url`, without asking the service. */
  known(url: string): Known | undefined {
    const key = pageKey(url);
    return key === undefined ? undefined : this.#known.get(key);
  }

  /** The report of `url`: what is loaded, else one lookup (shared by every caller meanwhile). */
  async lookup(url: string, api: Pick<ReportsApi, 'listReports'>): Promise<Report | undefined> {
    const key = pageKey(url);
    if (key === undefined) return undefined;
    const known = this.#known.get(key);
    if (known !== undefined) return known.report;
    const running = this.#inFlight.get(key);
    if (running !== undefined) return running;
    const generation = this.#generation;
    const lookup = latestReportOf(api, url).finally(() => {
      if (this.#inFlight.get(key) === lookup) this.#inFlight.delete(key);
    });
    this.#inFlight.set(key, lookup);
    const report = await lookup;
    if (generation === this.#generation) this.#known.set(key, { report });
    return report;
  }

  /** A write's answer: the report is now its page's latest. */
  put(report: Report): void {
    const key = pageKey(report.url);
    if (key !== undefined) this.#known.set(key, { report });
  }

  /** Forgets report `id` (deleted); returns the page URLs it was the report of. */
  drop(id: ReportId): string[] {
    const pages: string[] = [];
    for (const [key, known] of this.#known) {
      if (known.report !== undefined && String(known.report.id) === String(id)) {
        this.#known.delete(key);
        pages.push(key);
      }
    }
    return pages;
  }

  /** Whether a lookup is running. */
  get busy(): boolean {
    return this.#inFlight.size > 0;
  }

  /** Forgets everything; lookups still running are not kept when they end. */
  clear(): void {
    this.#generation += 1;
    this.#known.clear();
    this.#inFlight.clear();
  }

  /** Whether `generation` (from {@link generation}) is still current. */
  get generation(): number {
    return this.#generation;
  }
}
