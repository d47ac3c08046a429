/**
 * The benchmark's one table: a row per figure with its median, spread, sample count, budget
 * and verdict, printed as text and written as JSON into .bench/ (git-ignored).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { summarize, type Summary } from './stats';

export type Unit = 'bytes' | 'ms' | 'ratio' | 'count' | 'MB';

/**
 * A budget: `max` (the figure's median must not exceed it) or `equals` (a count that must be
 * exact, e.g. requests per page count).
 */
export type Budget = { kind: 'max'; value: number; text: string } | { kind: 'equals'; value: number; text: string };

/** `pass` within budget, `OVER` over it (a bug), `info` no budget, `ERROR` not measured. */
export type Verdict = 'pass' | 'OVER' | 'info' | 'ERROR';

export interface Row {
  /** Stable key for tools reading the JSON, e.g. `size.bundle`. */
  id: string;
  /** What the table shows in its first column. */
  label: string;
  unit: Unit;
  /** Undefined when the figure could not be measured (see `note`). */
  summary: Summary | undefined;
  /** How the spread column reads: min–max (default) or the interquartile range. */
  spread: 'range' | 'iqr' | 'none';
  budget: Budget | undefined;
  verdict: Verdict;
  /** A short remark printed under the table (why it failed, what it is made of). */
  note?: string;
  samples: number[];
}

/** A measured row; the verdict follows from the budget. */
export function measured(
  id: string,
  label: string,
  unit: Unit,
  samples: number[],
  options: {
    budget?: Budget;
    spread?: Row['spread'];
    note?: string;
    /** The figure when it is not the samples' median (a ratio of medians); the samples then give only its spread. */
    figure?: number;
  } = {},
): Row {
  const summary = summarize(samples);
  if (options.figure !== undefined) summary.median = options.figure;
  const budget = options.budget;
  let verdict: Verdict = 'info';
  if (budget?.kind === 'max') verdict = summary.median <= budget.value ? 'pass' : 'OVER';
  else if (budget?.kind === 'equals')
    verdict = summary.min === budget.value && summary.max === budget.value ? 'pass' : 'OVER';
  return { id, label, unit, summary, spread: options.spread ?? 'range', budget, verdict, note: options.note, samples };
}

/** A row whose measurement failed: shown as ERROR with the reason. */
export function failed(id: string, label: string, unit: Unit, reason: string, budget?: Budget): Row {
  return { id, label, unit, summary: undefined, spread: 'none', budget, verdict: 'ERROR', note: reason, samples: [] };
}

const groupDigits = (n: number): string => Math.round(n).toLocaleString('en-US');

/** A value in the row's unit, for the table. */
export function formatValue(value: number, unit: Unit): string {
  switch (unit) {
    case 'bytes':
      return `${groupDigits(value)} B`;
    case 'ms':
      return value >= 100
        ? `${value.toFixed(0)} ms`
        : value >= 10
          ? `${value.toFixed(1)} ms`
          : `${value.toFixed(2)} ms`;
    case 'ratio':
      return value.toFixed(3);
    case 'count':
      return groupDigits(value);
    case 'MB':
      return `${value.toFixed(1)} MB`;
  }
}

function spreadText(row: Row): string {
  const s = row.summary;
  if (!s || row.spread === 'none' || s.n < 2) return '—';
  const [a, b] = row.spread === 'iqr' ? [s.q1, s.q3] : [s.min, s.max];
  const text = `${formatValue(a, row.unit)}–${formatValue(b, row.unit)}`;
  return row.spread === 'iqr' ? `IQR ${text}` : text;
}

/** The table as aligned text lines, notes (numbered) below it. */
export function renderTable(rows: readonly Row[]): string {
  const header = ['Row', 'Median', 'Spread', 'n', 'Budget', 'Verdict'];
  const notes: string[] = [];
  const cells = rows.map((row) => {
    let verdict: string = row.verdict;
    if (row.note) {
      notes.push(row.note);
      verdict += ` [${notes.length}]`;
    }
    return [
      row.label,
      row.summary ? formatValue(row.summary.median, row.unit) : '—',
      spreadText(row),
      row.summary ? String(row.summary.n) : '0',
      row.budget?.text ?? '—',
      verdict,
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  // Numbers right-aligned, words left-aligned.
  const right = [false, true, true, true, false, false];
  const line = (c: string[]): string =>
    c
      .map((text, i) => (right[i] ? text.padStart(widths[i]) : text.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  const out = [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)];
  if (notes.length > 0) out.push('', ...notes.map((n, i) => `[${i + 1}] ${n}`));
  return out.join('\n');
}

/** What the JSON file holds besides the rows. */
export interface RunInfo {
  startedAt: string;
  durationMs: number;
  commit: string | undefined;
  dirty: boolean | undefined;
  node: string;
  cpus: number;
  cpuModel: string | undefined;
  memoryGB: number;
  /** 1-minute load average at the start and at the end: other work on the machine skews times. */
  loadAverage: { start: number; end: number };
  sections: string[];
}

/** The order rows are printed in: the order of figures, whichever section measured them. */
const ROW_ORDER = ['size.', 'activation.', 'client.', 'lists.', 'panel.'];

/** Rows in the table's order (stable within a group). */
export function ordered(rows: readonly Row[]): Row[] {
  const rank = (row: Row): number => {
    const at = ROW_ORDER.findIndex((prefix) => row.id.startsWith(prefix));
    return at === -1 ? ROW_ORDER.length : at;
  };
  return [...rows].sort((a, b) => rank(a) - rank(b));
}

/** Machine facts for the JSON file. */
export function machineInfo(): Pick<RunInfo, 'node' | 'cpus' | 'cpuModel' | 'memoryGB'> {
  const cpus = os.cpus();
  return {
    node: process.version,
    cpus: cpus.length,
    cpuModel: cpus[0]?.model,
    memoryGB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
  };
}

/**
 * Writes the run as JSON to `dir/bench-<time>.json` and `dir/latest.json`; returns the
 * first file's path.
 */
export function writeResults(
  dir: string,
  info: RunInfo,
  rows: readonly Row[],
  details: Record<string, unknown>,
): string {
  fs.mkdirSync(dir, { recursive: true });
  const body = JSON.stringify({ ...info, rows, details }, null, 2) + '\n';
  const file = path.join(dir, `bench-${info.startedAt.replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, body);
  fs.writeFileSync(path.join(dir, 'latest.json'), body);
  return file;
}
