/**
 * The messages between the insights panel's controller (extension host) and its page script
 * (webview), both ways, with guards for what arrives, and the shapes of what the page shows
 * (`presentation/insightsAggregate.ts` computes them). Imports no `vscode` and nothing from the
 * DOM: both sides compile it.
 */
import type { Importance, ReportId, ReportResult } from '../api/types';
import { isOneOf, isRecord, isReportId, isScrollPlace } from '../text/guards';

/** A report as the page lists it: enough to name it and open its panel. */
export interface ReportRef {
  id: ReportId;
  /** Host, path and query ("shop.localhost/product?id=2"): `pageName`, the page as lists name it. */
  title: string;
  url: string;
  result: ReportResult | null;
  score: number | null;
  /** Epoch ms of `generated_at`, or null when missing or unreadable. */
  generatedAt: number | null;
}

export interface ResultCounts {
  good: number;
  decent: number;
  bad: number;
  /** Reports without a result, or with one the extension does not know. */
  other: number;
}

export interface ScoreStats {
  /** Reports with a score. */
  scored: number;
  /** Reports without one. */
  unscored: number;
  /** Null when no report has a score (never NaN). */
  mean: number | null;
  median: number | null;
  /** `SCORE_BUCKETS` counts, bucket i holds scores in [10i, 10i + 10), the last also 100. */
  buckets: number[];
}

export interface WeekMedian {
  /** Epoch ms of the ISO week's Monday, 00:00 UTC. */
  weekStart: number;
  median: number;
  /** Scored reports generated that week. */
  count: number;
  /** Where the chart draws it: the median time of that week's reports (epoch ms), among them. */
  at: number;
}

export interface TimePoint {
  /** Epoch ms of `generated_at`. */
  x: number;
  /** The score. */
  y: number;
  /** Index into `InsightsModel.reports`. */
  report: number;
}

export interface FailingCheck {
  /** The check's key exactly as the server sent it. */
  name: string;
  /** Readable name: the report panel's `checkLabel`. */
  label: string;
  /** The highest importance the check was failed with, or null when none was sent. */
  importance: Importance | null;
  /** Reports in which it failed. */
  failed: number;
  /** Reports in which it ran (it appears in their results). */
  ran: number;
  /** failed / ran, 0–1. */
  share: number;
  /** Indexes into `InsightsModel.reports` of the reports it failed in, newest first. */
  reports: number[];
}

/** Everything the insights page shows, computed from one list of reports. */
export interface InsightsModel {
  /** The project, or null for all projects. */
  project: string | null;
  /** Reports aggregated. */
  total: number;
  results: ResultCounts;
  scores: ScoreStats;
  overTime: {
    points: TimePoint[];
    weekly: WeekMedian[];
    /** Scored reports without a readable generated date (not on the time chart). */
    undated: number;
  };
  /** Most frequent first; ties by name. */
  checks: FailingCheck[];
  /** Indexes into `reports` of the lowest-scoring reports, lowest first. */
  lowest: number[];
  /** The reports, newest first as loaded. */
  reports: ReportRef[];
}

/** Words the insights page and its Markdown summary both use, localized by the host. */
export interface InsightsWords {
  allProjects: string;
  results: string;
  good: string;
  decent: string;
  bad: string;
  other: string;
  /** `{0}`: a count. */
  reportsOne: string;
  reportsMany: string;
  scores: string;
  noScore: string;
  /** `{0}`: a count. */
  unscored: string;
  checks: string;
  noFailures: string;
  high: string;
  medium: string;
  low: string;
  noImportance: string;
}


/** Where a load stands. */
export type InsightsPhase = 'loading' | 'ready' | 'cancelled' | 'error';
export const INSIGHTS_PHASES: readonly InsightsPhase[] = ['loading', 'ready', 'cancelled', 'error'];

export interface InsightsState {
  phase: InsightsPhase;
  /** The project, or null for all projects. */
  project: string | null;
  /** The result shown (while loading: the last one, if any), or null. */
  model: InsightsModel | null;
  /**
   * Set (with `model` null) when the page already has the model of this `modelAt`: progress
   * messages do not send it again.
   */
  modelKept?: boolean;
  /** "Loaded 300 of 1,240 reports" while loading (or after a failure or cancel), else null. */
  progressText: string | null;
  /** Reports loaded, and what the load will fetch (the server's total, or the cap when less): for the progress bar. */
  loaded: number;
  total: number | null;
  /** "Showing the newest 2,000 of 5,310 reports" when the cap cut the data, else null. */
  capText: string | null;
  /** "As of 22 Nov 2026, 22:41" for the data shown, or null before any. */
  asOf: string | null;
  /** When `model` was computed (epoch ms), or null: a new value means new data to draw. */
  modelAt: number | null;
  /** Why the load failed (phase `error`), or null. */
  error: string | null;
  /**
   * The title of the way forward beside Retry when retrying alone would fail the same way
   * (Open Settings, Set API Key…, Read About CORS), or null. The host keeps the command.
   */
  errorAction: string | null;
  /** What a cancel or a failure left on screen when not the page's own words, or null. */
  notice: string | null;
  /** A cancel that left reports loaded and more to load: Continue Loading goes on from the next page. */
  canContinue: boolean;
}

/** The page's words, localized by the controller and sent in `init`; `{0}` filled by the page. */
export interface InsightsStrings extends InsightsWords {
  heading: string;
  /** The headline row's name for assistive technology, and its captions. */
  headline: string;
  meanScore: string;
  medianScore: string;
  /** The share of bad reports among all. */
  badShare: string;
  loading: string;
  cancel: string;
  refresh: string;
  retry: string;
  copySummary: string;
  toolbar: string;
  errorTitle: string;
  cancelled: string;
  continueLoading: string;
  noReports: string;
  /** Said when a load ends: "Loaded 40 reports:", then the results. */
  loaded: string;
  resultsAria: string;
  scoresAria: string;
  overTime: string;
  overTimeAria: string;
  weeklyMedian: string;
  reportScore: string;
  undated: string;
  checksAria: string;
  failedIn: string;
  /** "Failed in 1 of 1 report (100 %)": a check that ran in one report. */
  failedInOne: string;
  checkReports: string;
  /** Under a failing check's reports: "Show 50 more (1,200 not listed)". */
  showMore: string;
  lowest: string;
  noLowest: string;
  /** Said instead of the over-time chart when no report has both a score and a generated date. */
  noOverTime: string;
  /** The over-time chart's date axis: its dates are in UTC, as its weeks are. */
  overTimeAxis: string;
  showData: string;
  columnResult: string;
  columnCount: string;
  columnBucket: string;
  columnWeek: string;
  columnMedian: string;
  columnReports: string;
  columnCheck: string;
  columnImportance: string;
  columnFailed: string;
  columnShare: string;
  columnPage: string;
  columnScore: string;
  columnGenerated: string;
  openReport: string;
}

/** Extension → page. */
export type InsightsHostMessage =
  | { type: 'init'; strings: InsightsStrings; locale: string }
  | { type: 'state'; state: InsightsState; seq: number }
  /** The summary is on the clipboard: the page says so to screen readers (the status bar is not read). */
  | { type: 'copied'; text: string };

/** Page → extension. */
export type InsightsPageMessage =
  | { type: 'ready' }
  | { type: 'refresh' }
  | { type: 'retry' }
  | { type: 'cancel' }
  | { type: 'copySummary' }
  | { type: 'errorAction' }
  | { type: 'openReport'; id: ReportId }
  | { type: 'rendered'; phase: InsightsPhase; seq: number };

/**
 * What the page keeps with `setState`: the project, for the serializer after a reload, and
 * what the user opened on the page, which a hidden panel's page (reloaded when shown again)
 * and a restored one open again.
 */
export interface SavedInsightsState {
  project: string | null;
  /** The failing check whose reports are listed (its name as sent), and how many are. */
  openCheck?: string;
  listed?: number;
  /** The "Show data" tables open (their keys). */
  openTables?: string[];
  /** How far the reader had scrolled (the page of a hidden panel is made again when shown). */
  scrollY?: number;
}

function isPhase(value: unknown): value is InsightsPhase {
  return isOneOf(INSIGHTS_PHASES, value);
}

/** The project name a message or saved state may carry: null (all) or a short non-empty text. */
function isProject(value: unknown): value is string | null {
  return value === null || (typeof value === 'string' && value.length > 0 && value.length <= 1000);
}

/** The message as a typed `InsightsPageMessage` when it is one (known fields only), else undefined. */
export function parseInsightsPageMessage(value: unknown): InsightsPageMessage | undefined {
  if (!isRecord(value)) return undefined;
  switch (value.type) {
    case 'ready':
    case 'refresh':
    case 'retry':
    case 'cancel':
    case 'copySummary':
    case 'errorAction':
      return { type: value.type };
    case 'openReport':
      return isReportId(value.id) ? { type: 'openReport', id: value.id } : undefined;
    case 'rendered':
      return isPhase(value.phase) && typeof value.seq === 'number' && Number.isInteger(value.seq)
        ? { type: 'rendered', phase: value.phase, seq: value.seq }
        : undefined;
    default:
      return undefined;
  }
}

/** Reads the project the page saved, as the serializer gets it back after a reload. */
export function parseSavedInsightsState(value: unknown): SavedInsightsState | undefined {
  return isRecord(value) && isProject(value.project) ? { project: value.project } : undefined;
}

/** Reads all the page saved, as the page gets it back; what is malformed is left out. */
export function parseSavedInsightsView(value: unknown): SavedInsightsState | undefined {
  const saved = parseSavedInsightsState(value);
  if (saved === undefined || !isRecord(value)) return undefined;
  if (typeof value.openCheck === 'string' && value.openCheck.length <= 1000) saved.openCheck = value.openCheck;
  if (Number.isSafeInteger(value.listed) && (value.listed as number) > 0) saved.listed = value.listed as number;
  if (Array.isArray(value.openTables)) {
    saved.openTables = value.openTables
      .filter((t): t is string => typeof t === 'string' && t.length <= 40)
      .slice(0, 10);
  }
  if (isScrollPlace(value.scrollY)) saved.scrollY = value.scrollY;
  return saved;
}

/** A guard for the page: whether a message from the extension has the expected shape. */
export function isInsightsHostMessage(value: unknown): value is InsightsHostMessage {
  if (!isRecord(value)) return false;
  if (value.type === 'init') return isRecord(value.strings) && typeof value.locale === 'string';
  if (value.type === 'copied') return typeof value.text === 'string';
  if (value.type === 'state')
    return (
      typeof value.seq === 'number' &&
      isRecord(value.state) &&
      isPhase(value.state.phase) &&
      isProject(value.state.project)
    );
  return false;
}
