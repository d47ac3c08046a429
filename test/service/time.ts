/**
 * Timestamps as Laravel writes them: ISO 8601 in UTC with six fraction digits
 * (`2026-11-20T10:15:30.000000Z`). Internally a timestamp is a count of microseconds since
 * the epoch, which keeps ordering exact and lets every write get a strictly newer stamp.
 */

const ISO_PATTERN = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?Z$/;

let lastMicros = 0;

/**
 * Microseconds since the epoch, strictly greater than any value this function returned
 * before, so that `update=1` always yields a new `generated_at` even within one millisecond.
 */
export function nowMicros(): number {
  const micros = Math.max(Date.now() * 1000, lastMicros + 1);
  lastMicros = micros;
  return micros;
}

/** Formats microseconds since the epoch the way Laravel serializes dates. */
export function formatIso(micros: number): string {
  const ms = Math.floor(micros / 1000);
  const extra = Math.floor(micros - ms * 1000);
  const iso = new Date(ms).toISOString(); // 2026-11-20T10:15:30.123Z
  return `${iso.slice(0, 23)}${String(extra).padStart(3, '0')}Z`;
}

/** The current time as a Laravel timestamp string. */
export function nowIso(): string {
  return formatIso(nowMicros());
}

/**
 * Microseconds since the epoch of a timestamp value, or NaN when it is not a timestamp
 * (raw reports inserted through the admin API may hold anything).
 */
export function parseTimestamp(value: unknown): number {
  if (typeof value !== 'string') return NaN;
  const match = ISO_PATTERN.exec(value);
  if (match) {
    const ms = Date.parse(`${match[1]}T${match[2]}Z`);
    const fraction = (match[3] ?? '').padEnd(6, '0').slice(0, 6);
    return ms * 1000 + Number(fraction);
  }
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? NaN : ms * 1000;
}

/**
 * `YYYY-MM-DD HH:MM:SS` (the SQL form some deployments answer with, contract §5) of a
 * canonical timestamp; any other value is passed through unchanged.
 */
export function toSqlDate(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const match = ISO_PATTERN.exec(value);
  return match ? `${match[1]} ${match[2]}` : value;
}
