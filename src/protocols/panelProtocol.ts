/**
 * The messages between the report panel's controller (extension host) and its page script
 * (webview), both ways, with type guards for what arrives. Imports no `vscode` and nothing from the
 * DOM: both sides compile it. The controller validates everything the page asks: the page renders
 * server data, so it is untrusted.
 */

import type { Importance, Privacy, Report, ReportId, ReportResult } from '../api/types';
import { epochOf } from '../text/dates';
import { isOneOf, isRecord, isReportId, isScrollPlace } from '../text/guards';

export type { Importance, Privacy, ReportId, ReportResult };

/** The actions of the panel's toolbar; each runs the extension command of the same meaning. */
export const PANEL_COMMANDS = ['reanalyze', 'changePrivacy', 'openOnService', 'copyUrl', 'delete'] as const;
export type PanelCommand = (typeof PANEL_COMMANDS)[number];

/**
 * Whether a panel showing a report of another service (the one switched from) may run
 * `command`: only Copy URL, which copies the URL shown and sends nothing; the rest would act on
 * that service. The page leaves the others off, the host refuses them.
 */
export function runsOnOtherService(command: PanelCommand): boolean {
  return command === 'copyUrl';
}

// View model: what the page renders. Only JSON-serializable data (no Date, no undefined
// where the page must tell "missing" apart: missing is an explicit `null` or a flag).

/** A date as it travels to the page: already formatted, plus the instant for refreshing. */
export interface DateView {
  /** ISO 8601 instant, or null when the server sent none or an unreadable one. */
  iso: string | null;
  /** Epoch milliseconds of the same instant, or null. */
  epochMs: number | null;
  /** Localized absolute date and time, or "—" when missing. */
  absolute: string;
  /** Localized relative time ("3 hours ago"), or "unknown" when missing. */
  relative: string;
}

/** A check's value, formatted for reading. Nothing is lost: `full` holds all of it. */
export interface ValueView {
  /**
   * The JSON type of the value; `missing` when the check had no `value` at all; `words` when a
   * known check's value is said in words; `hidden` for a passed check whose value tells no more.
   */
  kind: 'string' | 'number' | 'boolean' | 'null' | 'array' | 'object' | 'missing' | 'words' | 'hidden';
  /** What the list shows: readable, at most `VALUE_DISPLAY_LIMIT` characters plus "…". */
  text: string;
  /** The whole readable text (what `text` shortens). */
  full: string;
  /** Whether `text` is shorter than `full`. */
  truncated: boolean;
}

export type CheckStatus = 'failed' | 'unknown' | 'passed';

export interface CheckView {
  /** The check's key exactly as the server sent it. */
  name: string;
  /** Readable name: from the dictionary of known checks, else the key humanized. */
  label: string;
  /** Whether `label` comes from the dictionary (a known check). */
  known: boolean;
  /** `unknown` when the server did not say whether it passed. */
  status: CheckStatus;
  importance: Importance | null;
  /** "High", "Medium", "Low" or "—". */
  importanceLabel: string;
  value: ValueView;
}

export interface ImportanceCounts {
  high: number;
  medium: number;
  low: number;
  /** Failed checks without an importance. */
  unknown: number;
}

export interface ReportView {
  /** The report id exactly as the server sent it (number or string). */
  id: ReportId;
  /** Host and path of the URL ("shop.localhost/cart"), the panel's tab title. */
  title: string;
  /** The page: the URL's path and query (`/cart`), or the whole URL when it is not http(s). */
  page: string;
  /** The URL's host (with its port), or null when it is not an http(s) URL. */
  host: string | null;
  url: string;
  /** Whether the URL is an absolute http(s) URL: only then the page offers to open it. */
  urlOpenable: boolean;
  result: { value: ReportResult | null; label: string };
  /** The score gauge: `value` clamped to 0-100 (null when missing), `label` as shown. */
  score: { value: number | null; label: string };
  privacy: { value: Privacy | null; label: string };
  /** The project name, or null when the server sent none. */
  project: string | null;
  generated: DateView;
  created: DateView;
  updated: DateView;
  /** Failed checks per importance. */
  failedCounts: ImportanceCounts;
  totals: { failed: number; unknown: number; passed: number; all: number };
  /** Failed first (high, medium, low, no importance), then undetermined, then passed. */
  checks: CheckView[];
  /** Every field the server sent, pretty-printed JSON. */
  rawJson: string;
}

/**
 * A report as it travels to the page: its normalized fields, dates as epoch ms (null when
 * missing or invalid), since a posted message is JSON and a `Date` would arrive as text.
 */
export type ReportData = Omit<Report, 'generatedAt' | 'createdAt' | 'updatedAt'> & {
  generatedAt: number | null;
  createdAt: number | null;
  updatedAt: number | null;
};

const epoch = (date: Date | undefined): number | null => epochOf(date) ?? null;

/** The report's fields for the page (see {@link ReportData}). */
export function toReportData(report: Report): ReportData {
  return {
    ...report,
    generatedAt: epoch(report.generatedAt),
    createdAt: epoch(report.createdAt),
    updatedAt: epoch(report.updatedAt),
  };
}

export type PanelState =
  | { kind: 'loading' }
  | {
      kind: 'report';
      /** The report's normalized fields; the page formats them (`format.ts`, `toReportView`). */
      report: ReportData;
      /** A write on this report is in flight: actions are off. */
      busy: boolean;
      /** Fresh data is being fetched while this is shown. */
      refreshing: boolean;
      /** Why the last refresh failed (the data shown may be stale), or null. */
      refreshError: string | null;
      /**
       * The analysis the extension had before the report's last re-analysis (the recent
       * analyses store), for the "Since the previous analysis" section; null when none is known.
       */
      previous: ReportData | null;
      /** The report is a list's summary (the tree's row): its analysis is not here yet. */
      partial?: boolean;
      /**
       * The label of the service this report came from when the extension now shows another
       * one (the page says so, offers Switch Back and Close, and turns the actions off), or null.
       */
      foreign: string | null;
    }
  | {
      kind: 'error';
      message: string;
      canRetry: boolean;
      foreign?: string | null;
      /** The title of the way forward beside Retry (Open Settings, Set API Key…); the host keeps its command. */
      action?: string | null;
    }
  | { kind: 'deleted'; id: ReportId; message: string };

export type PanelStateKind = PanelState['kind'];

/** The page's own words, localized in the page with `@vscode/l10n` and the bundle from `init`. */
export interface PanelStrings {
  loading: string;
  retry: string;
  errorTitle: string;
  refreshFailed: string;
  deletedTitle: string;
  reanalyze: string;
  changePrivacy: string;
  openOnService: string;
  copyUrl: string;
  delete: string;
  toolbar: string;
  busy: string;
  /** Said when a write ends with the report changed: result, score, privacy. */
  reportUpdated: string;
  openUrl: string;
  urlNotOpenable: string;
  result: string;
  score: string;
  scoreOf100: string;
  project: string;
  filterProject: string;
  noProject: string;
  privacy: string;
  generated: string;
  created: string;
  updated: string;
  id: string;
  url: string;
  /** The disclosure holding the facts the header leaves out (dates, ID, project, URL). */
  details: string;
  /** `Analysed {0}`: {0} is how long ago ("3 months ago"). */
  analysedAgo: string;
  /** The secondary actions' group name for assistive technology. */
  moreActions: string;
  /** The analysis section's name for assistive technology. */
  summary: string;
  allPassed: string;
  /** Heading over the failed checks' groups (their counts are the groups'). */
  failedChecks: string;
  /** `High ({0})`: the failed checks of high importance, with their count. */
  highGroup: string;
  mediumGroup: string;
  lowGroup: string;
  noImportanceGroup: string;
  /** `Not determined ({0})`. */
  unknownChecks: string;
  /** `Passed ({0})`: the collapsed passed checks. */
  passedChecks: string;
  noChecks: string;
  columnStatus: string;
  columnCheck: string;
  columnImportance: string;
  columnValue: string;
  statusFailed: string;
  statusPassed: string;
  statusUnknown: string;
  rawView: string;
  valueTruncated: string;
  /** Heading of the section comparing with the previous analysis: `Since the previous analysis`. */
  sinceTitle: string;
  /** `Compared with the analysis of {0}`. */
  sinceComparedWith: string;
  sinceScore: string;
  sinceResult: string;
  sinceFixed: string;
  sinceNewlyFailing: string;
  sinceAppeared: string;
  sinceDisappeared: string;
  sinceOtherChanges: string;
  sinceNoCheckChanges: string;
  sinceNothingChanged: string;
  /** `This report belongs to {0}`: {0} is the service's label. */
  foreign: string;
  switchBack: string;
  close: string;
  /** The report arrived but its page could not be built (offered with Retry). */
  cannotShow: string;
}

// Messages.

/** Extension → page. */
export type HostMessage =
  /**
   * `bundle` is the display language's `l10n/bundle.l10n.<language>.json` as the host loaded it
   * (`vscode.l10n.bundle`), `{}` in English: the page translates its own words with it.
   */
  | { type: 'init'; bundle: L10nBundle; locale: string }
  /**
   * `reportId` and `serviceUrl` (the service the report came from, when known) travel with
   * every state so the page can save them for a window reload.
   */
  | { type: 'state'; reportId: ReportId; serviceUrl?: string; state: PanelState; seq: number };

/** Page → extension. */
export type PageMessage =
  | { type: 'ready' }
  | { type: 'retry' }
  | { type: 'openUrl'; url: string }
  | { type: 'command'; name: PanelCommand }
  | { type: 'filterProject'; project: string }
  /** The banner of a report from another service: make that service current again, or close. */
  | { type: 'switchBack' }
  | { type: 'close' }
  | { type: 'errorAction' }
  /** Sent after the page has drawn a state (`seq` of that state message): for measurements. */
  | { type: 'rendered'; kind: PanelStateKind; seq: number };

/** What the page keeps with `vscode.setState` (and the serializer reads after a reload). */
export interface SavedPageState {
  reportId: ReportId;
  /** The service the report came from: after a reload the panel is that service's, not the current one's. */
  serviceUrl?: string;
  rawOpen?: boolean;
  /**
   * How far the reader had scrolled: VS Code drops a hidden panel's page and makes it again
   * when shown. Only the page uses it (the serializer has no use for it).
   */
  scrollY?: number;
  /**
   * What the reader opened in the report (`value:NAME`, `since:KIND`), so that it is still open
   * when the hidden panel's page is made again. Only the page uses it ({@link savedOpenedOf}).
   */
  opened?: string[];
}

// Guards. The controller runs every incoming message through `parsePageMessage`; anything
// that does not match exactly is dropped.

const MAX_MESSAGE_STRING = 10_000;

function isShortString(value: unknown): value is string {
  return typeof value === 'string' && value.length <= MAX_MESSAGE_STRING;
}

export function isPanelCommand(value: unknown): value is PanelCommand {
  return isOneOf(PANEL_COMMANDS, value);
}

const STATE_KINDS: readonly PanelStateKind[] = ['loading', 'report', 'error', 'deleted'];

/**
 * Returns the message as a typed `PageMessage` when it is one, else undefined. Copies only
 * the known fields, so nothing else the page may have attached travels further.
 */
export function parsePageMessage(value: unknown): PageMessage | undefined {
  if (!isRecord(value)) return undefined;
  switch (value.type) {
    case 'ready':
    case 'retry':
    case 'switchBack':
    case 'close':
    case 'errorAction':
      return { type: value.type };
    case 'openUrl':
      return isShortString(value.url) ? { type: 'openUrl', url: value.url } : undefined;
    case 'command':
      return isPanelCommand(value.name) ? { type: 'command', name: value.name } : undefined;
    case 'filterProject':
      return isShortString(value.project) ? { type: 'filterProject', project: value.project } : undefined;
    case 'rendered':
      return isOneOf(STATE_KINDS, value.kind) && typeof value.seq === 'number' && Number.isInteger(value.seq)
        ? { type: 'rendered', kind: value.kind, seq: value.seq }
        : undefined;
    default:
      return undefined;
  }
}

/** Reads what the page saved with `setState`, as the serializer gets it back after a reload. */
export function parseSavedPageState(value: unknown): SavedPageState | undefined {
  if (!isRecord(value) || !isReportId(value.reportId)) return undefined;
  const serviceUrl = isServiceUrl(value.serviceUrl) ? { serviceUrl: value.serviceUrl } : {};
  const scrollY = isScrollPlace(value.scrollY) ? { scrollY: value.scrollY } : {};
  return { reportId: value.reportId, ...serviceUrl, rawOpen: value.rawOpen === true, ...scrollY };
}

/**
 * The page's own reading of what was open (`SavedPageState.opened`): strings only, at most 200
 * of them. The serializer does not need it, so `parseSavedPageState` leaves it out.
 */
export function savedOpenedOf(value: unknown): string[] {
  if (!isRecord(value) || !Array.isArray(value.opened)) return [];
  return value.opened.filter((key): key is string => typeof key === 'string').slice(0, 200);
}

function isServiceUrl(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 2048 && /^https?:\/\/[^\s]+$/i.test(value);
}

/** English message → translation, as in `l10n/bundle.l10n.<language>.json`. */
export type L10nBundle = Record<string, string>;

function isL10nBundle(value: unknown): value is L10nBundle {
  return isRecord(value) && Object.values(value).every((v) => typeof v === 'string');
}

/** A guard for the page: whether a message from the extension has the expected shape. */
export function isHostMessage(value: unknown): value is HostMessage {
  if (!isRecord(value)) return false;
  if (value.type === 'init') return isL10nBundle(value.bundle) && typeof value.locale === 'string';
  if (value.type === 'state') {
    return (
      // Any id the client read (a long one too: its saved state only does not come back after a reload).
      (typeof value.reportId === 'string' || isReportId(value.reportId)) &&
      (value.serviceUrl === undefined || isServiceUrl(value.serviceUrl)) &&
      typeof value.seq === 'number' &&
      isRecord(value.state) &&
      isOneOf(STATE_KINDS, value.state.kind)
    );
  }
  return false;
}

/** The one rule for opening URLs, shared by the page and the controller (see `text/urls`). */
export { openableUrl } from '../text/urls';
