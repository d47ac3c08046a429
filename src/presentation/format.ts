/**
 * Builds the report panel's view model (`ReportView`, protocols/panelProtocol.ts) from a
 * `Report`: check order and names, value texts, counts, dates. Server strings pass through
 * unchanged, for the page to show as text; a shortened value keeps its full text. Imports no `vscode`.
 */
import * as l10n from '@vscode/l10n';
import type { Check, CheckCounts, Importance, Report, ReportId, ReportResult } from '../api/types';
import { checkWords } from './checkWords';
import { epochOf, formatAbsolute, formatRelative, safeLocale } from '../text/dates';
import { openableUrl } from '../protocols/panelProtocol';
import { replaceUnsafe } from '../text/text';
import type {
  CheckStatus,
  CheckView,
  DateView,
  ImportanceCounts,
  ReportData,
  ReportView,
  ValueView,
} from '../protocols/panelProtocol';
import { pageParts } from '../text/pages';

/** Values longer than this (in characters) are shortened in the list; `full` keeps all. */
export const VALUE_DISPLAY_LIMIT = 200;
/** Panel titles longer than this are shortened (the tab has no room for more). */
export const TITLE_LIMIT = 80;

/** The words the view model is made of; the controller passes localized ones. */
export interface FormatLabels {
  good: string;
  decent: string;
  bad: string;
  noResult: string;
  public: string;
  private: string;
  password: string;
  unknownPrivacy: string;
  high: string;
  medium: string;
  low: string;
  noImportance: string;
  noScore: string;
  /** JSON null. */
  none: string;
  yes: string;
  no: string;
  emptyList: string;
  emptyObject: string;
  /** A check without a value. */
  missingValue: string;
  missingDate: string;
  unknownDate: string;
}

export const DEFAULT_LABELS: FormatLabels = {
  good: 'Good',
  decent: 'Decent',
  bad: 'Bad',
  noResult: 'No result',
  public: 'Public',
  private: 'Private',
  password: 'Password',
  unknownPrivacy: 'Unknown',
  high: 'High',
  medium: 'Medium',
  low: 'Low',
  noImportance: '—',
  noScore: '—',
  none: 'none',
  yes: 'yes',
  no: 'no',
  emptyList: 'empty list',
  emptyObject: 'empty object',
  missingValue: '—',
  missingDate: '—',
  unknownDate: 'unknown',
};

export interface FormatOptions {
  /** "Now" for relative dates (epoch ms); defaults to `Date.now()`. */
  now?: number;
  /** BCP 47 locale for dates and numbers; defaults to `en`. */
  locale?: string;
  /** Time zone for absolute dates; defaults to the runtime's. */
  timeZone?: string;
  labels?: FormatLabels;
}

// Check names.

// Labels several check keys share (services spell some checks more than one way).
const imageAltText = (): string => l10n.t('Image alt text');
const modernImageFormats = (): string => l10n.t('Modern image formats');
const canonicalUrl = (): string => l10n.t('Canonical URL');
const custom404Page = (): string => l10n.t('Custom 404 page');

/**
 * Readable names of the checks audit services commonly report, translated when asked for (the
 * page loads its bundle first). A `Map`, not an object literal: a check named `constructor`
 * or `__proto__` must not find Object's members.
 */
export const KNOWN_CHECKS: ReadonlyMap<string, () => string> = new Map<string, () => string>([
  ['title', () => l10n.t('Title')],
  ['title_length', () => l10n.t('Title length')],
  ['meta_description', () => l10n.t('Meta description')],
  ['meta_description_length', () => l10n.t('Meta description length')],
  ['meta_keywords', () => l10n.t('Meta keywords')],
  ['h1', () => l10n.t('H1 heading')],
  ['h1_count', () => l10n.t('Number of H1 headings')],
  ['multiple_h1', () => l10n.t('Multiple H1 headings')],
  ['headings', () => l10n.t('Headings')],
  ['heading_order', () => l10n.t('Heading order')],
  ['image_alt', imageAltText],
  ['image_alts', imageAltText],
  ['images_alt', imageAltText],
  ['image_format', modernImageFormats],
  ['image_formats', modernImageFormats],
  ['lang', () => l10n.t('Language attribute')],
  ['language', () => l10n.t('Language')],
  ['viewport', () => l10n.t('Viewport')],
  ['charset', () => l10n.t('Character set')],
  ['doctype', () => l10n.t('Doctype')],
  ['canonical', canonicalUrl],
  ['canonical_tag', canonicalUrl],
  ['https', () => l10n.t('HTTPS')],
  ['http2', () => l10n.t('HTTP/2')],
  ['hsts', () => l10n.t('Strict Transport Security')],
  ['mixed_content', () => l10n.t('Mixed content')],
  ['noindex', () => l10n.t('Search engine indexing (noindex)')],
  ['nofollow', () => l10n.t('Link following (nofollow)')],
  ['robots', () => l10n.t('Robots directives')],
  ['robots_txt', () => l10n.t('robots.txt')],
  ['sitemap', () => l10n.t('Sitemap')],
  ['favicon', () => l10n.t('Favicon')],
  ['links', () => l10n.t('Links')],
  ['internal_links', () => l10n.t('Internal links')],
  ['external_links', () => l10n.t('External links')],
  ['broken_links', () => l10n.t('Broken links')],
  ['unsafe_cross_origin_links', () => l10n.t('Unsafe cross-origin links')],
  ['seo_friendly_url', () => l10n.t('SEO-friendly URL')],
  ['url_length', () => l10n.t('URL length')],
  ['word_count', () => l10n.t('Word count')],
  ['content_length', () => l10n.t('Content length')],
  ['keyword_density', () => l10n.t('Keyword density')],
  ['page_size', () => l10n.t('Page size')],
  ['dom_size', () => l10n.t('DOM size')],
  ['response_time', () => l10n.t('Response time')],
  ['load_time', () => l10n.t('Load time')],
  ['http_requests', () => l10n.t('HTTP requests')],
  ['text_compression', () => l10n.t('Text compression')],
  ['compression', () => l10n.t('Compression')],
  ['minified_css', () => l10n.t('Minified CSS')],
  ['minified_js', () => l10n.t('Minified JavaScript')],
  ['render_blocking_resources', () => l10n.t('Render-blocking resources')],
  ['defer_javascript', () => l10n.t('Deferred JavaScript')],
  ['inline_css', () => l10n.t('Inline CSS')],
  ['structured_data', () => l10n.t('Structured data')],
  ['open_graph', () => l10n.t('Open Graph')],
  ['twitter_card', () => l10n.t('Twitter card')],
  ['twitter_cards', () => l10n.t('Twitter cards')],
  ['deprecated_tags', () => l10n.t('Deprecated HTML tags')],
  ['nested_tables', () => l10n.t('Nested tables')],
  ['frameset', () => l10n.t('Frames')],
  ['iframes', () => l10n.t('Inline frames')],
  ['flash', () => l10n.t('Flash content')],
  ['plaintext_email', () => l10n.t('Plain-text email addresses')],
  ['server_signature', () => l10n.t('Server signature')],
  ['directory_listing', () => l10n.t('Directory listing')],
  ['not_found_page', custom404Page],
  ['404_page', custom404Page],
  ['status_code', () => l10n.t('HTTP status')],
  ['redirects', () => l10n.t('Redirects')],
  ['social', () => l10n.t('Social links')],
  ['analytics', () => l10n.t('Analytics')],
  ['contrast', () => l10n.t('Colour contrast')],
  ['accessibility', () => l10n.t('Accessibility')],
]);

/**
 * "snake_case" → "Snake case", "camelCase" → "Camel case", "kebab-case" → "Kebab case";
 * acronyms stay ("HTTPRequests" → "HTTP requests"). A name that is not identifier-like, or
 * has no letters or digits, is returned unchanged, so nothing shows as empty or mangled.
 */
export function humanizeCheckName(name: string): string {
  // Only identifier-like names are humanized; anything else ("<b>x</b>", "a/b?") is shown as sent.
  if (!/^[\p{L}\p{N}_\-. ]+$/u.test(name)) return name;
  const words = name
    .replace(/([\p{Ll}\d])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, '$1 $2')
    .split(/[\s_\-.]+/u)
    .filter((w) => w.length > 0);
  if (words.length === 0) return name;
  const text = words.map((w) => (w.length > 1 && w === w.toUpperCase() ? w : w.toLowerCase())).join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The readable name of a check: the dictionary's, else its key humanized. */
export function checkLabel(name: string): { label: string; known: boolean } {
  const known = (KNOWN_CHECKS.get(name) ?? KNOWN_CHECKS.get(name.toLowerCase()))?.();
  return known !== undefined ? { label: known, known: true } : { label: humanizeCheckName(name), known: false };
}

// Ordering.

const IMPORTANCE_RANK: Record<Importance, number> = { high: 0, medium: 1, low: 2 };
const STATUS_RANK: Record<CheckStatus, number> = { failed: 0, unknown: 1, passed: 2 };

export function checkStatus(check: Pick<Check, 'passed'>): CheckStatus {
  return check.passed === true ? 'passed' : check.passed === false ? 'failed' : 'unknown';
}

function importanceRank(importance: Importance | undefined): number {
  return importance === undefined ? 3 : IMPORTANCE_RANK[importance];
}

/**
 * Failed checks first (high, medium, low, then without importance), then those whose
 * outcome the server did not give, then passed ones (in the same importance order).
 * Stable: checks that tie keep the server's order. Returns a new array.
 */
export function sortChecks<T extends Pick<Check, 'passed' | 'importance'>>(checks: readonly T[]): T[] {
  return [...checks].sort(
    (a, b) =>
      STATUS_RANK[checkStatus(a)] - STATUS_RANK[checkStatus(b)] ||
      importanceRank(a.importance) - importanceRank(b.importance),
  );
}

/** The pass/fail counts of a report's analysis (a list summary carries them). */
export function checkCounts(report: Report): CheckCounts {
  if (report.summary) return report.summary;
  let passed = 0;
  let failed = 0;
  for (const check of report.checks) {
    if (check.passed === true) passed++;
    else if (check.passed === false) failed++;
  }
  return { passed, failed, all: report.checks.length };
}

/** Failed checks per importance. */
export function failedCounts(checks: readonly Pick<Check, 'passed' | 'importance'>[]): ImportanceCounts {
  const counts: ImportanceCounts = { high: 0, medium: 0, low: 0, unknown: 0 };
  for (const check of checks) {
    if (check.passed !== false) continue;
    counts[check.importance ?? 'unknown'] += 1;
  }
  return counts;
}

// Values.

/**
 * Whether a nested string (or an object key) needs quotes to be read unambiguously: when it holds a
 * separator of the readable form, could pass for another value ("none", "42"), or has invisible
 * edges. A value may hold a colon not followed by a space (URLs stay bare); a key may hold none.
 */
function needsQuotes(text: string, labels: FormatLabels, isKey = false): boolean {
  if (text === '' || text.trim() !== text) return true;
  if (/[,;[\]{}"\n\r\t]/.test(text) || text.includes(isKey ? ':' : ': ')) return true;
  const lower = text.toLowerCase();
  const reserved = [labels.none, labels.yes, labels.no, 'null', 'true', 'false', labels.emptyList, labels.emptyObject];
  if (reserved.some((word) => word.toLowerCase() === lower)) return true;
  return text.trim() !== '' && Number.isFinite(Number(text));
}

/** Values nested deeper than this are written as JSON (still complete, just less pretty). */
const MAX_DEPTH = 20;

function readable(value: unknown, labels: FormatLabels, depth: number): string {
  const top = depth === 0;
  if (value === null) return labels.none;
  if (value === undefined) return labels.missingValue;
  switch (typeof value) {
    case 'string':
      if (top) return value === '' ? '""' : value;
      return needsQuotes(value, labels) ? JSON.stringify(value) : value;
    case 'number':
      return String(value);
    case 'boolean':
      return value ? labels.yes : labels.no;
    case 'object':
      break;
    default:
      // Not JSON (a bigint, symbol or function never arrives from a server); said, not hidden.
      return typeof value === 'bigint' ? value.toString() : `(${typeof value})`;
  }
  if (depth > MAX_DEPTH) return JSON.stringify(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return top ? labels.emptyList : '[]';
    const items = value.map((item: unknown) => readable(item, labels, depth + 1)).join(', ');
    return top ? items : `[${items}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return top ? labels.emptyObject : '{}';
  const text = entries
    .map(
      ([key, item]) =>
        `${needsQuotes(key, labels, true) ? JSON.stringify(key) : key}: ${readable(item, labels, depth + 1)}`,
    )
    .join('; ');
  return top ? text : `{${text}}`;
}

function jsonKind(value: unknown): ValueView['kind'] {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  const type = typeof value;
  return type === 'string' || type === 'number' || type === 'boolean' ? type : 'object';
}

/** Shortens to `limit` characters (code points, so no emoji is cut in half) plus "…". */
export function truncate(text: string, limit: number): { text: string; truncated: boolean } {
  if (text.length <= limit) return { text, truncated: false };
  const chars = Array.from(text);
  if (chars.length <= limit) return { text, truncated: false };
  return { text: `${chars.slice(0, limit).join('')}…`, truncated: true };
}

/**
 * A check's value as readable text. Strings as they are; numbers exactly; booleans as yes/no; null
 * as "none"; lists as "a, b, c"; objects as "key: value; key: value" (nested ones in brackets and
 * braces; nested strings quoted where they could be misread).
 */
export function formatValue(
  value: unknown,
  labels: FormatLabels = DEFAULT_LABELS,
  limit = VALUE_DISPLAY_LIMIT,
): ValueView {
  const full = readable(value, labels, 0);
  const short = truncate(full, limit);
  return { kind: jsonKind(value), text: short.text, full, truncated: short.truncated };
}

/**
 * What the panel shows as a check's value: a known check's value in words (`checkWords.ts`),
 * nothing for a passed one whose value tells no more, else the generic readable form.
 */
export function shownValue(
  check: Pick<Check, 'name' | 'passed' | 'value'>,
  locale: string,
  labels: FormatLabels = DEFAULT_LABELS,
): ValueView {
  const said = checkWords(check, locale);
  if (said.kind === 'hidden') return { kind: 'hidden', text: '', full: '', truncated: false };
  if (said.kind === 'generic') return formatValue(check.value, labels);
  const short = truncate(said.text, VALUE_DISPLAY_LIMIT);
  return { kind: 'words', text: short.text, full: said.text, truncated: short.truncated };
}

// Header fields.

/** The result as a title-case label for pickers and tooltips. */
export function resultLabel(result: ReportResult): string {
  switch (result) {
    case 'good':
      return l10n.t('Good');
    case 'decent':
      return l10n.t('Decent');
    case 'bad':
      return l10n.t('Bad');
  }
}

/**
 * The panel's title: the page and its host (`/pricing — shop.example`); the URL itself when
 * it is not http(s) (host and path where it has a host); `Report <id>` when it is empty. Never holds credentials of the URL.
 */
export function reportTitle(url: string, id: ReportId): string {
  const parts = pageParts(url);
  // A long page is cut before the host, so the tab still says which site it is on.
  const title =
    parts === undefined
      ? tabTitle(hostAndPath(url, false))
      : tabTitle(
          l10n.t(
            '{0} — {1}',
            tabTitle(parts.page, Math.max(20, TITLE_LIMIT - Array.from(parts.host).length - 4)),
            parts.host,
          ),
        );
  return title === '' ? tabTitle(l10n.t('Report {0}', String(id))) : title;
}

/**
 * Where a report's page is, as the panel's header says it: its path and query (`/pricing`, `/`
 * for the home page) and its host, for an http(s) URL; the whole URL (one line) and no host
 * for any other.
 */
export function pageAndHost(url: string): { page: string; host: string | null } {
  try {
    const parsed = new URL(url);
    if ((parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.host !== '') {
      return { page: oneLine(parsed.pathname + parsed.search) || '/', host: oneLine(parsed.host) };
    }
  } catch {
    // Not a URL: the text itself.
  }
  return { page: oneLine(url), host: null };
}

/** Host and path of the URL, and its query when `query`; the URL itself when it has no host. */
function hostAndPath(url: string, query: boolean): string {
  try {
    const parsed = new URL(url);
    if (parsed.host !== '')
      return parsed.host + (parsed.pathname === '/' ? '' : parsed.pathname) + (query ? parsed.search : '');
  } catch {
    // Not a URL: the text itself.
  }
  return url;
}

/**
 * A page's name in a list of pages (the insights page's): host, path and query
 * ("shop.localhost/product?id=2"), so pages that differ in their query only read apart.
 */
export function pageName(url: string, id: ReportId): string {
  const chars = Array.from(oneLine(hostAndPath(url, true)));
  if (chars.length === 0) return reportTitle(url, id);
  const half = TITLE_LIMIT / 2;
  return chars.length <= TITLE_LIMIT
    ? chars.join('')
    : `${chars.slice(0, half).join('')}…${chars.slice(1 - half).join('')}`;
}

/** Server text for a tab title: one line, no control or bidi characters, at most `limit` characters. */
export function tabTitle(text: string, limit = TITLE_LIMIT): string {
  return truncate(oneLine(text), limit).text;
}

/** Server text on one line: control and bidi characters and runs of white space as one space. */
function oneLine(text: string): string {
  return replaceUnsafe(text, ' ').replace(/\s+/g, ' ').trim();
}

export function formatScore(
  score: number | undefined,
  locale: string,
  labels: FormatLabels = DEFAULT_LABELS,
): ReportView['score'] {
  if (score === undefined || !Number.isFinite(score)) return { value: null, label: labels.noScore };
  const label = new Intl.NumberFormat(safeLocale(locale), { maximumFractionDigits: 1 }).format(score);
  return { value: Math.min(100, Math.max(0, score)), label };
}

export function formatDate(
  date: Date | number | null | undefined,
  now: number,
  locale: string,
  options: FormatOptions = {},
): DateView {
  const labels = options.labels ?? DEFAULT_LABELS;
  const ms = epochOf(date);
  return {
    iso: ms === undefined ? null : new Date(ms).toISOString(),
    epochMs: ms ?? null,
    absolute: formatAbsolute(ms, locale, { timeZone: options.timeZone }) ?? labels.missingDate,
    relative: formatRelative(ms, now, locale) ?? labels.unknownDate,
  };
}

function prettyJson(raw: Record<string, unknown>): string {
  try {
    return JSON.stringify(raw, null, 2);
  } catch {
    // Only data that did not come from JSON can fail here; the readable form still shows it.
    return readable(raw, DEFAULT_LABELS, 0);
  }
}

/** The whole view model of a report, ready to post to the page. */
export function toReportView(report: Report | ReportData, options: FormatOptions = {}): ReportView {
  const labels = options.labels ?? DEFAULT_LABELS;
  const locale = safeLocale(options.locale);
  const now = options.now ?? Date.now();
  const importanceLabel = (importance: Importance | undefined): string =>
    importance === undefined ? labels.noImportance : labels[importance];

  const checks: CheckView[] = sortChecks(report.checks).map((check) => ({
    name: check.name,
    ...checkLabel(check.name),
    status: checkStatus(check),
    importance: check.importance ?? null,
    importanceLabel: importanceLabel(check.importance),
    value: shownValue(check, locale, labels),
  }));
  const totals = { failed: 0, unknown: 0, passed: 0, all: checks.length };
  for (const check of checks) totals[check.status] += 1;

  const resultLabels = { good: labels.good, decent: labels.decent, bad: labels.bad };
  const privacyLabels = [labels.public, labels.private, labels.password] as const;

  return {
    id: report.id,
    title: reportTitle(report.url, report.id),
    ...pageAndHost(report.url),
    url: report.url,
    urlOpenable: openableUrl(report.url) !== undefined,
    result: {
      value: report.result ?? null,
      label: report.result === undefined ? labels.noResult : resultLabels[report.result],
    },
    score: formatScore(report.score, locale, labels),
    privacy: {
      value: report.privacy ?? null,
      label: report.privacy === undefined ? labels.unknownPrivacy : privacyLabels[report.privacy],
    },
    // An empty name (a server's default for a URL without host) is no project to filter by.
    project: report.project !== undefined && report.project.trim() !== '' ? report.project : null,
    generated: formatDate(report.generatedAt, now, locale, options),
    created: formatDate(report.createdAt, now, locale, options),
    updated: formatDate(report.updatedAt, now, locale, options),
    failedCounts: failedCounts(report.checks),
    totals,
    checks,
    rawJson: prettyJson(report.raw),
  };
}
