/**
 * The report panel's page script (dist/webview/panel.js): posts `ready`, then draws whatever
 * state the extension sends. Server values reach the DOM only as text or attribute values,
 * never as HTML, `href` or `src`; links are buttons that ask the extension to open them.
 */
import * as l10n from '@vscode/l10n';
import { formatRelative, safeLocale } from '../text/dates';
import { diffAnalyses, formatScoreDelta, nothingChanged, type CheckChange } from '../presentation/diff';
import { fill, visibleText } from '../text/text';
import { Announcer, button, el, FocusKeeper, icon, onScroll, svg, type Announcement } from './dom';
import { formatDate, toReportView, type FormatLabels } from '../presentation/format';
import {
  isHostMessage,
  parseSavedPageState,
  savedOpenedOf,
  type CheckStatus,
  type CheckView,
  type DateView,
  type Importance,
  type HostMessage,
  type PageMessage,
  type PanelCommand,
  runsOnOtherService,
  type PanelState,
  type PanelStrings,
  type ReportData,
  type ReportView,
  type SavedPageState,
} from '../protocols/panelProtocol';
import { formatLabels, panelStrings } from './panelStrings';
import { beginDraw, endDraw, isDeferring, later, takeRow } from './afterPaint';
import type { IconName } from './icons';

interface VsCodeApi {
  postMessage(message: PageMessage): void;
  getState(): unknown;
  setState(state: SavedPageState): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const root = document.getElementById('root') ?? document.body;

let strings: PanelStrings | undefined;
let locale = 'en';
/** The view model's localized words, from `init` (the page formats reports itself). */
let labels: FormatLabels | undefined;
let saved: SavedPageState | undefined = parseSavedPageState(vscode.getState());
/** Where the reader was before the page was last dropped (hidden), restored at its first whole report. */
let restoreScrollY = saved?.scrollY ?? 0;
/** The last state message, drawn again when `init` arrives after it. */
let current: Extract<HostMessage, { type: 'state' }> | undefined;
/** Seq of the state message drawn last: the host posts a state again on `ready`, drawn once. */
let drawnSeq: number | undefined;
/** Whether this page has drawn a whole report (its first one defers rows below the fold). */
let drewReport = false;
/** A draw is waiting for the next frame. */
let frameRequested = false;
/** Relative date texts to refresh while the panel stays open. */
let relativeDates: { element: HTMLElement; epochMs: number; template: string }[] = [];
const focus = new FocusKeeper();
/** Says to screen readers what the page shows when it first shows it (dom.ts). */
const announcer = new Announcer();
/** The report as drawn when a write on it began, to say what changed when it ends. */
let beforeWrite: string | undefined;
/**
 * What the user opened, kept open across redraws of this report (a busy write, a refresh) and
 * in its saved state for when VS Code makes the hidden panel's page again: the checks whose
 * whole value shows (by name), and the collapsed "since" lists (`value:NAME`, `since:KIND`).
 */
const opened = new Set<string>(savedOpenedOf(vscode.getState()));

/** A `<details>` that stays open across redraws once the user opened it (`key` in {@link opened}). */
function keptOpen(details: HTMLDetailsElement, key: string): HTMLDetailsElement {
  details.open = opened.has(key);
  details.addEventListener('toggle', () => {
    if (details.open) opened.add(key);
    else opened.delete(key);
    saveState({});
  });
  return details;
}

function post(message: PageMessage): void {
  vscode.postMessage(message);
}

function saveState(patch: Partial<SavedPageState>): void {
  const reportId = patch.reportId ?? saved?.reportId;
  if (reportId === undefined) return;
  const serviceUrl = 'serviceUrl' in patch ? patch.serviceUrl : saved?.serviceUrl;
  const scrollY = 'scrollY' in patch ? patch.scrollY : saved?.scrollY;
  saved = {
    reportId,
    ...(serviceUrl === undefined ? {} : { serviceUrl }),
    rawOpen: patch.rawOpen ?? saved?.rawOpen ?? false,
    ...(scrollY === undefined ? {} : { scrollY }),
    // The newest 200 (savedOpenedOf reads no more).
    ...(opened.size === 0 ? {} : { opened: [...opened].slice(-200) }),
  };
  vscode.setState(saved);
}

// States.

function progressBar(label: string): HTMLElement {
  return el(
    'div',
    { className: 'progress', attrs: { role: 'progressbar', 'aria-label': label } },
    el('div', { className: 'progress-bit' }),
  );
}

function renderLoading(s: PanelStrings): HTMLElement {
  return el(
    'section',
    { className: 'state state-loading' },
    progressBar(s.loading),
    el('p', { className: 'state-text', text: s.loading }),
  );
}

/**
 * The report came from another service than the one the extension now shows: say which, and
 * offer to switch back or close (the report id may name another report on the new service).
 */
function foreignBanner(s: PanelStrings, service: string): HTMLElement {
  return el(
    'div',
    { className: 'banner banner-foreign' },
    icon('info', 'banner-icon'),
    el('div', { className: 'banner-text' }, el('strong', { text: fill(s.foreign, service) })),
    button(s.switchBack, 'arrow-left', () => post({ type: 'switchBack' }), {
      className: 'button primary',
      focusKey: 'switchBack',
    }),
    button(s.close, 'close', () => post({ type: 'close' }), { className: 'button secondary', focusKey: 'close' }),
  );
}

function renderError(s: PanelStrings, state: Extract<PanelState, { kind: 'error' }>): HTMLElement {
  // A report of another service the panel has no data of (restored after a reload): no
  // failure, only where it is.
  if (typeof state.foreign === 'string') {
    return el(
      'section',
      { className: 'state state-foreign' },
      foreignBanner(s, state.foreign),
      el('p', { className: 'state-text', text: state.message }),
    );
  }
  return el(
    'section',
    { className: 'state state-error' },
    el('h1', { className: 'state-title' }, icon('error', 'state-icon'), el('span', { text: s.errorTitle })),
    el('p', { className: 'state-text', text: state.message }),
    state.canRetry &&
      button(s.retry, 'refresh', () => post({ type: 'retry' }), { className: 'button primary', focusKey: 'retry' }),
    // Where a retry alone would fail the same way: Open Settings, Set API Key…
    typeof state.action === 'string' &&
      button(state.action, undefined, () => post({ type: 'errorAction' }), {
        className: 'button secondary',
        focusKey: 'errorAction',
      }),
  );
}

function renderDeleted(s: PanelStrings, state: Extract<PanelState, { kind: 'deleted' }>): HTMLElement {
  return el(
    'section',
    { className: 'state state-deleted' },
    el('h1', { className: 'state-title' }, icon('trash', 'state-icon'), el('span', { text: s.deletedTitle })),
    el('p', { className: 'state-text', text: state.message }),
    // Nothing is left to do here but to go: one button, so the page is no dead end.
    button(s.close, 'close', () => post({ type: 'close' }), { className: 'button secondary', focusKey: 'close' }),
  );
}

/**
 * The score as a small ring beside its number, in the header's line. The ring's colour is the
 * result's; the number carries the meaning, so the ring is hidden from assistive technology.
 */
function gauge(s: PanelStrings, report: ReportView): HTMLElement {
  const tone = report.result.value ?? 'none';
  const graphic = svg('svg', { viewBox: '0 0 36 36', class: 'gauge-svg', 'aria-hidden': 'true', focusable: 'false' });
  // r = 100 / 2π, so the circumference is 100 and the dash length is the score.
  graphic.append(svg('circle', { class: 'gauge-track', cx: '18', cy: '18', r: '15.9155' }));
  if (report.score.value !== null) {
    graphic.append(
      svg('circle', {
        class: `gauge-fill tone-${tone}`,
        cx: '18',
        cy: '18',
        r: '15.9155',
        'stroke-dasharray': `${report.score.value} 100`,
        transform: 'rotate(-90 18 18)',
      }),
    );
  }
  const meter = el(
    'span',
    {
      className: 'gauge',
      attrs: { role: 'meter', 'aria-label': s.score, 'aria-valuemin': '0', 'aria-valuemax': '100', title: s.score },
    },
    graphic,
    el('span', { className: 'gauge-label', text: report.score.label }),
  );
  if (report.score.value !== null) {
    meter.setAttribute('aria-valuenow', String(report.score.value));
    meter.setAttribute('aria-valuetext', fill(s.scoreOf100, report.score.label));
  } else {
    meter.setAttribute('aria-valuetext', report.score.label);
  }
  return meter;
}

/** A date's relative text that the page keeps current while it stays open (`template` fills `{0}`). */
function relativeDate(date: DateView, template = '{0}'): HTMLElement {
  const relative = el('span', { className: 'date-relative', text: fill(template, date.relative) });
  if (date.epochMs !== null) relativeDates.push({ element: relative, epochMs: date.epochMs, template });
  return relative;
}

function dateFact(label: string, date: DateView): HTMLElement[] {
  if (date.iso === null || date.epochMs === null) {
    // Missing: one dash, not a dash and "(unknown)".
    return [el('dt', { text: label }), el('dd', { className: 'muted', text: date.absolute })];
  }
  const value = el('time', { attrs: { datetime: date.iso }, text: date.absolute });
  value.title = date.iso;
  return [el('dt', { text: label }), el('dd', {}, value, ' ', el('span', { className: 'muted' }, '(', relativeDate(date), ')'))];
}

/**
 * The report's project: a button that filters the Reports view to it, or text when the report
 * is another service's (`foreign`), whose projects the Reports view does not list.
 */
function projectField(s: PanelStrings, project: string | null, foreign: boolean): HTMLElement {
  if (project === null) return el('span', { className: 'muted', text: s.noProject });
  const shown = visibleText(project);
  if (foreign) return el('span', { text: shown });
  return button(shown, 'filter', () => post({ type: 'filterProject', project }), {
    className: 'link',
    focusKey: 'project',
    ariaLabel: fill(s.filterProject, shown),
    title: fill(s.filterProject, shown),
  });
}

const PRIVACY_ICON: readonly IconName[] = ['globe', 'lock', 'key'];

/**
 * The page, then one line: result, score, host (it opens the page in the browser), privacy and
 * when it was analysed. The other facts wait in the Details disclosure below.
 */
function header(s: PanelStrings, report: ReportView): HTMLElement {
  // Server text: a bidi control in the URL (as in a project or a check's name) shows as U+FFFD
  // instead of reordering what follows. Not in values: they are the page's own text, where a
  // right-to-left mark is real, and each stays within its cell.
  const shownUrl = visibleText(report.url);
  const host =
    report.host === null
      ? null
      : report.urlOpenable
        ? button(visibleText(report.host), 'link-external', () => post({ type: 'openUrl', url: report.url }), {
            className: 'link url-host',
            focusKey: 'host',
            ariaLabel: fill(s.openUrl, shownUrl),
            title: fill(s.openUrl, shownUrl),
          })
        : el('span', { text: visibleText(report.host) });
  const privacyIcon = report.privacy.value === null ? 'question' : (PRIVACY_ICON[report.privacy.value] ?? 'question');
  const analysed =
    report.generated.iso === null
      ? null
      : el('time', { attrs: { datetime: report.generated.iso, title: report.generated.absolute } }, relativeDate(report.generated, s.analysedAgo));
  const items = [
    el('span', { className: `badge result-${report.result.value ?? 'none'}`, text: report.result.label }),
    gauge(s, report),
    host,
    el('span', { className: 'privacy', attrs: { title: s.privacy } }, icon(privacyIcon), el('span', { text: report.privacy.label })),
    analysed,
  ].filter((item): item is HTMLElement => item !== null);
  return el(
    'header',
    { className: 'header' },
    el('h1', { className: 'title', text: visibleText(report.page), attrs: { title: shownUrl } }),
    el('div', { className: 'meta' }, ...items.map((item) => el('span', { className: 'meta-item' }, item))),
  );
}

/** The facts the header leaves out, behind a disclosure that stays as the user left it. */
function details(s: PanelStrings, report: ReportView, foreign: boolean): HTMLElement {
  const shownUrl = visibleText(report.url);
  const url = report.urlOpenable
    ? button(shownUrl, 'link-external', () => post({ type: 'openUrl', url: report.url }), {
        className: 'link url',
        focusKey: 'url',
        ariaLabel: fill(s.openUrl, shownUrl),
        title: fill(s.openUrl, shownUrl),
      })
    : el('span', { className: 'url url-inert', text: shownUrl, attrs: { title: s.urlNotOpenable } });
  return keptOpen(
    el(
      'details',
      { className: 'details' },
      el('summary', { text: s.details, focusKey: 'details' }),
      el(
        'dl',
        { className: 'facts' },
        el('dt', { text: s.url }),
        el('dd', {}, url),
        el('dt', { text: s.project }),
        el('dd', {}, projectField(s, report.project, foreign)),
        ...dateFact(s.generated, report.generated),
        ...dateFact(s.created, report.created),
        ...dateFact(s.updated, report.updated),
        // The id the extension's messages and the tooltip's ID row name a report by.
        el('dt', { text: s.id }),
        el('dd', { className: 'report-id', text: visibleText(String(report.id)) }),
      ),
    ),
    'details',
  );
}

const TOOLBAR: readonly { command: PanelCommand; icon: IconName; label: (s: PanelStrings) => string }[] = [
  { command: 'reanalyze', icon: 'sync', label: (s) => s.reanalyze },
  { command: 'changePrivacy', icon: 'lock', label: (s) => s.changePrivacy },
  { command: 'openOnService', icon: 'globe', label: (s) => s.openOnService },
  { command: 'copyUrl', icon: 'copy', label: (s) => s.copyUrl },
  { command: 'delete', icon: 'trash', label: (s) => s.delete },
];

/** How each action looks: one primary, Delete apart at the end, the rest a quiet group. */
function actionClass(command: PanelCommand): string {
  if (command === 'reanalyze') return 'button primary';
  if (command === 'delete') return 'button secondary danger apart';
  return 'button secondary quiet';
}

/**
 * A toolbar in the ARIA sense: one Tab stop, arrow keys move between its buttons. `foreign`
 * (a report of another service) leaves only Copy URL on: the URL is the report's own, shown
 * here, while every other action would go to the service the user has switched from.
 */
function toolbar(s: PanelStrings, busy: boolean, foreign: boolean): HTMLElement {
  const buttons = TOOLBAR.map((item) =>
    button(item.label(s), item.icon, () => post({ type: 'command', name: item.command }), {
      className: actionClass(item.command),
      focusKey: `command:${item.command}`,
      disabled: busy || (foreign && !runsOnOtherService(item.command)),
    }),
  );
  // The Tab stop and the arrow keys go to the buttons that are on (a disabled one takes no focus).
  const active = buttons.filter((b) => !b.disabled);
  const stopAt = (stop: HTMLButtonElement | undefined): void => buttons.forEach((b) => (b.tabIndex = b === stop ? 0 : -1));
  stopAt(active[0]);
  const [primary, ...rest] = buttons;
  const apart = rest.pop();
  const bar = el(
    'div',
    { className: 'toolbar', attrs: { role: 'toolbar', 'aria-label': s.toolbar } },
    primary,
    el('span', { className: 'toolbar-group', attrs: { role: 'group', 'aria-label': s.moreActions } }, ...rest),
    apart,
  );
  bar.addEventListener('keydown', (event) => {
    const index = active.findIndex((b) => b === document.activeElement);
    if (index < 0) return;
    const next =
      event.key === 'ArrowRight'
        ? (index + 1) % active.length
        : event.key === 'ArrowLeft'
          ? (index - 1 + active.length) % active.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? active.length - 1
              : -1;
    if (next < 0) return;
    event.preventDefault();
    stopAt(active[next]);
    active[next]?.focus();
  });
  // The roving Tab stop follows a click too.
  bar.addEventListener('focusin', (event) => {
    const focused = active.find((b) => b === event.target);
    if (focused) stopAt(focused);
  });
  return bar;
}

/**
 * Importance on its own scale, apart from the results' colours: bars like a signal meter, three
 * filled for high, two for medium, one for low, in the text's colour.
 */
function importanceMark(importance: Importance | null): SVGSVGElement {
  const filled = importance === 'high' ? 3 : importance === 'medium' ? 2 : importance === 'low' ? 1 : 0;
  const graphic = svg('svg', {
    class: `importance-mark importance-${importance ?? 'unknown'}`,
    viewBox: '0 0 16 16',
    width: '16',
    height: '16',
    'aria-hidden': 'true',
    focusable: 'false',
  });
  for (let bar = 0; bar < 3; bar++) {
    const height = 5 + bar * 4;
    graphic.append(
      svg('rect', {
        class: bar < filled ? 'bar-on' : 'bar-off',
        x: String(1.5 + bar * 5),
        y: String(14.5 - height),
        width: '3',
        height: String(height),
        rx: '0.5',
      }),
    );
  }
  return graphic;
}

const STATUS_ICON: Record<CheckStatus, IconName> = { failed: 'error', unknown: 'question', passed: 'pass-filled' };

function statusText(s: PanelStrings, status: CheckStatus): string {
  return status === 'failed' ? s.statusFailed : status === 'passed' ? s.statusPassed : s.statusUnknown;
}

/** One check: status, readable name (the key in its tooltip), importance where asked, value. */
function checkRow(s: PanelStrings, check: CheckView, withImportance: boolean): HTMLElement {
  const label = el('span', { className: 'check-label', text: visibleText(check.label) });
  if (check.label !== check.name) label.title = visibleText(check.name);
  const value = el(
    'td',
    { className: `check-value kind-${check.value.kind}` },
    el('span', { className: 'value-text', text: check.value.text }),
  );
  if (check.value.truncated) {
    value.title = check.value.full;
    const more = el(
      'details',
      { className: 'value-more' },
      el('summary', {
        text: fill(s.valueTruncated, new Intl.NumberFormat(safeLocale(locale)).format(Array.from(check.value.full).length)),
        focusKey: `value:${check.name}`,
      }),
      el('pre', { className: 'value-full', text: check.value.full }),
    );
    keptOpen(more, `value:${check.name}`);
    value.append(more);
  }
  return el(
    'tr',
    { className: `check check-${check.status}` },
    el(
      'td',
      { className: 'check-status' },
      icon(STATUS_ICON[check.status], `status-${check.status}`),
      el('span', { className: 'sr-only', text: statusText(s, check.status) }),
    ),
    el('td', { className: 'check-name' }, label),
    withImportance &&
      el(
        'td',
        { className: `check-importance importance-${check.importance ?? 'unknown'}` },
        importanceMark(check.importance),
        el('span', { text: check.importanceLabel }),
      ),
    value,
  );
}

/** A table of checks; its column names are for assistive technology (the rows speak for themselves). */
function checksTable(s: PanelStrings, checks: CheckView[], labelledBy: string, withImportance: boolean): HTMLElement {
  const column = (text: string): HTMLElement => el('th', { attrs: { scope: 'col' } }, el('span', { className: 'sr-only', text }));
  return el(
    'table',
    { className: `checks${withImportance ? ' with-importance' : ''}`, attrs: { 'aria-labelledby': labelledBy } },
    // The columns' widths: a fixed table takes them from here, as its header row has no height.
    el(
      'colgroup',
      {},
      el('col', { className: 'col-status' }),
      el('col', { className: 'col-name' }),
      withImportance && el('col', { className: 'col-importance' }),
      el('col', { className: 'col-value' }),
    ),
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        column(s.columnStatus),
        column(s.columnCheck),
        withImportance && column(s.columnImportance),
        column(s.columnValue),
      ),
    ),
    tbody(s, checks, withImportance),
  );
}

const IMPORTANCE_GROUPS: readonly { importance: Importance | null; title: (s: PanelStrings) => string }[] = [
  { importance: 'high', title: (s) => s.highGroup },
  { importance: 'medium', title: (s) => s.mediumGroup },
  { importance: 'low', title: (s) => s.lowGroup },
  { importance: null, title: (s) => s.noImportanceGroup },
];

/** The failed checks under one heading, in groups by importance, each with its count. */
function failedSection(s: PanelStrings, failed: CheckView[]): HTMLElement | null {
  if (failed.length === 0) return null;
  const groups = IMPORTANCE_GROUPS.map(({ importance, title }) => {
    const checks = failed.filter((c) => c.importance === importance);
    if (checks.length === 0) return null;
    const id = `failed-${importance ?? 'none'}`;
    return el(
      'div',
      { className: `importance-group importance-${importance ?? 'unknown'}` },
      el('h3', { attrs: { id } }, importanceMark(importance), el('span', { text: fill(title(s), checks.length) })),
      checksTable(s, checks, id, false),
    );
  });
  return el(
    'section',
    { className: 'checks-section checks-failed', attrs: { 'aria-labelledby': 'checks-failed' } },
    el('h2', { attrs: { id: 'checks-failed' }, text: s.failedChecks }),
    ...groups,
  );
}

/** Checks whose outcome the service did not give, open; passed ones behind their count. */
function otherSection(s: PanelStrings, checks: CheckView[], kind: 'unknown' | 'passed'): HTMLElement | null {
  if (checks.length === 0) return null;
  const id = `checks-${kind}`;
  const title = fill(kind === 'passed' ? s.passedChecks : s.unknownChecks, checks.length);
  if (kind === 'unknown') {
    return el(
      'section',
      { className: `checks-section checks-${kind}` },
      el('h2', { attrs: { id }, text: title }),
      checksTable(s, checks, id, true),
    );
  }
  return keptOpen(
    el(
      'details',
      { className: `checks-section checks-${kind}` },
      el('summary', { focusKey: id }, el('h2', { attrs: { id }, text: title })),
      checksTable(s, checks, id, true),
    ),
    id,
  );
}

/** The analysis: failed checks first, in groups by importance, then undetermined, then passed. */
function analysis(s: PanelStrings, report: ReportView): HTMLElement {
  const section = el('section', { className: 'analysis', attrs: { 'aria-label': s.summary } });
  const { failed, unknown, all } = report.totals;
  if (all === 0) {
    section.append(el('p', { className: 'muted', text: s.noChecks }));
    return section;
  }
  const byStatus = (status: CheckStatus) => report.checks.filter((c) => c.status === status);
  // Undetermined checks are not passed ones: "All checks passed" only when none is either.
  if (failed === 0 && unknown === 0) {
    section.append(
      el('p', { className: 'all-passed' }, icon('pass-filled', 'status-passed'), ' ', el('span', { text: s.allPassed })),
    );
  }
  section.append(
    ...[
      failedSection(s, byStatus('failed')),
      otherSection(s, byStatus('unknown'), 'unknown'),
      otherSection(s, byStatus('passed'), 'passed'),
    ].filter((part): part is HTMLElement => part !== null),
  );
  return section;
}

/** `build()` now, or a placeholder that `build()` replaces right after the first paint. */
function afterFirstPaint(build: () => Node): Node {
  if (!isDeferring()) return build();
  const placeholder = document.createComment('after the first paint');
  later(() => placeholder.replaceWith(build()));
  return placeholder;
}

/** The rows of a checks table: those below the fold of a first draw come just after its paint. */
function tbody(s: PanelStrings, checks: CheckView[], withImportance: boolean): HTMLElement {
  const body = el('tbody');
  let shown = 0;
  while (shown < checks.length && takeRow()) body.append(checkRow(s, checks[shown++], withImportance));
  if (shown < checks.length)
    later(() => body.append(...checks.slice(shown).map((check) => checkRow(s, check, withImportance))));
  return body;
}

function rawView(s: PanelStrings, report: ReportView): HTMLElement {
  const details = el(
    'details',
    { className: 'raw' },
    el('summary', { text: s.rawView, focusKey: 'raw' }),
    el('pre', { className: 'raw-json' }, el('code', { text: report.rawJson })),
  );
  details.open = saved?.rawOpen === true;
  details.addEventListener('toggle', () => saveState({ rawOpen: details.open }));
  return details;
}

/**
 * A list of changed checks under its heading, or nothing when there are none. `collapsed`
 * lists (checks that appeared or went: a new version of the service may bring many) start
 * closed, behind their heading. `outcome` adds a check's "before → after" to its line.
 */
function changeList(
  title: string,
  changes: readonly CheckChange[],
  kind: string,
  collapsed = false,
  outcome?: (c: CheckChange) => string,
): HTMLElement | null {
  if (changes.length === 0) return null;
  const importance = (c: CheckChange): string =>
    c.importance === undefined ? (labels?.noImportance ?? '—') : (labels?.[c.importance] ?? c.importance);
  const heading = fill(title, changes.length);
  const group = el(
    collapsed ? 'details' : 'div',
    { className: `since-group since-${kind}` },
    collapsed ? el('summary', { text: heading, focusKey: `since-${kind}` }) : el('h3', { text: heading }),
    el(
      'ul',
      { className: 'since-checks' },
      ...changes.map((c) =>
        el(
          'li',
          { className: 'since-check' },
          el('span', {
            className: 'check-label',
            text: visibleText(c.label),
            attrs: c.label !== c.name ? { title: visibleText(c.name) } : {},
          }),
          el(
            'span',
            { className: `since-importance importance-${c.importance ?? 'unknown'}` },
            importanceMark(c.importance ?? null),
            el('span', { text: importance(c) }),
          ),
          outcome ? el('span', { className: 'since-outcome', text: outcome(c) }) : null,
        ),
      ),
    ),
  );
  return group instanceof HTMLDetailsElement ? keptOpen(group, `since:${kind}`) : group;
}

/**
 * "Since the previous analysis": score and result change, checks fixed and newly failing
 * (and checks that appeared or went), against the analysis the extension had before the
 * last re-analysis.
 */
function sinceSection(s: PanelStrings, previous: ReportData, current: ReportData, report: ReportView): HTMLElement {
  const diff = diffAnalyses(previous, current);
  const before = toReportView(previous, { locale, labels });
  const delta = formatScoreDelta(diff.score.delta, locale);
  const facts = el('dl', { className: 'since-facts' });
  facts.append(
    el('dt', { text: s.sinceScore }),
    el(
      'dd',
      { className: `since-score trend-${diff.trend}` },
      el('span', { className: 'since-delta', text: delta ?? '—' }),
      el('span', { className: 'muted', text: ` (${before.score.label} → ${report.score.label})` }),
    ),
    el('dt', { text: s.sinceResult }),
    el('dd', {
      className: 'since-result',
      text: diff.result.changed ? `${before.result.label} → ${report.result.label}` : report.result.label,
    }),
  );
  const checks = [
    changeList(s.sinceFixed, diff.fixed, 'fixed'),
    changeList(s.sinceNewlyFailing, diff.newlyFailing, 'failing'),
    // To or from undetermined (present on both sides): neither fixed nor failing, yet changed.
    changeList(s.sinceOtherChanges, diff.otherChanges, 'other', false, (c) =>
      [c.before, c.after].map((status) => statusText(s, status as CheckStatus)).join(' → '),
    ),
    changeList(
      s.sinceAppeared,
      diff.appeared.filter((c) => c.after !== 'failed'),
      'appeared',
      true,
    ),
    changeList(s.sinceDisappeared, diff.disappeared, 'disappeared', true),
  ].filter((x): x is HTMLElement => x !== null);
  // Nothing moved: one sentence, not a table of "±0" and a result "change" that is none.
  const unchanged = nothingChanged(diff, current);
  return el(
    'section',
    { className: 'since', attrs: { 'aria-labelledby': 'since-title' } },
    el('h2', { attrs: { id: 'since-title' }, text: s.sinceTitle }),
    el('p', {
      className: 'muted since-compared',
      text: fill(s.sinceComparedWith, formatDate(previous.generatedAt, Date.now(), locale, { labels }).absolute),
    }),
    ...(unchanged
      ? [el('p', { className: 'since-nothing', text: s.sinceNothingChanged })]
      : [facts, ...(checks.length > 0 ? checks : [el('p', { className: 'muted', text: s.sinceNoCheckChanges })])]),
  );
}

/** The data shown may be stale: the last refresh failed. */
function refreshBanner(s: PanelStrings, message: string): HTMLElement {
  return el(
    'div',
    { className: 'banner banner-stale' },
    icon('warning', 'banner-icon'),
    el('div', { className: 'banner-text' }, el('strong', { text: s.refreshFailed }), el('span', { text: message })),
    button(s.retry, 'refresh', () => post({ type: 'retry' }), { className: 'button secondary', focusKey: 'retry' }),
  );
}

function renderReport(s: PanelStrings, state: Extract<PanelState, { kind: 'report' }>): HTMLElement {
  const { busy } = state;
  const report = toReportView(state.report, { locale, labels });
  return el(
    'article',
    { className: `report${busy ? ' busy' : ''}`, attrs: { 'aria-busy': String(busy || state.refreshing) } },
    busy || state.refreshing
      ? progressBar(busy ? s.busy : s.loading)
      : el('div', { className: 'progress-placeholder' }),
    state.foreign !== null && foreignBanner(s, state.foreign),
    state.refreshError !== null && refreshBanner(s, state.refreshError),
    header(s, report),
    // A report from another service keeps its content with its actions off, but for Copy URL.
    toolbar(s, busy, state.foreign !== null),
    details(s, report, state.foreign !== null),
    // The tree's summary of the report: its analysis is on its way (or could not be fetched:
    // the banner above says so and offers Retry).
    ...(state.partial === true
      ? [state.refreshError === null && el('p', { className: 'muted analysis-pending', text: s.loading })]
      : [
          state.previous !== null && sinceSection(s, state.previous, state.report, report),
          analysis(s, report),
          afterFirstPaint(() => rawView(s, report)),
        ]),
  );
}

// Drawing and messages.

function draw(message: Extract<HostMessage, { type: 'state' }>): void {
  const s = strings;
  if (!s) return; // `init` comes first; the state is drawn when it arrives.
  if (message.seq === drawnSeq) return; // The same state again (the host's answer to `ready`).
  drawnSeq = message.seq;
  // The page's first draw of a whole report paints a screenful first (afterPaint.ts).
  const firstReport = message.state.kind === 'report' && message.state.partial !== true && !drewReport;
  if (firstReport) drewReport = true;
  beginDraw(firstReport);
  const focusPlace = focus.remember(root);
  const scroll = window.scrollY;
  relativeDates = [];

  let { state } = message;
  let content: HTMLElement;
  try {
    content =
      state.kind === 'loading'
        ? renderLoading(s)
        : state.kind === 'error'
          ? renderError(s, state)
          : state.kind === 'deleted'
            ? renderDeleted(s, state)
            : renderReport(s, state);
  } catch {
    // Whatever the report holds, the page never stays on "loading": it says so, with Retry.
    state = { kind: 'error', message: s.cannotShow, canRetry: true };
    content = renderError(s, state);
  }
  root.replaceChildren(content);
  announcer.update(announcements(s, state));
  root.setAttribute('aria-busy', String(state.kind === 'loading' || (state.kind === 'report' && state.busy)));

  // Keep the user's place: same scroll offset, focus back on the same control.
  window.scrollTo(0, scroll);
  focus.restore(root, focusPlace);
  if (restoreScrollY > 0 && state.kind === 'report' && state.partial !== true) {
    // Back from being hidden: where the reader was, once the rows put off past the first paint
    // are in. Forgotten only then: a newer draw that cancels the put-off work restores it instead.
    later(() => {
      window.scrollTo(0, restoreScrollY);
      restoreScrollY = 0;
    });
  }

  post({ type: 'rendered', kind: state.kind, seq: message.seq });
  endDraw();
}

/**
 * What the page says to screen readers after drawing `state` (the Announcer reads each when it
 * first appears): the state's message, a failed refresh, a write in flight, and when the write
 * ends with the report changed, what it is now.
 */
function announcements(s: PanelStrings, state: PanelState): (Announcement | false)[] {
  if (state.kind !== 'report') beforeWrite = undefined;
  switch (state.kind) {
    case 'loading':
      return [{ text: s.loading }];
    case 'error':
      if (typeof state.foreign === 'string') return [{ text: `${fill(s.foreign, state.foreign)}. ${state.message}` }];
      return [{ text: `${s.errorTitle}. ${state.message}`, urgent: true }];
    case 'deleted':
      return [{ text: `${s.deletedTitle}. ${state.message}` }];
    case 'report': {
      let updated: Announcement | false = false;
      const drawn = state.busy || beforeWrite !== undefined ? JSON.stringify(state.report) : '';
      if (state.busy) beforeWrite ??= drawn;
      else if (beforeWrite !== undefined) {
        if (drawn !== beforeWrite) {
          const view = toReportView(state.report, { locale, labels });
          updated = { text: fill(s.reportUpdated, view.result.label, view.score.label, view.privacy.label) };
        }
        beforeWrite = undefined;
      }
      return [
        state.foreign !== null && { text: fill(s.foreign, state.foreign) },
        // Not while a Retry runs: the banner stays up meanwhile, and a Retry that fails the
        // same way is then read again.
        state.refreshError !== null &&
          !state.refreshing && { text: `${s.refreshFailed} ${state.refreshError}`, urgent: true },
        state.busy && { text: s.busy },
        updated,
      ];
    }
  }
}

/**
 * Draws the latest state at the next frame (at once when hidden: no frames come then). States
 * that arrive together (the first ones, posted before the page had loaded) are drawn once, as
 * the last of them; the `rendered` message for it, sent just before that frame is painted,
 * covers the ones it replaced.
 */
function scheduleDraw(): void {
  if (document.visibilityState !== 'visible') {
    if (current) draw(current);
    return;
  }
  if (frameRequested) return;
  frameRequested = true;
  requestAnimationFrame(() => {
    frameRequested = false;
    if (current) draw(current);
  });
}

function refreshRelativeDates(): void {
  const now = Date.now();
  for (const { element, epochMs, template } of relativeDates)
    element.textContent = fill(template, formatRelative(epochMs, now, locale) ?? '');
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const message = event.data;
  if (!isHostMessage(message)) return;
  if (message.type === 'init') {
    l10n.config({ contents: message.bundle });
    strings = panelStrings();
    labels = formatLabels();
    locale = message.locale;
    // Drawn unless it was already (the host sends `init` again in answer to `ready`).
    if (current) scheduleDraw();
    return;
  }
  current = message;
  if (saved?.reportId !== message.reportId) {
    opened.clear();
    restoreScrollY = 0;
    saveState({
      reportId: message.reportId,
      serviceUrl: message.serviceUrl,
      rawOpen: saved?.reportId === undefined ? saved?.rawOpen : false,
      // Another report's place is not this one's.
      scrollY: undefined,
    });
  } else if (saved.serviceUrl !== message.serviceUrl) saveState({ serviceUrl: message.serviceUrl });
  scheduleDraw();
});

onScroll(() => saveState({ scrollY: Math.round(window.scrollY) }));

window.setInterval(refreshRelativeDates, 30_000);
post({ type: 'ready' });
