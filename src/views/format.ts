/**
 * Pure formatting for the tree items: relative dates, descriptions, escaped Markdown for
 * tooltips, empty-state messages. Imports no `vscode` so it is unit-tested in plain Node;
 * `items.ts` wraps the results in `TreeItem`s. Every string from the server is treated as
 * hostile: it is made single-line for labels and escaped for Markdown.
 */
import type { Privacy, Project, Report } from '../api/types';
import * as l10n from '@vscode/l10n';
import { formatAbsolute, formatRelative, safeLocale } from '../text/dates';
import { checkCounts } from '../presentation/format';
import { formatCount } from '../presentation/insightsAggregate';
import { escapeIcons, escapeMarkdown, singleLine } from '../text/text';
import { resultLabel } from '../presentation/format';
import { resultWord, type ReportQueryState } from './query';
import { pageParts, unicodeHost } from '../text/pages';

// ---- Text safety: one home, src/text/text.ts ---------------------------------------------

export { escapeIcons, escapeMarkdown, singleLine };

// ---- Numbers and dates --------------------------------------------------------------------

const numberFormats = new Map<string, Intl.NumberFormat>();

/** `72.5`, `80`; undefined when the score is missing or not a finite number. */
export function formatScore(score: number | undefined, locale = 'en'): string | undefined {
  if (typeof score !== 'number' || !Number.isFinite(score)) return undefined;
  // Cached per locale: building a formatter costs far more than using it, and a long list formats thousands.
  let format = numberFormats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(safeLocale(locale), { maximumFractionDigits: 1 });
    numberFormats.set(locale, format);
  }
  return format.format(score);
}

// ---- Reports ------------------------------------------------------------------------------

/**
 * A report's row label: its page (`/pricing`, `/` for the home page) for an http(s) URL, the
 * URL whole for any other, or "Report 42" when the service sent none. Made single-line.
 */
export function reportLabel(report: Pick<Report, 'url' | 'id'>): string {
  const parts = pageParts(report.url);
  if (parts !== undefined) return singleLine(parts.page);
  return singleLine(report.url) || l10n.t('Report {0}', singleLine(String(report.id)));
}

/**
 * A report as messages name it: its page on its host (`/keyboard on shop.example`), the URL
 * whole for another scheme, or "report 42" when the service sent no URL. Plain one-line
 * text: a notification or the status bar still escapes it for its sink.
 */
export function reportName(report: Pick<Report, 'url' | 'id'>): string {
  const parts = pageParts(report.url);
  if (parts !== undefined) return l10n.t('{0} on {1}', singleLine(parts.page), singleLine(parts.host));
  return singleLine(report.url) || l10n.t('report {0}', singleLine(String(report.id)));
}

/** The host a report's row may name (`café.example`, Unicode, no port); undefined for a URL that is not http(s). */
export function reportHost(report: Pick<Report, 'url'>): string | undefined {
  const host = pageParts(report.url)?.host;
  return host === undefined ? undefined : singleLine(host);
}

/**
 * Whether the rows of `reports` need their host to be told apart: more than one host among
 * them. A list of one site names it nowhere, as the rows would only repeat it.
 */
export function mixesHosts(reports: Iterable<Pick<Report, 'url'>>): boolean {
  let first: string | undefined;
  for (const report of reports) {
    const host = pageParts(report.url)?.host;
    if (host === undefined) continue;
    if (first === undefined) first = host;
    else if (host !== first) return true;
  }
  return false;
}

/** `Public`, `Private`, `Password`; undefined when the privacy is unknown. */
export function privacyLabel(privacy: Privacy | undefined): string | undefined {
  switch (privacy) {
    case 0:
      return l10n.t('Public');
    case 1:
      return l10n.t('Private');
    case 2:
      return l10n.t('Password');
    default:
      return undefined;
  }
}

/**
 * What a report's description says about privacy: nothing for public, else the word. A word,
 * not a lock emoji: descriptions cannot hold codicons, and an emoji shows as an empty box where
 * no emoji font is installed (seen in headless Chromium on Linux).
 */
export function privacyMarker(privacy: Privacy | undefined): string | undefined {
  return privacy === 0 ? undefined : privacyLabel(privacy);
}

export interface FormatOptions {
  now?: Date;
  locale?: string;
}

/**
 * The report item's description: score and generated date (relative), then the host when the
 * row needs it (`host`), then privacy, each only when known, e.g. `72.5 · 3 days ago · shop.example · Private`.
 * Empty when nothing is known.
 */
export function reportDescription(
  report: Pick<Report, 'score' | 'generatedAt' | 'privacy'>,
  options: FormatOptions & { host?: string } = {},
): string {
  const { now = new Date(), locale = 'en', host } = options;
  const parts = [
    formatScore(report.score, locale),
    formatRelative(report.generatedAt, now, locale),
    host,
    privacyMarker(report.privacy),
  ];
  return parts.filter((p): p is string => p !== undefined && p !== '').join(' · ');
}

/** A spoken label for screen readers: page and host, result, score, generated date, privacy. */
export function reportAccessibilityLabel(report: Report, options: FormatOptions = {}): string {
  const { now = new Date(), locale = 'en' } = options;
  const host = reportHost(report);
  const parts = [host === undefined ? reportLabel(report) : l10n.t('{0} on {1}', reportLabel(report), host)];
  parts.push(report.result ? l10n.t('result {0}', resultWord(report.result)) : l10n.t('no result'));
  const score = formatScore(report.score, locale);
  if (score !== undefined) parts.push(l10n.t('score {0}', score));
  const generated = formatRelative(report.generatedAt, now, locale);
  if (generated !== undefined) parts.push(l10n.t('generated {0}', generated));
  const privacy = privacyMarker(report.privacy);
  if (privacy !== undefined) parts.push(privacy);
  return parts.join(', ');
}

/** Value text for a date row: `Nov 20, 2026, 10:15 AM (3 days ago)`. */
function dateRow(date: Date | undefined, now: Date, locale: string): string | undefined {
  const absolute = formatAbsolute(date, locale);
  if (absolute === undefined) return undefined;
  const relative = formatRelative(date, now, locale);
  return relative === undefined ? absolute : `${absolute} (${relative})`;
}

/**
 * Markdown rows `**Name:** value`, one a line; a field without a value has no row. Names are
 * ours; values are escaped as they may hold server text.
 */
function fieldRows(...fields: [name: string, value: string | undefined][]): string {
  return fields
    .filter((field): field is [string, string] => field[1] !== undefined)
    .map(([name, value]) => `**${escapeMarkdown(name)}:** ${escapeMarkdown(value)}`)
    .join('  \n'); // two trailing spaces: a hard line break, so each field has its own line
}

/**
 * The report tooltip as Markdown source: one row per known field, missing ones left out. Every
 * value is escaped, so nothing the server sent can become a link, an image, HTML or a command.
 */
export function reportTooltipMarkdown(report: Report, options: FormatOptions = {}): string {
  const { now = new Date(), locale = 'en' } = options;
  // A list summary carries its analysis's counts; a full report is counted here.
  const checks = checkCounts(report);
  return fieldRows(
    [l10n.t('URL'), report.url === '' ? undefined : report.url],
    [l10n.t('Project'), report.project],
    [l10n.t('Result'), report.result === undefined ? undefined : resultLabel(report.result)],
    [l10n.t('Score'), formatScore(report.score, locale)],
    [l10n.t('Privacy'), privacyLabel(report.privacy)],
    [l10n.t('Generated'), dateRow(report.generatedAt, now, locale)],
    [l10n.t('Created'), dateRow(report.createdAt, now, locale)],
    [l10n.t('Updated'), dateRow(report.updatedAt, now, locale)],
    [l10n.t('Checks'), checks.all > 0 ? l10n.t('{0} passed, {1} failed', checks.passed, checks.failed) : undefined],
    [l10n.t('ID'), String(report.id)],
  );
}

// ---- Projects -----------------------------------------------------------------------------

/**
 * A project's name as its row shows it: a host name's punycode labels in Unicode
 * (`café.example`), as the rows of its reports show the host; single-line.
 */
export function projectLabel(name: string): string {
  return singleLine(unicodeHost(name));
}

/** The project item's description: its created date, relative; empty when unknown. */
export function projectDescription(project: Pick<Project, 'createdAt'>, options: FormatOptions = {}): string {
  const { now = new Date(), locale = 'en' } = options;
  return formatRelative(project.createdAt, now, locale) ?? '';
}

export function projectTooltipMarkdown(project: Project, options: FormatOptions = {}): string {
  const { now = new Date(), locale = 'en' } = options;
  return fieldRows(
    [l10n.t('Project'), unicodeHost(project.name)],
    [l10n.t('Created'), dateRow(project.createdAt, now, locale)],
  );
}

// ---- List states --------------------------------------------------------------------------

/** `Load more (25 of 13,204)`, in the language's digits, when the server sent a total, else `Load more`. */
export function loadMoreLabel(loaded: number, total: number | undefined, locale = 'en'): string {
  return total === undefined
    ? l10n.t('Load more')
    : l10n.t('Load more ({0} of {1})', formatCount(loaded, locale), formatCount(total, locale));
}

/**
 * What an empty Reports view says: which filters matched nothing, as one whole sentence per
 * combination (so each translates as a sentence), e.g. `No bad reports match "pricing".`
 */
export function emptyReportsMessage(state: Pick<ReportQueryState, 'search' | 'project' | 'result'>): string {
  const result = state.result !== undefined ? resultWord(state.result) : undefined;
  const project = state.project !== undefined ? singleLine(state.project) : undefined;
  const search = state.search !== undefined ? singleLine(state.search) : undefined;
  if (result !== undefined && project !== undefined && search !== undefined)
    return l10n.t('No {0} reports in {1} match "{2}".', result, project, search);
  if (result !== undefined && project !== undefined) return l10n.t('No {0} reports in {1}.', result, project);
  if (result !== undefined && search !== undefined) return l10n.t('No {0} reports match "{1}".', result, search);
  if (project !== undefined && search !== undefined) return l10n.t('No reports in {0} match "{1}".', project, search);
  if (result !== undefined) return l10n.t('No {0} reports.', result);
  if (project !== undefined) return l10n.t('No reports in {0}.', project);
  if (search !== undefined) return l10n.t('No reports match "{0}".', search);
  return l10n.t('No reports yet.');
}

export function emptyProjectsMessage(search: string | undefined): string {
  return search === undefined ? l10n.t('No projects yet.') : l10n.t('No projects match "{0}".', singleLine(search));
}

/**
 * Where a case-insensitive search text occurs in a label, as `[start, end)` ranges for
 * `TreeItemLabel.highlights`, so a search shows why each row matched.
 */
export function highlightRanges(label: string, search: string | undefined): [number, number][] {
  if (search === undefined || search === '') return [];
  const haystack = label.toLowerCase();
  const needle = search.toLowerCase();
  // Lower-casing can change lengths in rare scripts; then offsets would lie, so show none.
  if (haystack.length !== label.length || needle.length !== search.length) return [];
  const ranges: [number, number][] = [];
  let from = 0;
  for (;;) {
    const at = haystack.indexOf(needle, from);
    if (at === -1) break;
    ranges.push([at, at + needle.length]);
    from = at + needle.length;
  }
  return ranges;
}
