/**
 * Analysis of a report's page: fetch it, then run the checks. A page that cannot be
 * fetched is an {@link AnalysisError}, which store and `update=1` answer as a 422 on `url`.
 */
import { analyzeHtml } from './checks';
import { DEFAULT_LIMITS, FetchError, fetchPage, type FetchLimits } from './fetchPage';
import type { Analysis } from './types';

export class AnalysisError extends Error {
  constructor(readonly reason: string) {
    super(`The url could not be fetched: ${reason}.`);
    this.name = 'AnalysisError';
  }
}

/** Analyzes the page at `url` (the fetch follows `limits`). */
export type Analyzer = (url: string) => Promise<Analysis>;

/** An analyzer with the given fetch timeout (the size cap and redirect bound are fixed). */
export function createAnalyzer(timeoutMs = DEFAULT_LIMITS.timeoutMs): Analyzer {
  const limits: FetchLimits = { ...DEFAULT_LIMITS, timeoutMs };
  return async (url) => {
    let page;
    try {
      page = await fetchPage(url, limits);
    } catch (error) {
      if (error instanceof FetchError) throw new AnalysisError(error.reason);
      throw new AnalysisError(error instanceof Error ? error.message : String(error));
    }
    const contentType = page.headers['content-type'];
    const headerCharset = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType ?? '')?.[1]?.toLowerCase() ?? null;
    const robots = page.headers['x-robots-tag'];
    return analyzeHtml(page.html, {
      finalUrl: page.finalUrl,
      redirects: page.redirects.length,
      bytes: page.bytes,
      elapsedMs: page.elapsedMs,
      headerCharset,
      robotsHeader: Array.isArray(robots) ? robots.join(', ') : (robots ?? null),
    });
  };
}
