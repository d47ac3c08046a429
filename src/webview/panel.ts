/**
 * The report panel's page script (runs inside the webview; built by esbuild to
 * dist/webview/panel.js). It posts `ready`, then draws whatever state the extension sends.
 *
 * Every value that came from the server is put into the DOM with `textContent` or as an
 * attribute value through DOM APIs; no HTML is ever parsed from data, no URL from data
 * becomes an `href` or `src`, and no inline style or handler is written (the CSP forbids
 * them anyway). Links are buttons that ask the extension, which opens only http(s) URLs.
 */
import * as l10n from '@vscode/l10n';
import { formatRelative } from '../common/dates';
import { toReportView, type FormatLabels } from '../panels/format';
import {
  isHostMessage,
  parseSavedPageState,
  type CheckStatus,
  type CheckView,
  type DateView,
  type HostMessage,
  type PageMessage,
  type PanelCommand,
  type PanelState,
  type PanelStrings,
  type ReportId,
  type ReportView,
  type SavedPageState,
} from '../panels/protocol';
import { formatLabels, panelStrings } from '../panels/strings';

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
/** The last state message, drawn again when `init` arrives after it. */
let current: Extract<HostMessage, { type: 'state' }> | undefined;
/** Relative date texts to refresh while the panel stays open. */
let relativeDates: { element: HTMLElement; epochMs: number }[] = [];

function post(message: PageMessage): void {
  vscode.postMessage(message);
}

function saveState(patch: Partial<SavedPageState> & { reportId?: ReportId }): void {
  const reportId = patch.reportId ?? saved?.reportId;
  if (reportId === undefined) return;
  saved = { reportId, rawOpen: patch.rawOpen ?? saved?.rawOpen ?? false };
  vscode.setState(saved);
}

// ---------------------------------------------------------------------------------------------
// DOM helpers. Text goes in through `textContent` only.

type Child = Node | string | null | undefined | false;

interface Props {
  className?: string;
  text?: string;
  /** Attribute names are ours; values may be data (attribute values are never parsed as markup). */
  attrs?: Record<string, string>;
  /** Marks the element so focus can return to it after a redraw. */
  focusKey?: string;
}

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (props.className) element.className = props.className;
  if (props.attrs) for (const [name, value] of Object.entries(props.attrs)) element.setAttribute(name, value);
  if (props.focusKey) element.dataset.focusKey = props.focusKey;
  if (props.text !== undefined) element.textContent = props.text;
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return element;
}

function icon(name: string, extraClass = ''): HTMLElement {
  return el('span', {
    className: `codicon codicon-${name}${extraClass ? ` ${extraClass}` : ''}`,
    attrs: { 'aria-hidden': 'true' },
  });
}

function button(
  label: string,
  iconName: string | undefined,
  onClick: () => void,
  options: { className?: string; focusKey?: string; ariaLabel?: string; disabled?: boolean; title?: string } = {},
): HTMLButtonElement {
  const b = el(
    'button',
    { className: options.className ?? 'button', focusKey: options.focusKey, attrs: { type: 'button' } },
    iconName ? icon(iconName) : null,
    el('span', { text: label }),
  );
  if (options.ariaLabel) b.setAttribute('aria-label', options.ariaLabel);
  if (options.title) b.title = options.title;
  b.disabled = options.disabled ?? false;
  b.addEventListener('click', onClick);
  return b;
}

/** `{0}`-style placeholders, filled with plain text. */
function fill(template: string, ...values: (string | number)[]): string {
  return template.replace(/\{(\d+)\}/g, (match, index: string) => {
    const value = values[Number(index)];
    return value === undefined ? match : String(value);
  });
}

const SVG = 'http://www.w3.org/2000/svg';

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string>): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, value);
  return element;
}

// ---------------------------------------------------------------------------------------------
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
    el('p', { className: 'state-text', text: s.loading, attrs: { role: 'status' } }),
  );
}

function renderError(s: PanelStrings, state: Extract<PanelState, { kind: 'error' }>): HTMLElement {
  return el(
    'section',
    { className: 'state state-error', attrs: { role: 'alert' } },
    el('h1', { className: 'state-title' }, icon('error', 'state-icon'), el('span', { text: s.errorTitle })),
    el('p', { className: 'state-text', text: state.message }),
    state.canRetry &&
      button(s.retry, 'refresh', () => post({ type: 'retry' }), { className: 'button primary', focusKey: 'retry' }),
  );
}

function renderDeleted(s: PanelStrings, state: Extract<PanelState, { kind: 'deleted' }>): HTMLElement {
  return el(
    'section',
    { className: 'state state-deleted', attrs: { role: 'status' } },
    el('h1', { className: 'state-title' }, icon('trash', 'state-icon'), el('span', { text: s.deletedTitle })),
    el('p', { className: 'state-text', text: state.message }),
  );
}

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
    'div',
    {
      className: 'gauge',
      attrs: { role: 'meter', 'aria-label': s.score, 'aria-valuemin': '0', 'aria-valuemax': '100' },
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

function dateFact(label: string, date: DateView): HTMLElement[] {
  if (date.iso === null || date.epochMs === null) {
    // Missing: one dash, not a dash and "(unknown)".
    return [el('dt', { text: label }), el('dd', { className: 'muted', text: date.absolute })];
  }
  const relative = el('span', { className: 'date-relative', text: date.relative });
  relativeDates.push({ element: relative, epochMs: date.epochMs });
  const value = el('time', { attrs: { datetime: date.iso }, text: date.absolute });
  value.title = date.iso;
  return [el('dt', { text: label }), el('dd', {}, value, ' ', el('span', { className: 'muted' }, '(', relative, ')'))];
}

function header(s: PanelStrings, report: ReportView): HTMLElement {
  const url = report.urlOpenable
    ? button(report.url, 'link-external', () => post({ type: 'openUrl', url: report.url }), {
        className: 'link url',
        focusKey: 'url',
        ariaLabel: fill(s.openUrl, report.url),
        title: fill(s.openUrl, report.url),
      })
    : el('span', { className: 'url url-inert', text: report.url, attrs: { title: s.urlNotOpenable } });

  const project =
    report.project !== null
      ? button(report.project, 'filter', () => post({ type: 'filterProject', project: report.project ?? '' }), {
          className: 'link',
          focusKey: 'project',
          ariaLabel: fill(s.filterProject, report.project),
          title: fill(s.filterProject, report.project),
        })
      : el('span', { className: 'muted', text: s.noProject });

  const privacyIcon =
    report.privacy.value === 0
      ? 'globe'
      : report.privacy.value === 1
        ? 'lock'
        : report.privacy.value === 2
          ? 'key'
          : 'question';

  return el(
    'header',
    { className: 'header' },
    gauge(s, report),
    el(
      'div',
      { className: 'header-text' },
      el('h1', { className: 'title', text: report.title }),
      url,
      el(
        'dl',
        { className: 'facts' },
        el('dt', { text: s.result }),
        el(
          'dd',
          {},
          el('span', { className: `badge result-${report.result.value ?? 'none'}`, text: report.result.label }),
        ),
        el('dt', { text: s.project }),
        el('dd', {}, project),
        el('dt', { text: s.privacy }),
        el('dd', {}, icon(privacyIcon), ' ', el('span', { text: report.privacy.label })),
        ...dateFact(s.generated, report.generated),
        ...dateFact(s.created, report.created),
        ...dateFact(s.updated, report.updated),
      ),
    ),
  );
}

const TOOLBAR: readonly { command: PanelCommand; icon: string; label: (s: PanelStrings) => string }[] = [
  { command: 'reanalyze', icon: 'sync', label: (s) => s.reanalyze },
  { command: 'changePrivacy', icon: 'lock', label: (s) => s.changePrivacy },
  { command: 'openOnService', icon: 'globe', label: (s) => s.openOnService },
  { command: 'copyUrl', icon: 'copy', label: (s) => s.copyUrl },
  { command: 'delete', icon: 'trash', label: (s) => s.delete },
];

/** A toolbar in the ARIA sense: one Tab stop, arrow keys move between its buttons. */
function toolbar(s: PanelStrings, busy: boolean): HTMLElement {
  const buttons = TOOLBAR.map((item) =>
    button(item.label(s), item.icon, () => post({ type: 'command', name: item.command }), {
      className: item.command === 'delete' ? 'button secondary danger' : 'button secondary',
      focusKey: `command:${item.command}`,
      disabled: busy,
    }),
  );
  buttons.forEach((b, i) => (b.tabIndex = i === 0 ? 0 : -1));
  const bar = el('div', { className: 'toolbar', attrs: { role: 'toolbar', 'aria-label': s.toolbar } }, ...buttons);
  bar.addEventListener('keydown', (event) => {
    const index = buttons.findIndex((b) => b === document.activeElement);
    if (index < 0) return;
    const next =
      event.key === 'ArrowRight'
        ? (index + 1) % buttons.length
        : event.key === 'ArrowLeft'
          ? (index - 1 + buttons.length) % buttons.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? buttons.length - 1
              : -1;
    if (next < 0) return;
    event.preventDefault();
    buttons.forEach((b, i) => (b.tabIndex = i === next ? 0 : -1));
    buttons[next]?.focus();
  });
  // The roving Tab stop follows a click too.
  bar.addEventListener('focusin', (event) => {
    const index = buttons.findIndex((b) => b === event.target);
    if (index >= 0) buttons.forEach((b, i) => (b.tabIndex = i === index ? 0 : -1));
  });
  return bar;
}

function summary(s: PanelStrings, report: ReportView): HTMLElement {
  const counts = report.failedCounts;
  const section = el('section', { className: 'summary', attrs: { 'aria-label': s.summary } });
  if (report.totals.all === 0) {
    section.append(el('p', { className: 'muted', text: s.noChecks }));
    return section;
  }
  if (report.totals.failed === 0) {
    section.append(
      el(
        'p',
        { className: 'all-passed' },
        icon('pass-filled', 'status-passed'),
        ' ',
        el('span', { text: s.allPassed }),
      ),
    );
    return section;
  }
  const chips = el('ul', { className: 'chips' });
  const items: [keyof typeof counts, string][] = [
    ['high', s.high],
    ['medium', s.medium],
    ['low', s.low],
    ['unknown', s.noImportance],
  ];
  for (const [key, label] of items) {
    if (key === 'unknown' && counts.unknown === 0) continue;
    chips.append(
      el(
        'li',
        { className: `chip importance-${key}${counts[key] === 0 ? ' zero' : ''}` },
        el('span', { className: 'chip-count', text: String(counts[key]) }),
        ' ',
        el('span', { text: label }),
      ),
    );
  }
  section.append(
    el('p', { className: 'summary-title', text: fill(s.failedCount, report.totals.failed, report.totals.all) }),
    chips,
  );
  return section;
}

const STATUS_ICON: Record<CheckStatus, string> = { failed: 'error', unknown: 'question', passed: 'pass-filled' };

function checkRow(s: PanelStrings, check: CheckView): HTMLElement {
  const statusText =
    check.status === 'failed' ? s.statusFailed : check.status === 'passed' ? s.statusPassed : s.statusUnknown;
  const name = el('td', { className: 'check-name' }, el('span', { className: 'check-label', text: check.label }));
  if (check.label !== check.name) name.append(el('code', { className: 'check-key', text: check.name }));

  const value = el(
    'td',
    { className: `check-value kind-${check.value.kind}` },
    el('span', { className: 'value-text', text: check.value.text }),
  );
  if (check.value.truncated) {
    value.title = check.value.full;
    value.append(
      el(
        'details',
        { className: 'value-more' },
        el('summary', { text: fill(s.valueTruncated, Array.from(check.value.full).length) }),
        el('pre', { className: 'value-full', text: check.value.full }),
      ),
    );
  }
  return el(
    'tr',
    { className: `check check-${check.status}` },
    el(
      'td',
      { className: 'check-status' },
      icon(STATUS_ICON[check.status], `status-${check.status}`),
      el('span', { className: 'sr-only', text: statusText }),
    ),
    name,
    el('td', {
      className: `check-importance importance-${check.importance ?? 'unknown'}`,
      text: check.importanceLabel,
    }),
    value,
  );
}

function checksSection(s: PanelStrings, title: string, checks: CheckView[], kind: CheckStatus): HTMLElement | null {
  if (checks.length === 0) return null;
  const headingId = `checks-${kind}`;
  const table = el(
    'table',
    { className: 'checks', attrs: { 'aria-labelledby': headingId } },
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        el(
          'th',
          { className: 'col-status', attrs: { scope: 'col' } },
          el('span', { className: 'sr-only', text: s.columnStatus }),
        ),
        el('th', { attrs: { scope: 'col' }, text: s.columnCheck }),
        el('th', { attrs: { scope: 'col' }, text: s.columnImportance }),
        el('th', { attrs: { scope: 'col' }, text: s.columnValue }),
      ),
    ),
    el('tbody', {}, ...checks.map((check) => checkRow(s, check))),
  );
  return el(
    'section',
    { className: `checks-section checks-${kind}` },
    el('h2', { attrs: { id: headingId }, text: fill(title, checks.length) }),
    table,
  );
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

/** The data shown may be stale: the last refresh failed. */
function refreshBanner(s: PanelStrings, message: string): HTMLElement {
  return el(
    'div',
    { className: 'banner', attrs: { role: 'alert' } },
    icon('warning', 'banner-icon'),
    el('div', { className: 'banner-text' }, el('strong', { text: s.refreshFailed }), el('span', { text: message })),
    button(s.retry, 'refresh', () => post({ type: 'retry' }), { className: 'button secondary', focusKey: 'retry' }),
  );
}

function renderReport(s: PanelStrings, state: Extract<PanelState, { kind: 'report' }>): HTMLElement {
  const { busy } = state;
  const report = toReportView(state.report, { locale, labels });
  const byStatus = (status: CheckStatus) => report.checks.filter((c) => c.status === status);
  return el(
    'article',
    { className: `report${busy ? ' busy' : ''}`, attrs: { 'aria-busy': String(busy || state.refreshing) } },
    busy || state.refreshing
      ? progressBar(busy ? s.busy : s.loading)
      : el('div', { className: 'progress-placeholder' }),
    state.refreshError !== null && refreshBanner(s, state.refreshError),
    header(s, report),
    toolbar(s, busy),
    busy && el('p', { className: 'sr-only', text: s.busy, attrs: { role: 'status' } }),
    summary(s, report),
    checksSection(s, s.failedChecks, byStatus('failed'), 'failed'),
    checksSection(s, s.unknownChecks, byStatus('unknown'), 'unknown'),
    checksSection(s, s.passedChecks, byStatus('passed'), 'passed'),
    rawView(s, report),
  );
}

// ---------------------------------------------------------------------------------------------
// Drawing and messages.

function draw(message: Extract<HostMessage, { type: 'state' }>): void {
  const s = strings;
  if (!s) return; // `init` comes first; the state is drawn when it arrives.
  const focusKey =
    document.activeElement instanceof HTMLElement && root.contains(document.activeElement)
      ? document.activeElement.dataset.focusKey
      : undefined;
  const hadFocus = root.contains(document.activeElement);
  const scroll = window.scrollY;
  relativeDates = [];

  const { state } = message;
  const content =
    state.kind === 'loading'
      ? renderLoading(s)
      : state.kind === 'error'
        ? renderError(s, state)
        : state.kind === 'deleted'
          ? renderDeleted(s, state)
          : renderReport(s, state);
  root.replaceChildren(content);
  root.setAttribute('aria-busy', String(state.kind === 'loading' || (state.kind === 'report' && state.busy)));

  // Keep the user's place: same scroll offset, focus back on the same control.
  window.scrollTo(0, scroll);
  const target =
    focusKey !== undefined ? root.querySelector<HTMLElement>(`[data-focus-key="${CSS.escape(focusKey)}"]`) : null;
  if (target && !(target instanceof HTMLButtonElement && target.disabled)) target.focus();
  else if (hadFocus) root.querySelector<HTMLElement>('button:not([disabled]), summary')?.focus();

  const rendered: PageMessage = { type: 'rendered', kind: state.kind, seq: message.seq };
  if (document.visibilityState === 'visible') requestAnimationFrame(() => post(rendered));
  else post(rendered);
}

function refreshRelativeDates(): void {
  const now = Date.now();
  for (const { element, epochMs } of relativeDates) element.textContent = formatRelative(epochMs, now, locale) ?? '';
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const message = event.data;
  if (!isHostMessage(message)) return;
  if (message.type === 'init') {
    l10n.config({ contents: message.bundle });
    strings = panelStrings();
    labels = formatLabels();
    locale = message.locale;
    if (current) draw(current);
    return;
  }
  current = message;
  if (saved?.reportId !== message.reportId)
    saveState({ reportId: message.reportId, rawOpen: saved?.reportId === undefined ? saved?.rawOpen : false });
  draw(message);
});

window.setInterval(refreshRelativeDates, 30_000);
post({ type: 'ready' });
