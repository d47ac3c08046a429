/**
 * Absolute and relative date texts for the report panel. Used by `format.ts` (extension
 * host) and by the page script, which refreshes relative times while the panel stays open.
 * Imports neither `vscode` nor the DOM. A missing or unreadable date gives "—" / "unknown",
 * never "Invalid Date" or "NaN".
 */

export const MISSING_DATE = '—';
export const UNKNOWN_RELATIVE = 'unknown';

/** A locale Intl accepts: the given one when valid, else `en`. */
export function safeLocale(locale: string | undefined): string {
  if (!locale) return 'en';
  try {
    return Intl.getCanonicalLocales(locale)[0] ?? 'en';
  } catch {
    return 'en';
  }
}

/** Epoch ms of a date, or undefined when it is missing or invalid. */
export function epochOf(date: Date | number | null | undefined): number | undefined {
  if (date === null || date === undefined) return undefined;
  const ms = typeof date === 'number' ? date : date.getTime();
  return Number.isFinite(ms) ? ms : undefined;
}

/** "Nov 20, 2026, 10:15 AM" in the locale (and the time zone of whoever runs it). */
export function formatAbsolute(
  date: Date | number | null | undefined,
  locale: string,
  options: { timeZone?: string; missing?: string } = {},
): string {
  const ms = epochOf(date);
  if (ms === undefined) return options.missing ?? MISSING_DATE;
  const { timeZone } = options;
  try {
    return new Intl.DateTimeFormat(safeLocale(locale), { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(
      ms,
    );
  } catch {
    // An unknown time zone: ISO in UTC still says exactly when.
    return new Date(ms).toISOString();
  }
}

const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600 * 1000],
  ['month', 30 * 24 * 3600 * 1000],
  ['week', 7 * 24 * 3600 * 1000],
  ['day', 24 * 3600 * 1000],
  ['hour', 3600 * 1000],
  ['minute', 60 * 1000],
  ['second', 1000],
];

/**
 * "3 hours ago", "yesterday", "in 2 minutes" (a server clock ahead of ours), "now".
 * The largest unit that fits at least once is used, rounded down toward the present.
 */
export function formatRelative(
  date: Date | number | null | undefined,
  now: number,
  locale: string,
  missing: string = UNKNOWN_RELATIVE,
): string {
  const ms = epochOf(date);
  if (ms === undefined || !Number.isFinite(now)) return missing;
  const diff = ms - now;
  const format = new Intl.RelativeTimeFormat(safeLocale(locale), { numeric: 'auto' });
  const abs = Math.abs(diff);
  for (const [unit, size] of UNITS) {
    if (abs >= size) return format.format(Math.trunc(diff / size), unit);
  }
  return format.format(0, 'second');
}
