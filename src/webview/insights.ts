/**
 * The insights page's script (dist/webview/insights.js, apart from the report page's so
 * Chart.js loads only here): each figure as a chart, as numbers in text and as a table. Server
 * strings reach the DOM only as text and the charts only as canvas text; colours follow the theme.
 */
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  ScatterController,
  Tooltip,
  type ChartConfiguration,
} from 'chart.js';
import {
  bucketLabel,
  formatCount,
  formatScoreNumber,
  formatShare,
  medianLine,
  reportCount,
  type FailingCheck,
  type InsightsModel,
  type ReportRef,
  type TimePoint,
} from '../presentation/insightsAggregate';
import {
  isInsightsHostMessage,
  parseSavedInsightsView,
  type InsightsHostMessage,
  type InsightsPageMessage,
  type InsightsState,
  type InsightsStrings,
  type SavedInsightsState,
} from '../protocols/insightsProtocol';
import { safeLocale } from '../text/dates';
import { fill, singleLine } from '../text/text';
import { Announcer, button, el, FocusKeeper, icon, onScroll, type Announcement } from './dom';

// Only what the charts use is registered, so esbuild leaves the rest of Chart.js out
// (the doughnut, radar, polar and bubble controllers, the time scale, filler, title, …).
Chart.register(
  BarController,
  BarElement,
  CategoryScale,
  LinearScale,
  ScatterController,
  LineController,
  PointElement,
  LineElement,
  Tooltip,
  Legend,
);

interface VsCodeApi {
  postMessage(message: InsightsPageMessage): void;
  getState(): unknown;
  setState(state: SavedInsightsState): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const root = document.getElementById('root') ?? document.body;

let strings: InsightsStrings | undefined;
let locale = 'en';
let current: Extract<InsightsHostMessage, { type: 'state' }> | undefined;
const saved: SavedInsightsState | undefined = parseSavedInsightsView(vscode.getState());
/** The project the page shows, once the extension has said it. */
let shownProject: string | null | undefined;
/** The charts on the page, destroyed before every redraw. */
let charts: Chart[] = [];
const focus = new FocusKeeper();
/** Says to screen readers what the page shows when it first shows it (dom.ts). */
const announcer = new Announcer();
/** The failing check whose reports are listed (by its name as sent). */
let openCheck: string | undefined = saved?.openCheck;
/**
 * How many of the open check's reports are listed: a check failing in thousands of reports
 * lists them a step at a time ("Show 50 more"), not as thousands of buttons at once.
 */
const CHECK_REPORTS_STEP = 50;
let openCheckListed = saved?.listed ?? CHECK_REPORTS_STEP;
/** The "Show data" tables the user opened (by focus key): a redraw keeps them open. */
const openTables = new Set<string>(saved?.openTables);
/** How far the reader had scrolled before the page was made again: put back when the figures first show. */
let scrollToRestore = saved?.scrollY ?? 0;

/**
 * Keeps what the user opened with the project in the webview's state: the page is loaded
 * again when its hidden tab is shown, and after a window reload.
 */
function saveState(): void {
  if (shownProject === undefined) return;
  vscode.setState({
    project: shownProject,
    openCheck,
    listed: openCheckListed,
    openTables: [...openTables],
    // Until the place is put back, the place to put back.
    scrollY: scrollToRestore || Math.round(window.scrollY),
  });
}

function post(message: InsightsPageMessage): void {
  vscode.postMessage(message);
}

// Colours.

interface Palette {
  foreground: string;
  muted: string;
  grid: string;
  accent: string;
  good: string;
  decent: string;
  bad: string;
  other: string;
  /** Failing checks by importance: neutral tones, darkest to faintest, apart from the results' colours. */
  importance: { high: string; medium: string; low: string; none: string };
  background: string;
}

/**
 * Reads the theme's colours. The result colours are the page's own (--pr-good… in panel.css,
 * set on the body: darker ones in light themes, where the tree icons' are too pale to read).
 */
function palette(): Palette {
  const style = getComputedStyle(document.body);
  const css = (name: string, fallback: string): string => style.getPropertyValue(name).trim() || fallback;
  const foreground = css('--vscode-foreground', '#cccccc');
  return {
    foreground,
    muted: css('--vscode-descriptionForeground', foreground),
    grid:
      css('--vscode-contrastBorder', '') ||
      css('--vscode-widget-border', '') ||
      css('--vscode-panel-border', 'rgba(128,128,128,0.35)'),
    accent: css('--vscode-charts-blue', css('--vscode-focusBorder', '#3794ff')),
    good: css('--pr-good', '#73c991'),
    decent: css('--pr-decent', '#cca700'),
    bad: css('--pr-bad', '#f14c4c'),
    other: css('--vscode-disabledForeground', foreground),
    importance: {
      high: foreground,
      medium: css('--vscode-descriptionForeground', foreground),
      low: css('--vscode-disabledForeground', foreground),
      none: css('--vscode-editorWidget-border', css('--vscode-widget-border', 'rgba(128,128,128,0.35)')),
    },
    background: css('--vscode-editor-background', '#1e1e1e'),
  };
}

function scaleStyle(p: Palette): { ticks: { color: string }; grid: { color: string }; border: { color: string } } {
  return { ticks: { color: p.foreground }, grid: { color: p.grid }, border: { color: p.grid } };
}

// Building blocks.

const n = (value: number): string => formatCount(value, locale);

/** One bar of a horizontal bar chart: its label on the y axis, its length and its colour. */
interface Bar {
  label: string;
  value: number;
  colour: string;
}

/**
 * A horizontal bar chart of counts (the results and the failing checks): one dataset named
 * `series`, no legend, no animation, whole numbers on the x axis from zero, theme colours.
 */
function horizontalBars(p: Palette, series: string, bars: readonly Bar[]): ChartConfiguration {
  return {
    type: 'bar',
    data: {
      labels: bars.map((b) => b.label),
      datasets: [
        {
          label: series,
          data: bars.map((b) => b.value),
          backgroundColor: bars.map((b) => b.colour),
          borderColor: p.grid,
          borderWidth: 1,
          maxBarThickness: 32,
        },
      ],
    },
    options: {
      indexAxis: 'y',
      animation: false,
      maintainAspectRatio: false,
      plugins: { legend: { display: false } },
      scales: {
        x: { ...scaleStyle(p), beginAtZero: true, ticks: { color: p.foreground, precision: 0 } },
        y: scaleStyle(p),
      },
    },
  };
}

/** Height in pixels of a horizontal bar chart with `count` bars of `rowHeight` each, axes included. */
function barsHeight(count: number, rowHeight: number): number {
  return 40 + count * rowHeight;
}

/**
 * A chart's canvas: an image to assistive technology, labelled by its summary, focusable (and
 * focused again after a redraw, by `focusKey`).
 */
function chartCanvas(label: string, config: ChartConfiguration, height: number, focusKey: string): HTMLElement {
  const canvas = el('canvas', { focusKey, attrs: { role: 'img', 'aria-label': label, tabindex: '0' } });
  canvas.textContent = label;
  const box = el('div', { className: 'chart' }, canvas);
  box.style.height = `${height}px`;
  charts.push(new Chart(canvas, config));
  return box;
}

/** The "Show data" table under a chart. */
function dataTable(
  s: InsightsStrings,
  caption: string,
  head: string[],
  rows: (string | number)[][],
  focusKey: string,
): HTMLElement {
  const table = el(
    'table',
    { className: 'data' },
    el('caption', { className: 'sr-only', text: caption }),
    el('thead', {}, el('tr', {}, ...head.map((h) => el('th', { attrs: { scope: 'col' }, text: h })))),
    el(
      'tbody',
      {},
      ...rows.map((row) =>
        el(
          'tr',
          {},
          ...row.map((c, i) => el(i === 0 ? 'th' : 'td', { text: String(c), attrs: i === 0 ? { scope: 'row' } : {} })),
        ),
      ),
    ),
  );
  const details = el('details', { className: 'show-data' }, el('summary', { text: s.showData, focusKey }), table);
  details.open = openTables.has(focusKey);
  details.addEventListener('toggle', () => {
    if (details.open) openTables.add(focusKey);
    else openTables.delete(focusKey);
    saveState();
  });
  return details;
}

function section(id: string, title: string, ...children: (Node | null | false)[]): HTMLElement {
  return el(
    'section',
    { className: `figure figure-${id}`, attrs: { 'aria-labelledby': `h-${id}` } },
    el('h2', { attrs: { id: `h-${id}` }, text: title }),
    ...children,
  );
}

function importanceLabel(s: InsightsStrings, check: Pick<FailingCheck, 'importance'>): string {
  return check.importance === null ? s.noImportance : s[check.importance];
}

/** Score chips made so far, for their ids. */
let chips = 0;

function reportButton(s: InsightsStrings, report: ReportRef, focusKey: string): HTMLElement {
  const score = formatScoreNumber(report.score, locale, s.noScore);
  const b = button(report.title, 'preview', () => post({ type: 'openReport', id: report.id }), {
    className: 'link report-link',
    focusKey,
    ariaLabel: fill(s.openReport, report.title),
    // Server text: bidi and control characters show as U+FFFD, as in the page name.
    title: singleLine(report.url),
  });
  // The chip's colour says the result; its words say it to assistive technology, also to one
  // tabbing from button to button: the chip describes its button.
  const result = report.result === null ? null : s[report.result];
  // An id of its own: focus keys hold check names, and an id list splits at spaces.
  const chip = `chip-${++chips}`;
  b.setAttribute('aria-describedby', chip);
  return el(
    'li',
    {},
    el(
      'span',
      { className: `score-chip result-${report.result ?? 'none'}`, attrs: { id: chip } },
      score,
      result !== null && el('span', { className: 'sr-only', text: ` ${result}` }),
    ),
    ' ',
    b,
  );
}

// The figures.

type ResultKey = 'good' | 'decent' | 'bad' | 'other';

/** The results' rows: Good, Decent, Bad, and Other only when there are any. */
function resultRows(s: InsightsStrings, model: InsightsModel): { key: ResultKey; label: string; count: number }[] {
  const { results } = model;
  const keys: ResultKey[] = results.other > 0 ? ['good', 'decent', 'bad', 'other'] : ['good', 'decent', 'bad'];
  return keys.map((key) => ({ key, label: s[key], count: results[key] }));
}

/** "Good 12", "Decent 3", … as the page shows them. */
function resultTexts(s: InsightsStrings, model: InsightsModel): string[] {
  return resultRows(s, model).map(({ label, count }) => `${label} ${n(count)}`);
}

function resultsFigure(s: InsightsStrings, model: InsightsModel, p: Palette): HTMLElement {
  const rows = resultRows(s, model);
  const texts = resultTexts(s, model);
  const total = reportCount(model.total, s, locale);
  const numbers = el(
    'p',
    { className: 'numbers' },
    ...rows.flatMap(({ key }, i) => [el('span', { className: `count result-${key}`, text: texts[i] }), ' ']),
    el('span', { className: 'count total', text: total }),
  );
  const chart = chartCanvas(
    fill(s.resultsAria, `${texts.join(', ')}; ${total}`),
    horizontalBars(
      p,
      s.columnCount,
      rows.map(({ key, label, count }) => ({ label, value: count, colour: p[key] })),
    ),
    // As tall as the scores' histogram beside it, so neither leaves a gap under it.
    SCORES_HEIGHT,
    'chart-results',
  );
  return section(
    'results',
    s.results,
    numbers,
    chart,
    dataTable(
      s,
      s.results,
      [s.columnResult, s.columnCount],
      [...rows.map(({ label, count }) => [label, n(count)]), [total, n(model.total)]],
      'data-results',
    ),
  );
}

/** Height in pixels of the scores' histogram, and of the results' chart beside it. */
const SCORES_HEIGHT = 220;

function scoresFigure(s: InsightsStrings, model: InsightsModel, p: Palette): HTMLElement {
  const { scores } = model;
  // The table says each bucket's range; the axis its start, upright ("0", "10" … "90").
  const labels = scores.buckets.map((_, i) => bucketLabel(i, locale));
  const starts = scores.buckets.map((_, i) => n(i * 10));
  // Mean and median are in the headline row; here only what it leaves out.
  const numbers =
    scores.unscored > 0 &&
    el('p', { className: 'numbers' }, el('span', { className: 'count muted', text: fill(s.unscored, n(scores.unscored)) }));
  const colours = scores.buckets.map((_, i) => (i >= 8 ? p.good : i >= 5 ? p.decent : p.bad));
  const chart = chartCanvas(
    fill(s.scoresAria, labels.map((l, i) => `${l}: ${n(scores.buckets[i] ?? 0)}`).join(', ')),
    {
      type: 'bar',
      data: {
        labels: starts,
        datasets: [
          { label: s.columnCount, data: scores.buckets, backgroundColor: colours, borderColor: p.grid, borderWidth: 1 },
        ],
      },
      options: {
        animation: false,
        maintainAspectRatio: false,
        plugins: {
          legend: { display: false },
          // The range, not the axis label: "60–69.99".
          tooltip: { callbacks: { title: (items) => (items[0] ? (labels[items[0].dataIndex] ?? '') : '') } },
        },
        scales: {
          x: { ...scaleStyle(p), ticks: { color: p.foreground, maxRotation: 0, autoSkip: false } },
          y: { ...scaleStyle(p), beginAtZero: true, ticks: { color: p.foreground, precision: 0 } },
        },
      },
    },
    SCORES_HEIGHT,
    'chart-scores',
  );
  return section(
    'scores',
    s.scores,
    numbers,
    chart,
    dataTable(
      s,
      s.scores,
      [s.columnBucket, s.columnCount],
      labels.map((l, i) => [l, n(scores.buckets[i] ?? 0)]),
      'data-scores',
    ),
  );
}

const DAY_MS = 86_400_000;
/** Tick steps of the date axis, in days: the first that keeps at most eight ticks. */
const DAY_STEPS = [1, 2, 7, 14, 28, 56, 91, 182, 364, 728];

/** Ticks at midnight UTC, a whole number of days apart, from `min` to `max` (both midnights). */
function dayTicks(min: number, max: number): { value: number }[] {
  const days = (max - min) / DAY_MS;
  const step = DAY_STEPS.find((d) => days / d <= 8) ?? Math.ceil(days / 8);
  const ticks: { value: number }[] = [];
  for (let t = min; t <= max; t += step * DAY_MS) ticks.push({ value: t });
  return ticks;
}

function overTimeFigure(s: InsightsStrings, model: InsightsModel, p: Palette): HTMLElement {
  const { points, weekly, undated } = model.overTime;
  const undatedNote = undated > 0 && el('p', { className: 'muted', text: fill(s.undated, n(undated)) });
  // No point to draw: a chart would span 1 ms around 1 January 1970.
  if (points.length === 0) {
    return section('over-time', s.overTime, el('p', { className: 'muted', text: s.noOverTime }), undatedNote);
  }
  const day = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' });
  const xs = points.map((pt) => pt.x);
  const first = Math.min(...xs);
  const last = Math.max(...xs);
  // Among the reports it is the median of: at their median time (within their week and range).
  const medians = medianLine(weekly);
  const end = last;
  // Whole UTC days, so the ticks fall on dates, and a margin (2 %, at least a day) so no point sits on an edge.
  const margin = Math.max(1, Math.round((end - first) / DAY_MS / 50)) * DAY_MS;
  const min = Math.floor(first / DAY_MS) * DAY_MS - margin;
  const max = Math.ceil(end / DAY_MS) * DAY_MS + margin;
  const chart = chartCanvas(
    fill(s.overTimeAria, n(points.length), day.format(first), day.format(last)),
    {
      type: 'scatter',
      data: {
        datasets: [
          {
            type: 'scatter',
            label: s.reportScore,
            // Each point keeps its report, for the tooltip's page name.
            data: points.map((pt) => ({ x: pt.x, y: pt.y, report: pt.report })),
            // Muted: the reports are the background the weekly median is read against.
            backgroundColor: p.muted,
            borderColor: p.muted,
            pointRadius: points.length > 1000 ? 1.5 : 2.5,
            order: 2,
          },
          {
            type: 'line',
            label: s.weeklyMedian,
            data: medians,
            borderColor: p.accent,
            backgroundColor: p.accent,
            borderWidth: 3,
            pointRadius: 3,
            // A week without reports (a null) breaks the line rather than bridging it.
            spanGaps: false,
            // Drawn last, over the dots.
            order: 1,
          },
        ],
      },
      options: {
        animation: false,
        maintainAspectRatio: false,
        parsing: false,
        plugins: {
          legend: { labels: { color: p.foreground } },
          tooltip: {
            callbacks: {
              title: (items) => (items[0] ? day.format(items[0].parsed.x ?? 0) : ''),
              // "shop.example/cart: 72.5", or "Weekly median: 70" (Chart.js would print the epoch ms too).
              label: (item) => {
                const name =
                  item.datasetIndex === 0 ? (model.reports[(item.raw as TimePoint).report]?.title ?? '') : s.weeklyMedian;
                const score = formatScoreNumber(item.parsed.y, locale, s.noScore);
                return name === '' ? score : `${name}: ${score}`;
              },
            },
          },
        },
        scales: {
          // A linear axis of epoch ms: no date adapter needed; ticks at midnight UTC print as dates.
          x: {
            type: 'linear',
            min,
            max,
            ...scaleStyle(p),
            title: { display: true, text: s.overTimeAxis, color: p.foreground },
            afterBuildTicks: (axis) => {
              axis.ticks = dayTicks(min, max);
            },
            ticks: { color: p.foreground, callback: (value) => day.format(Number(value)) },
          },
          y: { ...scaleStyle(p), min: 0, max: 100 },
        },
      },
    },
    260,
    'chart-over-time',
  );
  const weekFormat = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' });
  return section(
    'over-time',
    s.overTime,
    undatedNote,
    chart,
    dataTable(
      s,
      s.overTime,
      [s.columnWeek, s.columnMedian, s.columnReports],
      weekly.map((w) => [weekFormat.format(w.weekStart), formatScoreNumber(w.median, locale), n(w.count)]),
      'data-over-time',
    ),
  );
}

/** "Failed in 12 of 40 reports (30 %)". */
function shareText(s: InsightsStrings, c: FailingCheck): string {
  const share = formatShare(c.share, locale);
  return c.ran === 1 ? fill(s.failedInOne, n(c.failed), share) : fill(s.failedIn, n(c.failed), n(c.ran), share);
}

function checksFigure(s: InsightsStrings, model: InsightsModel, p: Palette): HTMLElement {
  const { checks } = model;
  if (checks.length === 0) return section('checks', s.checks, el('p', { className: 'muted', text: s.noFailures }));
  const top = checks.slice(0, 10);
  const colour = (c: Pick<FailingCheck, 'importance'>): string => p.importance[c.importance ?? 'none'];
  const chart = chartCanvas(
    fill(s.checksAria, top.map((c) => `${c.label}: ${shareText(s, c)}`).join('; ')),
    horizontalBars(
      p,
      s.columnFailed,
      top.map((c) => ({ label: c.label, value: c.failed, colour: colour(c) })),
    ),
    barsHeight(top.length, 28),
    'chart-checks',
  );
  // What the bars' colours mean, for the importances drawn. Hidden from assistive technology:
  // the chart's label and the list below say each check's importance in words.
  const importances = (['high', 'medium', 'low', null] as const).filter((i) => top.some((c) => c.importance === i));
  const legend = el(
    'p',
    { className: 'legend', attrs: { 'aria-hidden': 'true' } },
    ...importances.map((importance) => {
      const swatch = el('span', { className: 'swatch' });
      swatch.style.backgroundColor = colour({ importance });
      return el('span', { className: 'legend-item' }, swatch, el('span', { text: importanceLabel(s, { importance }) }));
    }),
  );
  return section(
    'checks',
    s.checks,
    chart,
    legend,
    checksList(s, model),
    dataTable(
      s,
      s.checks,
      [s.columnCheck, s.columnImportance, s.columnFailed, s.columnShare],
      checks.map((c) => [c.label, importanceLabel(s, c), `${n(c.failed)} / ${n(c.ran)}`, formatShare(c.share, locale)]),
      'data-checks',
    ),
  );
}

/**
 * Draws the failing checks' list again, in place (a check opened or closed, more of its
 * reports shown): the charts are not drawn again for it.
 */
function redrawChecksList(): void {
  const s = strings;
  const model = current?.state.model;
  const list = root.querySelector('ul.checks');
  if (!s || !model || !list) return;
  const place = focus.remember(root);
  list.replaceWith(checksList(s, model));
  focus.restore(root, place);
}

/** Each failing check, with the reports of the one opened (a step at a time). */
function checksList(s: InsightsStrings, model: InsightsModel): HTMLElement {
  const list = el('ul', { className: 'checks' });
  for (const check of model.checks) {
    const expanded = openCheck === check.name;
    const toggle = button(
      check.label,
      expanded ? 'chevron-down' : 'chevron-right',
      () => {
        openCheck = expanded ? undefined : check.name;
        openCheckListed = CHECK_REPORTS_STEP;
        saveState();
        redrawChecksList();
      },
      { className: 'link check-toggle', focusKey: `check:${check.name}` },
    );
    toggle.setAttribute('aria-expanded', String(expanded));
    const item = el(
      'li',
      { className: 'check' },
      toggle,
      ' ',
      el('span', {
        className: `importance importance-${check.importance ?? 'unknown'}`,
        text: importanceLabel(s, check),
      }),
      ' ',
      el('span', { className: 'muted', text: shareText(s, check) }),
    );
    // The key is for who wants it, in the name's tooltip.
    if (check.label !== check.name) toggle.title = singleLine(check.name);
    if (expanded) {
      const reports = check.reports.map((i) => model.reports[i]).filter((r): r is ReportRef => r !== undefined);
      const listed = reports.slice(0, openCheckListed);
      const rest = reports.length - listed.length;
      const reportKey = (i: number): string => `check:${check.name}:${i}`;
      item.append(
        el(
          'ul',
          { className: 'check-reports', attrs: { 'aria-label': fill(s.checkReports, check.label) } },
          ...listed.map((r, i) => reportButton(s, r, reportKey(i))),
        ),
      );
      if (rest > 0) {
        const more = button(
          fill(s.showMore, n(Math.min(rest, CHECK_REPORTS_STEP)), n(rest)),
          'chevron-down',
          () => {
            openCheckListed += CHECK_REPORTS_STEP;
            saveState();
            redrawChecksList();
            // On to the first report the step added, where reading goes on.
            root.querySelector<HTMLElement>(`[data-focus-key="${CSS.escape(reportKey(listed.length))}"]`)?.focus();
          },
          { className: 'link show-more', focusKey: `check-more:${check.name}` },
        );
        item.append(el('div', { className: 'show-more-row' }, more));
      }
    }
    list.append(item);
  }
  return list;
}

function lowestFigure(s: InsightsStrings, model: InsightsModel): HTMLElement {
  const reports = model.lowest.map((i) => model.reports[i]).filter((r): r is ReportRef => r !== undefined);
  if (reports.length === 0) return section('lowest', s.lowest, el('p', { className: 'muted', text: s.noLowest }));
  return section(
    'lowest',
    s.lowest,
    el('ol', { className: 'lowest' }, ...reports.map((r, i) => reportButton(s, r, `lowest:${i}`))),
  );
}

// The page.

function toolbar(s: InsightsStrings, state: InsightsState): HTMLElement {
  const loading = state.phase === 'loading';
  return el(
    'div',
    // A group, not a toolbar: its buttons are Tab stops of their own (a toolbar promises arrow keys).
    { className: 'toolbar', attrs: { role: 'group', 'aria-label': s.toolbar } },
    loading
      ? button(s.cancel, 'close', () => post({ type: 'cancel' }), { className: 'button secondary', focusKey: 'cancel' })
      : button(s.refresh, 'refresh', () => post({ type: 'refresh' }), {
          className: 'button secondary',
          focusKey: 'reload',
        }),
    button(s.copySummary, 'copy', () => post({ type: 'copySummary' }), {
      className: 'button secondary',
      focusKey: 'copy',
      disabled: state.model === null || loading,
    }),
  );
}

function statusArea(s: InsightsStrings, state: InsightsState): HTMLElement {
  const area = el('div', { className: 'status' });
  if (state.phase === 'loading') {
    const bar = el('div', { className: 'progress-fill' });
    const progress = el('div', { className: 'progress', attrs: { role: 'progressbar', 'aria-label': s.loading } }, bar);
    if (state.total !== null && state.total > 0) {
      const percent = Math.min(100, Math.round((state.loaded / state.total) * 100));
      bar.style.width = `${percent}%`;
      progress.setAttribute('aria-valuemin', '0');
      progress.setAttribute('aria-valuemax', String(state.total));
      progress.setAttribute('aria-valuenow', String(state.loaded));
    } else bar.classList.add('indeterminate');
    area.append(progress, el('p', { className: 'progress-text', text: state.progressText ?? s.loading }));
  }
  if (state.phase === 'error') {
    area.append(
      el(
        'div',
        { className: 'banner error' },
        icon('error', 'banner-icon'),
        el(
          'div',
          { className: 'banner-text' },
          el('strong', { text: s.errorTitle }),
          el('span', { text: state.error ?? '' }),
          state.notice !== null && el('span', { text: state.notice }),
          state.progressText !== null &&
            state.loaded > 0 &&
            el('span', { className: 'muted', text: state.progressText }),
        ),
        // Refresh and Retry share a focus key: after a Retry that loads, focus returns to
        // Refresh; after one that fails again, to Retry (Cancel has its own: a second Enter
        // must not cancel what the first started).
        button(s.retry, 'refresh', () => post({ type: 'retry' }), { className: 'button primary', focusKey: 'reload' }),
        state.errorAction !== null &&
          button(state.errorAction, undefined, () => post({ type: 'errorAction' }), {
            className: 'button secondary',
            focusKey: 'errorAction',
          }),
      ),
    );
  }
  if (state.phase === 'cancelled') {
    area.append(
      el(
        'div',
        { className: 'banner' },
        icon('info', 'banner-icon'),
        el(
          'div',
          { className: 'banner-text' },
          el('strong', { text: state.notice ?? s.cancelled }),
          state.progressText !== null && el('span', { text: state.progressText }),
        ),
        // Goes on from the next page, as Retry does: what was loaded stays.
        state.canContinue &&
          button(s.continueLoading, 'refresh', () => post({ type: 'retry' }), {
            className: 'button secondary',
            focusKey: 'reload',
          }),
      ),
    );
  }
  return area;
}

/** The headline numbers in one row: reports, mean and median score, the share of bad reports. */
function headline(s: InsightsStrings, model: InsightsModel): HTMLElement {
  const stat = (value: string, caption: string, className = ''): HTMLElement =>
    el(
      'div',
      { className: `stat ${className}`.trim() },
      el('dt', { className: 'stat-caption', text: caption }),
      el('dd', { className: 'stat-value', text: value }),
    );
  const { scores, results, total } = model;
  return el(
    'dl',
    { className: 'headline', attrs: { 'aria-label': s.headline } },
    stat(n(total), s.columnReports),
    stat(formatScoreNumber(scores.mean, locale, s.noScore), s.meanScore),
    stat(formatScoreNumber(scores.median, locale, s.noScore), s.medianScore),
    stat(total === 0 ? s.noScore : formatShare(results.bad / total, locale), s.badShare, 'result-bad'),
  );
}

/** The figures, or nothing while the first load runs. */
function figures(s: InsightsStrings, model: InsightsModel): HTMLElement {
  const p = palette();
  // Chart text in the editor's font and colour, like the rest of the page.
  const style = getComputedStyle(document.body);
  Chart.defaults.font.family = style.fontFamily;
  Chart.defaults.color = p.foreground;
  // Axis and tooltip numbers in the page's language, not the browser's.
  Chart.defaults.locale = locale;
  return el(
    'div',
    { className: 'figures' },
    model.total === 0 && el('p', { className: 'empty', text: s.noReports }),
    headline(s, model),
    resultsFigure(s, model, p),
    scoresFigure(s, model, p),
    overTimeFigure(s, model, p),
    checksFigure(s, model, p),
    lowestFigure(s, model),
  );
}

/**
 * What the page says to screen readers after a draw (the Announcer reads each when it first
 * appears; progress is not read at every step): that it loads, why it failed, that it was
 * cancelled, and when a load ends, the reports' results.
 */
function announcements(s: InsightsStrings, state: InsightsState): (Announcement | false)[] {
  const { model } = state;
  switch (state.phase) {
    case 'loading':
      return [{ text: s.loading }];
    case 'error':
      return [{ text: `${s.errorTitle}. ${state.error ?? ''}`, urgent: true }];
    case 'cancelled':
      return [{ text: [state.notice ?? s.cancelled, state.progressText ?? ''].join(' ') }];
    case 'ready': {
      if (model === null) return [];
      if (model.total === 0) return [{ text: s.noReports }];
      const loaded = `${fill(s.loaded, reportCount(model.total, s, locale))} ${resultTexts(s, model).join(', ')}.`;
      // The cap's sentence too: what is read is what the figures cover.
      return [{ text: state.capText === null ? loaded : `${loaded} ${state.capText}.` }];
    }
  }
}

/** What the figures were last drawn from: a new load's result, or the same (then kept). */
let drawnKey: string | undefined;
let figuresElement: HTMLElement | undefined;
/** The page's header and status, above the figures. */
const top = el('div', { className: 'top' });

function draw(message: Extract<InsightsHostMessage, { type: 'state' }>, force = false): void {
  const s = strings;
  if (!s) return;
  const { state } = message;
  const focusPlace = focus.remember(root);
  const scroll = window.scrollY;

  // The figures are drawn again only for new data (or a new theme, `force`): progress
  // messages while loading keep the charts the user is looking at.
  const key = state.model === null ? undefined : String(state.modelAt);
  if (force || key !== drawnKey) {
    for (const chart of charts) chart.destroy();
    charts = [];
    figuresElement = state.model === null ? undefined : figures(s, state.model);
    drawnKey = key;
  }
  const title = fill(s.heading, state.project === null ? s.allProjects : singleLine(state.project));
  // The header and status are made again at every state, and replace what the page shows only
  // where they differ; the figures stay in the page while they are the same. A load sends a
  // state for every page: the heading or button the reader is on stays the same element, not a
  // copy focused again, which a screen reader would read out at every page.
  const parts = [
    el(
      'header',
      { className: 'header' },
      // Focusable by script only (FocusKeeper falls back to it): the same in every copy.
      el('h1', { className: 'title', text: title, attrs: { tabindex: '-1' } }),
      el(
        'p',
        { className: 'meta muted' },
        state.asOf !== null && el('span', { text: state.asOf }),
        state.capText !== null && el('span', { className: 'cap', text: state.capText }),
      ),
      toolbar(s, state),
    ),
    statusArea(s, state),
  ];
  parts.forEach((part, i) => {
    const shown = top.children[i];
    if (!shown) top.append(part);
    else if (!shown.isEqualNode(part)) shown.replaceWith(part);
  });
  const sections = figuresElement ? [top, figuresElement] : [top];
  if (root.children.length !== sections.length || sections.some((section, i) => root.children[i] !== section)) {
    root.replaceChildren(...sections);
  }
  announcer.update(announcements(s, state));
  root.setAttribute('aria-busy', String(state.phase === 'loading'));
  window.scrollTo(0, scroll);
  focus.restore(root, focusPlace);
  if (figuresElement && scrollToRestore > 0) {
    window.scrollTo(0, scrollToRestore);
    scrollToRestore = 0;
  }
  const rendered: InsightsPageMessage = { type: 'rendered', phase: state.phase, seq: message.seq };
  if (document.visibilityState === 'visible') requestAnimationFrame(() => post(rendered));
  else post(rendered);
}

onScroll(saveState);

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  if (!isInsightsHostMessage(event.data)) return;
  let message = event.data;
  if (message.type === 'init') {
    strings = message.strings;
    locale = safeLocale(message.locale);
    if (current) draw(current, true);
    return;
  }
  if (message.type === 'copied') {
    if (strings && current) {
      // Said at every copy: the page's own news first, so the copy is new to the Announcer each time.
      const base = announcements(strings, current.state);
      announcer.update(base);
      announcer.update([...base, { text: message.text }]);
    }
    return;
  }
  // A progress message without the model it keeps: the one the page has.
  if (message.state.modelKept === true && current?.state.modelAt === message.state.modelAt) {
    message = { ...message, state: { ...message.state, model: current.state.model } };
  }
  current = message;
  if (shownProject !== message.state.project) {
    // What was open belongs to the project saved with it.
    if (saved?.project !== message.state.project) {
      openCheck = undefined;
      openCheckListed = CHECK_REPORTS_STEP;
      openTables.clear();
      scrollToRestore = 0;
    }
    shownProject = message.state.project;
    saveState();
  }
  draw(message);
});

// The theme changed (VS Code swaps the body's class and the --vscode-* variables): re-draw
// the charts from the new colours.
new MutationObserver(() => {
  if (current) draw(current, true);
}).observe(document.body, { attributes: true, attributeFilter: ['class'] });

post({ type: 'ready' });
