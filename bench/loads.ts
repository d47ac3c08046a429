/**
 * Loads at the speed of a real service: the reference service answers every request after a
 * latency, as one across a network does, and the figures are what users wait for there.
 *
 * - Insights: 2,000 reports (20 pages of 100), 100 ms a request, rate limit off, from the first
 *   request to the last page parsed (`loadReports`), against the round trips the list loader
 *   needs at best: latency × (1 + ⌈(pages − 1) / 4⌉) (page 1, then four at a time).
 * - CSV export: the same list the way Export List as CSV… fetches and writes it (the Reports
 *   view's default query through `loadAllPages`, then `reportsCsv`), against the same limit.
 * - One list request at 50 ms latency through the client, against plain `fetch` and
 *   `JSON.parse` of the same request, alternating, one at a time.
 */
import { loadAllPages, emptyAllPages, MAX_PAGES_IN_FLIGHT } from '../src/api/allPages';
import { createClient } from '../src/api/client';
import type { Report } from '../src/api/types';
import { CSV_BOM, reportsCsv } from '../src/text/csv';
import { emptyProgress, INSIGHTS_PAGE_SIZE, loadReports } from '../src/insights/load';
import { DEFAULT_REPORT_QUERY, toReportQuery } from '../src/views/query';
import { Harness, KEY } from '../test/unit/api/harness';
import type { BenchContext, SectionResult } from './lib/context';
import { measured, type Budget } from './lib/report';
import { median } from './lib/stats';

const REPORTS = 2_000;
const LOAD_LATENCY_MS = 100;
const LOAD_RUNS = 5;
const REQUEST_LATENCY_MS = 50;
const REQUESTS = 40;
const LOAD_BUDGET: Budget = { kind: 'max', value: 1.5, text: '≤ 1.5× round trips' };
const REQUEST_BUDGET: Budget = { kind: 'max', value: 1.05, text: '≤ 1.05' };

/** The time a load of `pages` pages needs at best: page 1, then the rest four at a time. */
function roundTripsMs(pages: number, latencyMs: number): number {
  return latencyMs * (1 + Math.ceil((pages - 1) / MAX_PAGES_IN_FLIGHT));
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

export async function runLoads(ctx: BenchContext): Promise<SectionResult> {
  ctx.progress(
    `loads: ${REPORTS} reports at ${LOAD_LATENCY_MS} ms a request, ×${LOAD_RUNS} each; one request at ${REQUEST_LATENCY_MS} ms ×${REQUESTS}`,
  );
  // In a process of its own, as a service on another machine: its work is not the client's.
  const service = await Harness.startProcess(['--seed', String(REPORTS)]);
  try {
    const api = createClient({ baseUrl: service.url, getKey: () => KEY });
    const pages = Math.ceil(REPORTS / INSIGHTS_PAGE_SIZE);
    const limitMs = roundTripsMs(pages, LOAD_LATENCY_MS);
    // What the loads cost here without a network: the client's and the service's own work.
    const local: number[] = [];
    for (let run = 0; run < LOAD_RUNS; run++)
      local.push(await timed(() => loadReports(api, emptyProgress(), { project: null, limit: REPORTS })));
    await service.admin('speed', { latencyMs: LOAD_LATENCY_MS });

    const insights: number[] = [];
    for (let run = 0; run < LOAD_RUNS; run++) {
      let loaded = 0;
      const ms = await timed(async () => {
        loaded = (await loadReports(api, emptyProgress(), { project: null, limit: REPORTS })).items.length;
      });
      if (loaded !== REPORTS) throw new Error(`insights loaded ${loaded} reports, not ${REPORTS}`);
      insights.push(ms / limitMs);
    }

    const query = toReportQuery(DEFAULT_REPORT_QUERY, INSIGHTS_PAGE_SIZE);
    const csv: number[] = [];
    for (let run = 0; run < LOAD_RUNS; run++) {
      let rows = 0;
      const ms = await timed(async () => {
        const load = await loadAllPages(emptyAllPages<Report>(), {
          fetchPage: (page, signal, read) => api.listReports(query, page, signal, read),
          keyOf: (report) => String(report.id),
          perPage: INSIGHTS_PAGE_SIZE,
          limit: REPORTS,
        });
        rows = load.items.length;
        new TextEncoder().encode(`${CSV_BOM}${reportsCsv(load.items)}`);
      });
      if (rows !== REPORTS) throw new Error(`the export loaded ${rows} reports, not ${REPORTS}`);
      csv.push(ms / limitMs);
    }

    // One request as a user's paging sends it, against the platform's own fetch of the same URL.
    await service.admin('speed', { latencyMs: REQUEST_LATENCY_MS });
    const viaFetch = async (): Promise<unknown> => {
      const response = await fetch(`${service.url}/api/v1/reports?per_page=25&page=1`, {
        headers: { Accept: 'application/json', Authorization: `Bearer ${KEY}` },
      });
      return JSON.parse(await response.text()) as unknown;
    };
    const viaClient = (): Promise<unknown> => api.listReports({ perPage: 25 }, 1);
    const client: number[] = [];
    const plain: number[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      // Which goes first alternates, so neither always follows the other.
      for (const [send, times] of i % 2 === 0
        ? ([
            [viaClient, client],
            [viaFetch, plain],
          ] as const)
        : ([
            [viaFetch, plain],
            [viaClient, client],
          ] as const))
        times.push(await timed(send));
    }
    const pairs = client.map((ms, i) => ms / plain[i]);

    const explain = `limit ${limitMs} ms: ${LOAD_LATENCY_MS} ms × (1 + ⌈${pages - 1} / ${MAX_PAGES_IN_FLIGHT}⌉)`;
    return {
      rows: [
        measured(
          'loads.insights',
          `Insights load, ${REPORTS.toLocaleString('en-US')} reports at ${LOAD_LATENCY_MS} ms ÷ limit`,
          'ratio',
          insights,
          {
            budget: LOAD_BUDGET,
            note: explain,
          },
        ),
        measured(
          'loads.csv',
          `CSV export, ${REPORTS.toLocaleString('en-US')} reports at ${LOAD_LATENCY_MS} ms ÷ limit`,
          'ratio',
          csv,
          {
            budget: LOAD_BUDGET,
          },
        ),
        measured(
          'loads.insightsLocal',
          `Insights load, ${REPORTS.toLocaleString('en-US')} reports, no latency`,
          'ms',
          local,
        ),
        measured('loads.request', `One list request at ${REQUEST_LATENCY_MS} ms, client / fetch`, 'ratio', pairs, {
          budget: REQUEST_BUDGET,
          figure: median(client) / median(plain),
        }),
      ],
      details: { reports: REPORTS, latencyMs: LOAD_LATENCY_MS, limitMs, insights, csv, local, client, plain },
    };
  } finally {
    await service.stop();
  }
}
