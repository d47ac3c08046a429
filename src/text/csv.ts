/**
 * Reports as CSV (Export List as CSV…), RFC 4180 with a header row. Numbers are written bare so
 * spreadsheets read them as numbers; a text cell starting with `=`, `+`, `-`, `@`, a tab or CR
 * gets a `'` in front, so no spreadsheet runs server text as a formula. So does such a character
 * after a `;`, a tab or a line break inside the text: a `;` or tab reader splits the cell there; characters that would
 * hide or disguise text become U+FFFD. The caller writes UTF-8 with {@link CSV_BOM}, which
 * spreadsheets need. Imports no `vscode`.
 */
import type { Report } from '../api/types';
import { epochOf } from './dates';
import { visibleText } from './text';

/** The columns, in order. */
export const CSV_COLUMNS = [
  'id',
  'url',
  'project',
  'result',
  'score',
  'privacy',
  'generated_at',
  'created_at',
] as const;

export type CsvCell = string | number | undefined;

/** The byte-order mark a CSV file starts with: Excel reads a file without it in the system's legacy code page. */
export const CSV_BOM = '\ufeff';

const FORMULA_START = /^[=+\-@\t\r]/;
// A reader splitting on `;` or tab starts a new field after those (and a line starts a record);
// `"` may open a quoted field there, so the guard goes after them.
const FORMULA_AFTER_SEPARATOR = /([;\t\r\n]"*)(?=[=+\-@\t\r])/g;
const NEEDS_QUOTES = /[",\r\n]/;

/** One cell: bare numbers, guarded and quoted text, empty for a missing value. */
export function csvCell(value: CsvCell): string {
  if (value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const shown = visibleText(value);
  const inside = shown.replace(FORMULA_AFTER_SEPARATOR, "$1'");
  const guarded = FORMULA_START.test(inside) ? `'${inside}` : inside;
  return NEEDS_QUOTES.test(guarded) ? `"${guarded.replace(/"/g, '""')}"` : guarded;
}

/** One record, without its line break. */
export function csvRecord(cells: readonly CsvCell[]): string {
  return cells.map(csvCell).join(',');
}

function iso(date: Date | undefined): string | undefined {
  const ms = epochOf(date);
  return ms === undefined ? undefined : new Date(ms).toISOString();
}

/** The cells of one report, in {@link CSV_COLUMNS} order (dates as ISO 8601 in UTC). */
export function reportCells(report: Report): CsvCell[] {
  return [
    report.id,
    report.url,
    report.project,
    report.result,
    report.score,
    report.privacy,
    iso(report.generatedAt),
    iso(report.createdAt),
  ];
}

/** The whole file: the header row, then one record per report, each ending in CRLF. */
export function reportsCsv(reports: Iterable<Report>): string {
  const lines = [csvRecord(CSV_COLUMNS)];
  for (const report of reports) lines.push(csvRecord(reportCells(report)));
  return `${lines.join('\r\n')}\r\n`;
}

/**
 * A file name made safe for every file system: no path separators, reserved or control
 * characters, no bidi, zero-width or byte-order marks (they make `…\u202Efdp.exe.json` read
 * as `…nosj.exe.pdf`), no leading dots, at most 100 characters; `fallback` when nothing is left.
 */
export function safeFileName(name: string, fallback: string): string {
  const cleaned = name
    // eslint-disable-next-line no-control-regex -- control characters are not allowed in file names
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff<>:"/\\|?*]+/g, '-')
    .replace(/\s+/g, ' ')
    .replace(/^[.\s-]+|[.\s-]+$/g, '')
    .slice(0, 100)
    .replace(/[.\s-]+$/g, '');
  // Windows reserves these names whatever the extension.
  if (cleaned === '' || /^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i.test(cleaned)) return fallback;
  return cleaned;
}
