/**
 * Validation with Laravel's rules, messages and 422 body (`{ message, errors }`), so the
 * client meets exactly what the real service would answer.
 */
import { json, type Answer } from './http';

/** Laravel's display name of a field: `per_page` → `per page`. */
function attribute(field: string): string {
  return field.replace(/_/g, ' ');
}

/** Laravel's English messages of the rules this service uses. */
export const messages = {
  required: (field: string): string => `The ${attribute(field)} field is required.`,
  in: (field: string): string => `The selected ${attribute(field)} is invalid.`,
  string: (field: string): string => `The ${attribute(field)} field must be a string.`,
  integer: (field: string): string => `The ${attribute(field)} field must be an integer.`,
  url: (field: string): string => `The ${attribute(field)} field must be a valid URL.`,
  requiredIf: (field: string, other: string, value: string): string =>
    `The ${attribute(field)} field is required when ${attribute(other)} is ${value}.`,
};

/** Collects failed rules per field, in the order they were found. */
export class Errors {
  private readonly byField = new Map<string, string[]>();

  add(field: string, message: string): void {
    const list = this.byField.get(field);
    if (list) list.push(message);
    else this.byField.set(field, [message]);
  }

  has(field: string): boolean {
    return this.byField.has(field);
  }

  get empty(): boolean {
    return this.byField.size === 0;
  }

  /** The 422 answer, with Laravel's summary message. */
  toAnswer(): Answer {
    return validationAnswer(Object.fromEntries(this.byField));
  }
}

/** A 422 answer for the given errors: Laravel's `"<first> (and N more errors)"` message. */
export function validationAnswer(errors: Record<string, string[]>): Answer {
  return json(422, { message: summarize(errors), errors });
}

/** Laravel's ValidationException::summarize. */
export function summarize(errors: Record<string, string[]>): string {
  const all = Object.values(errors).flat();
  const first = all[0] ?? 'The given data was invalid.';
  const more = all.length - 1;
  if (more <= 0) return first;
  return `${first} (and ${more} more ${more === 1 ? 'error' : 'errors'})`;
}

/** Whether a field counts as given (Laravel: present and not null after ConvertEmptyStringsToNull). */
export function given(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/** Laravel's `string` rule. */
export function isString(value: unknown): value is string {
  return typeof value === 'string';
}

/** Laravel's `integer` rule (PHP's FILTER_VALIDATE_INT): integers and their decimal text. */
export function isInteger(value: unknown): boolean {
  if (typeof value === 'number') return Number.isSafeInteger(value);
  return typeof value === 'string' && /^[+-]?(0|[1-9]\d*)$/.test(value) && Number.isSafeInteger(Number(value));
}

/** Laravel's `in` rule: compares the value's text with the allowed values. */
export function isIn(value: unknown, allowed: readonly string[]): boolean {
  if (typeof value === 'number') return Number.isFinite(value) && allowed.includes(String(value));
  return typeof value === 'string' && allowed.includes(value);
}

/**
 * Laravel's `url` rule limited to the schemes a page report can use: an absolute http or
 * https URL with a host and without whitespace.
 */
export function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string' || /[\s\p{Cc}]/u.test(value)) return false;
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}
