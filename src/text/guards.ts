/**
 * Type guards for values from outside (command arguments, stored state, the webview, the
 * service): one home for each check. No `vscode`.
 */
import type { ReportId } from '../api/types';

/** A plain object (not null, not an array): its fields may be read, each still `unknown`. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether `value` is a plain options object (not a tree node, report, array or id). */
export function isOptions(value: unknown): value is Record<string, unknown> {
  return isRecord(value) && !('kind' in value) && !('id' in value);
}

/**
 * A report id from outside (a command argument, the page, a link, a panel's saved state): a
 * whole number below 2^53 (beyond, it names another report: see parseReport), or text that is
 * not blank and at most 200 characters (ids are opaque; the service may send text).
 */
export function isReportId(value: unknown): value is ReportId {
  return (
    (typeof value === 'number' && Number.isSafeInteger(value)) ||
    (typeof value === 'string' && value.trim() !== '' && value.length <= 200)
  );
}

/** Whether `value` is one of the strings of `list` (a setting, a message field, stored state). */
export function isOneOf<T extends string>(list: readonly T[], value: unknown): value is T {
  return typeof value === 'string' && (list as readonly string[]).includes(value);
}

/** A scroll offset kept in a page's state: a finite number of pixels down the page. */
export function isScrollPlace(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0;
}

/**
 * `value` without any `password` field, at any depth. The service never sends a report's password
 * (contract), but one that echoed it, even inside an analysis, would have it shown in the raw view,
 * written by Export Report as JSON and kept in workspace state.
 */
export function withoutPasswords(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      const kept = withoutPasswords(item);
      if (kept !== item) (copy ??= value.slice())[index] = kept;
    }
    return copy ?? value;
  }
  const record = value as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const key in record) {
    if (!Object.hasOwn(record, key)) continue;
    // A `password: undefined` (never from JSON) holds nothing: no copy for it.
    if (key === 'password' && record[key] !== undefined) {
      copy ??= { ...record };
      delete copy[key];
      continue;
    }
    const item = record[key];
    const kept = withoutPasswords(item);
    if (kept !== item) (copy ??= { ...record })[key] = kept;
  }
  return copy ?? value;
}
