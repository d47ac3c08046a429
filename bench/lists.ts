/**
 * Row 4, long lists: 10,000 reports paged at 100 a page through the Reports view's list state
 * (`PagedList` with the fetcher the view builds: `toReportQuery` of the default query, the real
 * client, each page taken by `listedPage`: kept as list summaries, the whole reports going to the
 * recent-reports cache, which keeps the last 100) against the reference service on loopback.
 * Per run: the requests the service saw (must equal the page count), the total time, and the
 * heap the loaded list and the cache hold (after a full GC, with both still referenced),
 * also per report. Then the time to format 100 tree items with the
 * `vscode`-free part of the item builder (src/views/format.ts); the real `TreeItem`s are built
 * inside the extension host (see host.ts).
 */
import { createClient } from '../src/api/client';
import type { Report } from '../src/api/types';
import { highlightRanges, reportAccessibilityLabel, reportDescription, reportHost, reportLabel } from '../src/views/format';
import { PagedList, reportKey } from '../src/views/listState';
import { RecentReports } from '../src/stores/recentReports';
import { listedPage } from '../src/views/summary';
import { DEFAULT_REPORT_QUERY, toReportQuery } from '../src/views/query';
import { startService } from '../test/service/server';
import type { BenchContext, SectionResult } from './lib/context';
import { measured, type Row } from './lib/report';

const KEY = 'bench-key';
const REPORTS = 10_000;
const PER_PAGE = 100;
const PAGES = REPORTS / PER_PAGE;
const RUNS = 5;
/** Budget of the heap the loaded list holds (issue 14: held as full reports it was 51 MB). */
const HEAP_BUDGET_MB = 12;

/** A full, settled GC (two passes: weak references and finalizers free more on the second). */
function collect(): void {
  if (typeof global.gc !== 'function') return;
  global.gc();
  global.gc();
}

/** Formats one report's tree item the way `reportTreeItem` does, without `vscode`. */
function formatItem(report: Report, now: Date): number {
  const options = { now, locale: 'en' };
  const label = reportLabel(report);
  const highlights = highlightRanges(label, undefined);
  const description = reportDescription(report, { ...options, host: reportHost(report) });
  const spoken = reportAccessibilityLabel(report, options);
  // Used, so the work cannot be optimized away.
  return label.length + highlights.length + description.length + spoken.length;
}

export async function runLists(ctx: BenchContext): Promise<SectionResult> {
  ctx.progress(`lists: ${REPORTS} reports at ${PER_PAGE} a page through the list state, ${RUNS} runs`);
  const service = await startService({ port: 0, keys: [KEY], seed: REPORTS, rateLimit: 0, faults: true, quiet: true });
  const admin = async (method: string, path: string): Promise<unknown> => {
    const response = await fetch(`${service.url}${path}`, { method });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}`);
    return text === '' ? undefined : JSON.parse(text);
  };
  try {
    const requests: number[] = [];
    const totals: number[] = [];
    const heapMB: number[] = [];
    let loaded: readonly Report[] = [];
    const canMeasureHeap = typeof global.gc === 'function';
    for (let run = 0; run < RUNS; run++) {
      // Only the last run's items are kept (for formatting); each run starts without the previous one's.
      loaded = [];
      await admin('DELETE', '/__admin/requests');
      const api = createClient({ baseUrl: service.url, getKey: () => KEY, onRequest: () => undefined });
      const query = toReportQuery(DEFAULT_REPORT_QUERY, PER_PAGE);
      let list: PagedList<Report> | undefined = new PagedList<Report>(reportKey);
      collect();
      const heapBefore = process.memoryUsage().heapUsed;
      const started = performance.now();
      // As the views load a list: summaries kept, the whole reports in the recent-reports cache.
      const cache = new RecentReports();
      await list.load(async (page, signal) => listedPage(await api.listReports(query, page, signal), cache, service.url));
      while (list.hasMore && list.status === 'loaded') await list.loadMore();
      totals.push(performance.now() - started);
      if (list.status !== 'loaded' || list.items.length !== REPORTS) {
        throw new Error(
          `the list ended ${list.status} with ${list.items.length} of ${REPORTS} reports: ${String(list.error)}`,
        );
      }
      collect();
      heapMB.push((process.memoryUsage().heapUsed - heapBefore) / 2 ** 20);
      const seen = (await admin('GET', '/__admin/requests')) as { method: string; path: string }[];
      requests.push(seen.filter((r) => r.method === 'GET' && r.path === '/api/v1/reports').length);
      loaded = list.items;
      list.dispose();
      list = undefined;
    }

    // 100 items at a time, each slice of the loaded list once: the steady state of a view
    // rendering page after page (formatters are cached after the first call).
    const now = new Date();
    let sink = 0;
    for (let i = 0; i < PER_PAGE; i++) sink += formatItem(loaded[i], now); // warm-up
    const formatMs: number[] = [];
    for (let page = 0; page < PAGES; page++) {
      const started = performance.now();
      for (const report of loaded.slice(page * PER_PAGE, (page + 1) * PER_PAGE)) sink += formatItem(report, now);
      formatMs.push(performance.now() - started);
    }
    if (sink === 0) throw new Error('formatting produced nothing');

    const rows: Row[] = [
      measured('lists.requests', `Lists: requests for ${REPORTS.toLocaleString('en-US')} reports`, 'count', requests),
      measured('lists.total', 'Lists: total time, 100 pages', 'ms', totals),
      measured('lists.heap', 'Lists: heap growth, list held', 'MB', heapMB, {
        note: canMeasureHeap ? undefined : 'heap growth without --expose-gc is not settled; run through npm run bench',
      }),
      measured(
        'lists.heapPerReport',
        'Lists: heap per report held',
        'bytes',
        heapMB.map((mb) => (mb * 2 ** 20) / REPORTS),
        {
          budget: {
            kind: 'max',
            value: (HEAP_BUDGET_MB * 2 ** 20) / REPORTS,
            text: '≤ 1.2 KB',
          },
        },
      ),
      measured('lists.format', 'Lists: format 100 tree items (no vscode)', 'ms', formatMs, { spread: 'iqr' }),
    ];
    return { rows, details: { reports: REPORTS, perPage: PER_PAGE, runs: RUNS, requests, totals, heapMB } };
  } finally {
    await service.stop();
  }
}
