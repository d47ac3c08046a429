/**
 * Insights: what a project's reports add up to, for the insights page and its Markdown
 * summary. Server strings pass through unchanged (the page shows them as text); only the
 * Markdown summary escapes them. Imports no `vscode`.
 */
import type { Importance, Report } from '../api/types';
import { epochOf, safeLocale } from '../text/dates';
import { checkLabel, pageName } from './format';
import { escapeMarkdown, fill, singleLine } from '../text/text';
import type {
  ReportRef,
  ResultCounts,
  ScoreStats,
  WeekMedian,
  TimePoint,
  FailingCheck,
  InsightsModel,
  InsightsWords,
} from '../protocols/insightsProtocol';

export type {
  ReportRef,
  ResultCounts,
  ScoreStats,
  WeekMedian,
  TimePoint,
  FailingCheck,
  InsightsModel,
  InsightsWords,
};

/** Ten-point score buckets: 0–9.99, 10–19.99, …, 90–100 (100 falls in the last). */
export const SCORE_BUCKETS = 10;
/** How many lowest-scoring pages the panel lists. */
export const LOWEST_COUNT = 10;
/** How many failing checks the Markdown summary lists. */
export const SUMMARY_CHECKS = 10;

const DAY_MS = 86_400_000;

const IMPORTANCE_RANK: Record<Importance, number> = { high: 0, medium: 1, low: 2 };

/** The higher of two importances; null (or undefined: none sent) gives way to any. */
function higherImportance(a: Importance | null, b: Importance | null | undefined): Importance | null {
  if (b === null || b === undefined) return a;
  return a === null || IMPORTANCE_RANK[b] < IMPORTANCE_RANK[a] ? b : a;
}

/** The median of numbers already sorted ascending; null for none. */
function sortedMedian(sorted: readonly number[]): number | null {
  const n = sorted.length;
  if (n === 0) return null;
  const mid = Math.floor(n / 2);
  return n % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The median of `values` (any order); null for none. */
export function median(values: readonly number[]): number | null {
  return sortedMedian([...values].sort((a, b) => a - b));
}

/** The bucket of a score: 0–9.99 → 0, 10 → 1, …, 90–100 → 9; out-of-range scores clamp. */
export function scoreBucket(score: number): number {
  return Math.min(SCORE_BUCKETS - 1, Math.max(0, Math.floor(score / 10)));
}

/**
 * The weekly medians as the chart's line: a point per week with reports, and a gap (y null)
 * after a week whose next one is not the week after, so the line suggests no value across
 * weeks without reports.
 */
export function medianLine(weekly: readonly WeekMedian[]): { x: number; y: number | null }[] {
  const line: { x: number; y: number | null }[] = [];
  weekly.forEach((week, i) => {
    const before = weekly[i - 1];
    if (before !== undefined && week.weekStart - before.weekStart > 7 * DAY_MS) {
      line.push({ x: before.weekStart + 7 * DAY_MS, y: null });
    }
    line.push({ x: week.at, y: week.median });
  });
  return line;
}

/** Epoch ms of the Monday 00:00 UTC that starts the ISO week holding `epochMs`. */
export function isoWeekStart(epochMs: number): number {
  const day = Math.floor(epochMs / DAY_MS) * DAY_MS;
  // 1970-01-01 was a Thursday: (getUTCDay() + 6) % 7 is the days since Monday.
  const sinceMonday = (new Date(day).getUTCDay() + 6) % 7;
  return day - sinceMonday * DAY_MS;
}

function finiteScore(score: number | undefined): number | null {
  return score !== undefined && Number.isFinite(score) ? score : null;
}

/** The page's reference to a report. */
export function toReportRef(report: Report): ReportRef {
  return {
    id: report.id,
    title: pageName(report.url, report.id),
    url: report.url,
    result: report.result ?? null,
    score: finiteScore(report.score),
    generatedAt: epochOf(report.generatedAt) ?? null,
  };
}

interface CheckTally {
  name: string;
  importance: Importance | null;
  failed: number;
  ran: number;
  reports: number[];
}

/**
 * Aggregates `reports` (newest first, as loaded) for `project` (null: all projects). A check
 * counts once per report even when a report lists it twice.
 */
export function aggregate(reports: readonly Report[], project: string | null): InsightsModel {
  const refs = reports.map(toReportRef);
  const results: ResultCounts = { good: 0, decent: 0, bad: 0, other: 0 };
  const buckets = new Array<number>(SCORE_BUCKETS).fill(0);
  const scores: number[] = [];
  const points: TimePoint[] = [];
  const byWeek = new Map<number, { scores: number[]; times: number[] }>();
  let undated = 0;
  const tallies = new Map<string, CheckTally>();

  for (let index = 0; index < reports.length; index++) {
    const report = reports[index];
    const ref = refs[index];
    if (ref.result === null) results.other += 1;
    else results[ref.result] += 1;

    if (ref.score !== null) {
      scores.push(ref.score);
      buckets[scoreBucket(ref.score)] += 1;
      if (ref.generatedAt === null) undated += 1;
      else {
        points.push({ x: ref.generatedAt, y: ref.score, report: index });
        const week = isoWeekStart(ref.generatedAt);
        const list = byWeek.get(week) ?? { scores: [], times: [] };
        list.scores.push(ref.score);
        list.times.push(ref.generatedAt);
        byWeek.set(week, list);
      }
    }

    // Per report: which checks ran, which failed (and with what importance).
    const ran = new Map<string, { failed: boolean; importance: Importance | null }>();
    for (const check of report.checks) {
      const seen = ran.get(check.name) ?? { failed: false, importance: null };
      if (check.passed === false) {
        seen.failed = true;
        seen.importance = higherImportance(seen.importance, check.importance);
      }
      ran.set(check.name, seen);
    }
    for (const [name, seen] of ran) {
      let tally = tallies.get(name);
      if (!tally) {
        tally = { name, importance: null, failed: 0, ran: 0, reports: [] };
        tallies.set(name, tally);
      }
      tally.ran += 1;
      if (!seen.failed) continue;
      tally.failed += 1;
      tally.reports.push(index);
      tally.importance = higherImportance(tally.importance, seen.importance);
    }
  }

  const sorted = [...scores].sort((a, b) => a - b);
  const weekly: WeekMedian[] = [...byWeek.entries()]
    .sort(([a], [b]) => a - b)
    .map(([weekStart, list]) => ({
      weekStart,
      median: median(list.scores)!,
      count: list.scores.length,
      at: median(list.times)!,
    }));

  const checks: FailingCheck[] = [...tallies.values()]
    .filter((t) => t.failed > 0)
    .map((t) => ({
      name: t.name,
      // Shown on the page, in its charts and their text: no bidi or control characters.
      label: singleLine(checkLabel(t.name).label),
      importance: t.importance,
      failed: t.failed,
      ran: t.ran,
      share: t.failed / t.ran,
      reports: t.reports,
    }))
    .sort((a, b) => b.failed - a.failed || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

  // A page analysed again has several reports: the one analysed last stands for it, so a page fixed
  // since is not listed for its old score. Re-analyze keeps a report's id and renews its generated
  // date, so that is the latest date; without dates, the first (reports come newest first).
  const newestOfPage = new Map<string, number>();
  refs.forEach((ref, index) => {
    const kept = newestOfPage.get(ref.url);
    const keptAt = kept === undefined ? undefined : refs[kept].generatedAt;
    if (keptAt === undefined || (ref.generatedAt !== null && (keptAt === null || ref.generatedAt > keptAt))) {
      newestOfPage.set(ref.url, index);
    }
  });
  const lowest = [...newestOfPage.values()]
    .map((index) => ({ score: refs[index]?.score ?? null, index }))
    .filter((r): r is { score: number; index: number } => r.score !== null)
    // Stable sort: equal scores keep the newest first.
    .sort((a, b) => a.score - b.score)
    .slice(0, LOWEST_COUNT)
    .map((r) => r.index);

  return {
    project,
    total: reports.length,
    results,
    scores: {
      scored: scores.length,
      unscored: reports.length - scores.length,
      mean: scores.length === 0 ? null : scores.reduce((sum, s) => sum + s, 0) / scores.length,
      median: sortedMedian(sorted),
      buckets,
    },
    overTime: { points, weekly, undated },
    checks,
    lowest,
    reports: refs,
  };
}

/** The label of bucket `i`: "0–9.99", …, "90–100". */
export function bucketLabel(i: number, locale: string): string {
  const number = new Intl.NumberFormat(safeLocale(locale), { maximumFractionDigits: 2 });
  const high = i === SCORE_BUCKETS - 1 ? 100 : i * 10 + 9.99;
  return `${number.format(i * 10)}–${number.format(high)}`;
}

/** The words of the Markdown summary; the host passes localized ones (English by default). */
export interface SummaryWords extends InsightsWords {
  /** `{0}`: the project, or `allProjects`. */
  title: string;
  /** `{0}`: the time. */
  asOf: string;
  mean: string;
  median: string;
  histogram: string;
  bucket: string;
  count: string;
  check: string;
  importance: string;
  failedIn: string;
  share: string;
}

/** `1 report` or `N reports` (N formatted). */
export function reportCount(n: number, words: Pick<SummaryWords, 'reportsOne' | 'reportsMany'>, locale = 'en'): string {
  return n === 1 ? words.reportsOne : fill(words.reportsMany, formatCount(n, locale));
}

/** A count with the locale's grouping ("1,240"). */
export function formatCount(n: number, locale = 'en'): string {
  return new Intl.NumberFormat(safeNumberLocale(locale)).format(n);
}

/** A score or a mean, at most one decimal ("72.5", "70"). */
export function formatScoreNumber(value: number | null, locale = 'en', missing = '—'): string {
  if (value === null || !Number.isFinite(value)) return missing;
  return new Intl.NumberFormat(safeNumberLocale(locale), { maximumFractionDigits: 1 }).format(value);
}

/**
 * A share 0–1 as a percentage ("42%"): "<1%" and ">99%" at the ends, so a check that failed
 * in 1 of 20,000 reports never reads 0%, nor one that passed in 1 of 200 reads 100%.
 */
export function formatShare(share: number, locale = 'en'): string {
  const percent = new Intl.NumberFormat(safeNumberLocale(locale), { style: 'percent', maximumFractionDigits: 0 });
  const value = Number.isFinite(share) ? share : 0;
  if (value > 0 && value < 0.005) return `<${percent.format(0.01)}`;
  if (value < 1 && value >= 0.995) return `>${percent.format(0.99)}`;
  return percent.format(value);
}

function safeNumberLocale(locale: string): string {
  try {
    return Intl.NumberFormat.supportedLocalesOf([locale]).length > 0 ? locale : 'en';
  } catch {
    return 'en';
  }
}

/** Server text (a project or check name) for Markdown: escaped so it renders as exactly that text. */
const md = escapeMarkdown;

/**
 * The Markdown summary for an issue or pull request: the result counts, the score numbers
 * and buckets, and the ten checks that fail most; `notes` say what the numbers cover when
 * not every report (the cap, a load cut short). Server strings (the project, check names)
 * are escaped so they render as exactly their text; the rest is the extension's own words.
 */
export function summaryMarkdown(
  model: InsightsModel,
  asOf: string,
  words: SummaryWords,
  locale = 'en',
  notes: readonly string[] = [],
): string {
  const n = (value: number): string => formatCount(value, locale);
  const { results, scores } = model;
  const lines: string[] = [];
  lines.push(`## ${fill(words.title, model.project === null ? words.allProjects : md(model.project))}`, '');
  lines.push(`_${fill(words.asOf, asOf)}_`, '');
  // What the numbers cover, when not every report: the cap, a load cut short (the extension's own words).
  for (const note of notes) lines.push(`_${note}_`, '');
  lines.push(`### ${words.results}`, '');
  const counts = [
    `${words.good} ${n(results.good)}`,
    `${words.decent} ${n(results.decent)}`,
    `${words.bad} ${n(results.bad)}`,
  ];
  if (results.other > 0) counts.push(`${words.other} ${n(results.other)}`);
  lines.push(`${[...counts, reportCount(model.total, words, locale)].join(' · ')}`, '');
  lines.push(`### ${words.scores}`, '');
  lines.push(
    `- ${words.mean}: ${formatScoreNumber(scores.mean, locale, words.noScore)}`,
    `- ${words.median}: ${formatScoreNumber(scores.median, locale, words.noScore)}`,
    `- ${fill(words.unscored, n(scores.unscored))}`,
    '',
  );
  lines.push(`| ${words.bucket} | ${words.count} |`, '| --- | ---: |');
  scores.buckets.forEach((count, i) => lines.push(`| ${bucketLabel(i, locale)} | ${n(count)} |`));
  lines.push('', `### ${words.checks}`, '');
  if (model.checks.length === 0) lines.push(words.noFailures);
  else {
    lines.push(
      `| ${words.check} | ${words.importance} | ${words.failedIn} | ${words.share} |`,
      '| --- | --- | ---: | ---: |',
    );
    for (const check of model.checks.slice(0, SUMMARY_CHECKS)) {
      const importance = check.importance === null ? words.noImportance : words[check.importance];
      lines.push(
        `| ${md(check.label)} | ${importance} | ${n(check.failed)} / ${n(check.ran)} | ${formatShare(check.share, locale)} |`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}
