/**
 * The one way dates are said, absolute and relative, in the display language, so the tree and both
 * sides of the panel agree. A missing or unreadable date gives `undefined`, never "Invalid Date".
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Gregorian averages, so twelve months make a year and a year has no drift. */
const MONTH = 30.436875 * DAY;
const YEAR = 365.2425 * DAY;

/** Largest unit first: the largest that fits at least once is used. */
const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', YEAR],
  ['month', MONTH],
  ['day', DAY],
  ['hour', HOUR],
  ['minute', MINUTE],
  ['second', SECOND],
];

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

// Formatters are cached per locale (and time zone): building one costs far more than using
// it, and a long list formats thousands of items.
const relativeFormats = new Map<string, Intl.RelativeTimeFormat>();
const absoluteFormats = new Map<string, Intl.DateTimeFormat>();

function relativeFormat(locale: string): Intl.RelativeTimeFormat {
  let format = relativeFormats.get(locale);
  if (!format) {
    format = new Intl.RelativeTimeFormat(safeLocale(locale), { numeric: 'auto' });
    relativeFormats.set(locale, format);
  }
  return format;
}

/** "3 hours ago", "yesterday", "in 2 minutes" (a server clock ahead of ours), "now", in `locale`. */
export function formatRelative(
  date: Date | number | null | undefined,
  now: Date | number,
  locale: string,
): string | undefined {
  const ms = epochOf(date);
  const nowMs = epochOf(now);
  if (ms === undefined || nowMs === undefined) return undefined;
  const diff = ms - nowMs;
  const abs = Math.abs(diff);
  const format = relativeFormat(locale);
  for (const [unit, size] of UNITS) {
    // `|| 0` turns -0 into 0: "now", not "0 seconds ago".
    if (abs >= size) return format.format(Math.trunc(diff / size) || 0, unit);
  }
  return format.format(0, 'second');
}

/** "Nov 20, 2026, 10:15 AM" in `locale` and the time zone of whoever runs it (or `timeZone`). */
export function formatAbsolute(
  date: Date | number | null | undefined,
  locale: string,
  options: { timeZone?: string } = {},
): string | undefined {
  const ms = epochOf(date);
  if (ms === undefined) return undefined;
  const { timeZone } = options;
  const key = `${locale}\u0000${timeZone ?? ''}`;
  let format = absoluteFormats.get(key);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat(safeLocale(locale), { dateStyle: 'medium', timeStyle: 'short', timeZone });
    } catch {
      // An unknown time zone: ISO in UTC still says exactly when.
      return new Date(ms).toISOString();
    }
    absoluteFormats.set(key, format);
  }
  return format.format(ms);
}
