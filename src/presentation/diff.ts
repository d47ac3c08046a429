/**
 * What changed between two analyses of one report, for the panel and a bulk Re-analyze's
 * summary. Names and values pass through as sent (callers show them as text); whatever shape
 * either side has, it never throws. Imports no `vscode`.
 */
import type { Check, Importance, ReportResult } from '../api/types';
import { safeLocale } from '../text/dates';
import { checkLabel, checkStatus } from './format';
import type { CheckStatus } from '../protocols/panelProtocol';

/** The parts of a report a diff reads (a `Report` or the panel's `ReportData`). */
export interface AnalysisLike {
  readonly result: ReportResult | undefined;
  readonly score: number | undefined;
  readonly checks: readonly Check[];
}

/** Where a check was on one side: its status, or `absent` when that analysis did not have it. */
export type CheckPresence = CheckStatus | 'absent';

export interface CheckChange {
  /** The check's key as the server sent it. */
  readonly name: string;
  /** Readable name (the panel's dictionary, else the key humanized). */
  readonly label: string;
  /** The importance now, else the one it had before (a check that disappeared). */
  readonly importance: Importance | undefined;
  readonly before: CheckPresence;
  readonly after: CheckPresence;
}

/** Score went up, down, or stayed (or one side has no score). */
export type Trend = 'improved' | 'worse' | 'unchanged';

export interface ReportDiff {
  readonly score: {
    readonly before: number | undefined;
    readonly after: number | undefined;
    /** after − before, rounded to one decimal (the precision the panel shows); undefined when a side has none. */
    readonly delta: number | undefined;
  };
  readonly result: {
    readonly before: ReportResult | undefined;
    readonly after: ReportResult | undefined;
    readonly changed: boolean;
  };
  /** Failed before, passed now. */
  readonly fixed: CheckChange[];
  /** Failing now and not before (passed, undetermined, or not there at all). */
  readonly newlyFailing: CheckChange[];
  /** Checks the new analysis has that the previous one had not (failing ones are also in `newlyFailing`). */
  readonly appeared: CheckChange[];
  /** Checks the previous analysis had and the new one has not. */
  readonly disappeared: CheckChange[];
  /**
   * Checks present on both sides whose outcome moved to or from undetermined: failed or passed
   * before and not determined now, or not determined before and passed now (to failed is
   * newly failing).
   */
  readonly otherChanges: CheckChange[];
  /** Checks present on both sides with the same status. */
  readonly unchanged: number;
  readonly trend: Trend;
}

const IMPORTANCE_ORDER: Record<Importance, number> = { high: 0, medium: 1, low: 2 };

function byImportanceThenLabel(a: CheckChange, b: CheckChange): number {
  const rank = (c: CheckChange): number => (c.importance === undefined ? 3 : IMPORTANCE_ORDER[c.importance]);
  return rank(a) - rank(b) || a.label.localeCompare(b.label) || a.name.localeCompare(b.name);
}

/** Checks by name; a name the server sent twice counts once, as its last entry. */
function byName(checks: readonly Check[] | undefined): Map<string, Check> {
  const map = new Map<string, Check>();
  for (const check of Array.isArray(checks) ? checks : []) {
    if (check && typeof check.name === 'string') map.set(check.name, check);
  }
  return map;
}

function finite(value: number | undefined): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** One decimal, as the panel shows scores; kills float noise such as 0.30000000000000004. */
function roundDelta(value: number): number {
  const rounded = Math.round(value * 10) / 10;
  return Object.is(rounded, -0) ? 0 : rounded;
}

/** The changes from `before` to `after`. */
export function diffAnalyses(before: AnalysisLike, after: AnalysisLike): ReportDiff {
  const old = byName(before.checks);
  const now = byName(after.checks);
  const fixed: CheckChange[] = [];
  const newlyFailing: CheckChange[] = [];
  const appeared: CheckChange[] = [];
  const disappeared: CheckChange[] = [];
  const otherChanges: CheckChange[] = [];
  let unchanged = 0;

  for (const [name, check] of now) {
    const previous = old.get(name);
    const change: CheckChange = {
      name,
      label: checkLabel(name).label,
      importance: check.importance ?? previous?.importance,
      before: previous ? checkStatus(previous) : 'absent',
      after: checkStatus(check),
    };
    if (change.before === 'absent') appeared.push(change);
    else if (change.before === change.after) unchanged += 1;
    if (change.before === 'failed' && change.after === 'passed') fixed.push(change);
    else if (change.after === 'failed' && change.before !== 'failed') newlyFailing.push(change);
    else if (change.before !== 'absent' && change.before !== change.after) otherChanges.push(change);
  }
  for (const [name, check] of old) {
    if (now.has(name)) continue;
    disappeared.push({
      name,
      label: checkLabel(name).label,
      importance: check.importance,
      before: checkStatus(check),
      after: 'absent',
    });
  }

  const scoreBefore = finite(before.score);
  const scoreAfter = finite(after.score);
  const delta =
    scoreBefore === undefined || scoreAfter === undefined ? undefined : roundDelta(scoreAfter - scoreBefore);
  return {
    score: { before: scoreBefore, after: scoreAfter, delta },
    result: { before: before.result, after: after.result, changed: before.result !== after.result },
    fixed: fixed.sort(byImportanceThenLabel),
    newlyFailing: newlyFailing.sort(byImportanceThenLabel),
    appeared: appeared.sort(byImportanceThenLabel),
    disappeared: disappeared.sort(byImportanceThenLabel),
    otherChanges: otherChanges.sort(byImportanceThenLabel),
    unchanged,
    trend: delta === undefined || delta === 0 ? 'unchanged' : delta > 0 ? 'improved' : 'worse',
  };
}

/**
 * Whether `diff` (of some analysis and `after`) found nothing at all: the same score (as shown,
 * to one decimal) and result, the same checks with the same outcomes.
 */
export function nothingChanged(diff: ReportDiff, after: AnalysisLike): boolean {
  const sameScore = diff.score.delta === 0 || (diff.score.before === undefined && diff.score.after === undefined);
  return (
    sameScore &&
    !diff.result.changed &&
    diff.appeared.length + diff.disappeared.length === 0 &&
    diff.unchanged === byName(after.checks).size
  );
}

/** U+2212, the minus sign (a hyphen reads as a dash next to a number). */
export const MINUS = '\u2212';

/** A score change as the panel writes it: `+4.5`, `−3` (U+2212), `±0`. */
export function formatScoreDelta(delta: number | undefined, locale = 'en'): string | undefined {
  if (delta === undefined || !Number.isFinite(delta)) return undefined;
  const rounded = roundDelta(delta);
  if (rounded === 0) return '±0';
  const text = new Intl.NumberFormat(safeLocale(locale), { maximumFractionDigits: 1 }).format(Math.abs(rounded));
  return rounded > 0 ? `+${text}` : `${MINUS}${text}`;
}

/** How many re-analyzed reports went up, down or stayed (the bulk Re-analyze summary). */
export function countTrends(diffs: readonly ReportDiff[]): Record<Trend, number> {
  const counts: Record<Trend, number> = { improved: 0, worse: 0, unchanged: 0 };
  for (const diff of diffs) counts[diff.trend] += 1;
  return counts;
}
