/**
 * Insights (issue #17): two rows.
 *
 * - `insights.aggregate`: `aggregate()` (src/presentation/insightsAggregate.ts, pure) over 2,000 reports
 *   the real client loaded from the reference service (seeded, each with its ~15 real checks).
 *   Budget 50 ms: it runs once per load on the extension host's thread, where 50 ms is below
 *   what a user notices as a hitch (100 ms) and leaves headroom for the 20,000 cap (about 10×,
 *   once, after 200 sequential requests that take far longer).
 * - `insights.firstDraw`: the insights page's first draw of those 2,000 reports: the production
 *   script (the `--production` build of src/webview/insights.ts, Chart.js in it) in a fresh
 *   Chromium page, timed from posting `init` and the `state` message (exactly what the host
 *   posts) to the page's `rendered` message, which it sends on the animation frame after
 *   drawing the DOM and the four charts. Without code-server: this is the page's own cost (the
 *   workbench adds the same fixed webview setup as the report panel's rows). Budget 1,000 ms:
 *   the draw follows a load of 20 sequential requests (seconds on a real service), and a
 *   second is the limit for the user's flow of thought; the first figure seen was ~250 ms.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createClient } from '../src/api/client';
import { aggregate } from '../src/presentation/insightsAggregate';
import { emptyProgress, loadReports } from '../src/insights/load';
import type { InsightsState, InsightsStrings } from '../src/protocols/insightsProtocol';
import { launchChromium } from '../scripts/lib/codeServer';
import { ensureTools } from '../scripts/lib/tools';
import { startService } from '../test/service/server';
import { inMemory, WEBVIEW_BUILD } from './lib/builds';
import type { BenchContext, SectionResult } from './lib/context';
import { measured } from './lib/report';

const KEY = 'bench-key';
const REPORTS = 2_000;
const AGGREGATE_RUNS = 30;
const DRAW_RUNS = 7;

/**
 * The page's words: each key's name as text. The host's localized words come through
 * `vscode.l10n`, absent here; the wording does not change what drawing costs.
 */
function pageStrings(): InsightsStrings {
  const keys: Record<keyof InsightsStrings, true> = {
    heading: true,
    allProjects: true,
    loading: true,
    cancel: true,
    refresh: true,
    retry: true,
    copySummary: true,
    toolbar: true,
    errorTitle: true,
    cancelled: true,
    continueLoading: true,
    noReports: true,
    loaded: true,
    good: true,
    decent: true,
    bad: true,
    other: true,
    reportsOne: true,
    reportsMany: true,
    results: true,
    resultsAria: true,
    scores: true,
    scoresAria: true,
    headline: true,
    meanScore: true,
    medianScore: true,
    badShare: true,
    unscored: true,
    noScore: true,
    overTime: true,
    overTimeAria: true,
    weeklyMedian: true,
    reportScore: true,
    undated: true,
    checks: true,
    checksAria: true,
    noFailures: true,
    failedIn: true,
    failedInOne: true,
    checkReports: true,
    showMore: true,
    lowest: true,
    noLowest: true,
    noOverTime: true,
    overTimeAxis: true,
    showData: true,
    columnResult: true,
    columnCount: true,
    columnBucket: true,
    columnWeek: true,
    columnMedian: true,
    columnReports: true,
    columnCheck: true,
    columnImportance: true,
    columnFailed: true,
    columnShare: true,
    columnPage: true,
    columnScore: true,
    columnGenerated: true,
    high: true,
    medium: true,
    low: true,
    noImportance: true,
    openReport: true,
  };
  const strings = Object.fromEntries(Object.keys(keys).map((k) => [k, `${k} {0}`])) as unknown as InsightsStrings;
  return { ...strings, heading: 'Insights: {0}' };
}

/** A shell like the panel's (src/panels/html.ts): the theme's variables and the script. */
function pageHtml(): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8">
<style>
:root { --vscode-foreground: #cccccc; --vscode-descriptionForeground: #9d9d9d; --vscode-widget-border: #313131;
  --vscode-charts-blue: #3794ff; --vscode-testing-iconPassed: #73c991; --vscode-list-warningForeground: #cca700;
  --vscode-testing-iconFailed: #f14c4c; --vscode-editor-background: #1f1f1f; --vscode-font-family: system-ui; }
body { color: var(--vscode-foreground); background: var(--vscode-editor-background); font-family: system-ui; }
</style></head><body class="vscode-dark"><div id="root"></div>
<script>
window.__posted = [];
window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__posted.push(m), getState: () => undefined, setState: () => {} });
</script>
<script src="insights.js"></script></body></html>`;
}

/** What the page's stub of `acquireVsCodeApi` records, and the window's postMessage. */
interface PageGlobals {
  __posted: { type: string }[];
  postMessage(message: unknown, targetOrigin: string): void;
}

export async function runInsights(ctx: BenchContext): Promise<SectionResult> {
  ctx.progress(`insights: ${REPORTS} reports, aggregation ×${AGGREGATE_RUNS}, first draw ×${DRAW_RUNS}`);
  const service = await startService({ port: 0, keys: [KEY], seed: REPORTS, rateLimit: 0, quiet: true });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'page-reports-bench-insights-'));
  try {
    const api = createClient({ baseUrl: service.url, getKey: () => KEY, timeoutMs: 30_000 });
    const progress = await loadReports(api, emptyProgress(), { project: null, limit: REPORTS });
    if (progress.items.length !== REPORTS)
      throw new Error(`loaded ${progress.items.length} reports, not ${REPORTS}`);

    const aggregateMs: number[] = [];
    let model = aggregate(progress.items, null);
    for (let run = 0; run < AGGREGATE_RUNS; run++) {
      const started = performance.now();
      model = aggregate(progress.items, null);
      aggregateMs.push(performance.now() - started);
    }

    const { code } = await inMemory(ctx.root, {
      ...WEBVIEW_BUILD,
      entryPoints: { insights: 'src/webview/insights.ts' },
    });
    fs.writeFileSync(path.join(dir, 'insights.js'), code);
    fs.writeFileSync(path.join(dir, 'index.html'), pageHtml());
    const state: InsightsState = {
      phase: 'ready',
      project: null,
      model,
      progressText: null,
      loaded: REPORTS,
      total: REPORTS,
      capText: null,
      asOf: 'As of now',
      modelAt: Date.now(),
      error: null,
      errorAction: null,
      canContinue: false,
      notice: null,
    };
    const browser = await launchChromium(ensureTools(), path.join(dir, 'chromium'), { width: 1400, height: 1000 });
    const drawMs: number[] = [];
    try {
      for (let run = 0; run < DRAW_RUNS; run++) {
        const page = await browser.newPage();
        await page.goto(`file://${path.join(dir, 'index.html')}`);
        // These run in the page (this tsconfig has no DOM library: the page's globals are typed here).
        await page.waitForFunction(() => (globalThis as unknown as PageGlobals).__posted.length > 0);
        const ms = await page.evaluate(
          async ({ strings, state }) => {
            const w = globalThis as unknown as PageGlobals;
            const started = performance.now();
            w.postMessage({ type: 'init', strings, locale: 'en' }, '*');
            w.postMessage({ type: 'state', state, seq: 1 }, '*');
            while (!w.__posted.some((m) => m.type === 'rendered')) await new Promise((r) => setTimeout(r, 1));
            return performance.now() - started;
          },
          { strings: pageStrings(), state },
        );
        drawMs.push(ms);
        await page.close();
      }
    } finally {
      await browser.close();
    }
    return {
      rows: [
        measured(
          'insights.aggregate',
          `Insights: aggregate ${REPORTS.toLocaleString('en-US')} reports`,
          'ms',
          aggregateMs,
          {
          },
        ),
        measured(
          'insights.firstDraw',
          `Insights: page's first draw, ${REPORTS.toLocaleString('en-US')} reports`,
          'ms',
          drawMs,
          {
          },
        ),
      ],
      details: { aggregateMs, drawMs, checks: model.checks.length, points: model.overTime.points.length },
    };
  } finally {
    await service.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
