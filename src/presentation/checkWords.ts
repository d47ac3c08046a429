/**
 * A check's value in words ("2 of 2 images have no alt text: lamp.svg, chart.svg"), for the
 * checks the reference service runs and the service contract's example. Each formatter says
 * only what the value holds: no limits, ranges or advice the service does not state.
 *
 * Imports no `vscode` (words through `@vscode/l10n`), so the report page, the agent tools and
 * the Problems panel's findings can all say a check the same way. A value of another shape
 * than the check's usual one gets no words: the caller shows it generically instead.
 *
 * Server strings pass through as data: the caller puts the result into a text sink.
 */
import * as l10n from '@vscode/l10n';
import { safeLocale } from '../text/dates';

/** What to show for a check's value. */
export type CheckWords =
  /** The value in words. */
  | { kind: 'words'; text: string }
  /** Nothing: a passed check whose value tells the reader nothing more. */
  | { kind: 'hidden' }
  /** Not a known check, or a value of another shape: the caller renders it generically. */
  | { kind: 'generic' };

/** The part of a check a formatter reads. */
export interface CheckInput {
  name: string;
  /** True, false, or undefined when the service did not say. */
  passed: boolean | undefined;
  value: unknown;
}

/** Reads `value` for a check that passed or not; `undefined` when the shape is not the usual one. */
type Formatter = (value: unknown, passed: boolean | undefined, number: NumberFormatter) => CheckWords | undefined;

interface NumberFormatter {
  /** A count or length, grouped by the locale ("1,024"). */
  count(n: number): string;
  /** Kilobytes with one decimal ("312.5 kB"). */
  kilobytes(bytes: number): string;
  /** Milliseconds ("1,234 ms"). */
  milliseconds(ms: number): string;
}

const words = (text: string): CheckWords => ({ kind: 'words', text });
const HIDDEN: CheckWords = { kind: 'hidden' };

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;
const isStringList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * "a, b, c": commas in every language, as the values are names from the page, not prose (and
 * `Intl.ListFormat`'s short forms differ between engines: Chromium's narrow one drops them).
 */
function list(items: readonly string[]): string {
  return items.join(', ');
}

/** The last segment of a URL's path ("https://x.test/img/lamp.svg" → "lamp.svg"); the text itself otherwise. */
export function fileName(url: string): string {
  try {
    const segments = new URL(url).pathname.split('/').filter((part) => part !== '');
    return segments.at(-1) ?? url;
  } catch {
    return url;
  }
}

/**
 * A text the page declares (its title, its language): shown as sent when it failed or is
 * worth seeing, `missing` when absent.
 */
function declared(missing: () => string, showWhenPassed: boolean): Formatter {
  return (value, passed) => {
    if (value === null) return words(missing());
    if (typeof value !== 'string') return undefined;
    if (passed === true && !showWhenPassed) return HIDDEN;
    return words(value === '' ? l10n.t('Empty') : value);
  };
}

/** A text's length in characters, with the words for one, many and none. */
function length(many: (n: string) => string, one: () => string, empty: () => string): Formatter {
  return (value, passed, number) => {
    if (!isCount(value)) return undefined;
    if (passed === true) return HIDDEN;
    if (value === 0) return words(empty());
    return words(value === 1 ? one() : many(number.count(value)));
  };
}

/** A count of things ("3 redirects"), hidden when zero and passed. */
function count(many: (n: string) => string, one: () => string, none: () => string, showWhenPassed: boolean): Formatter {
  return (value, passed, number) => {
    if (!isCount(value)) return undefined;
    if (passed === true && !showWhenPassed) return HIDDEN;
    return words(value === 0 ? none() : value === 1 ? one() : many(number.count(value)));
  };
}

/** The heading problems the reference service names, in the reader's language; others as sent. */
function headingProblem(problem: string): string {
  if (problem === 'no headings') return l10n.t('No headings');
  const starts = /^starts with (h[1-6])$/.exec(problem);
  if (starts) return l10n.t('Starts with {0}', starts[1]);
  const skip = /^(h[1-6]) → (h[1-6])$/.exec(problem);
  if (skip) return l10n.t('{0} followed by {1}', skip[1], skip[2]);
  return problem;
}

function formatters(): ReadonlyMap<string, Formatter> {
  const title = declared(() => l10n.t('No title'), true);
  const description = declared(() => l10n.t('No meta description'), true);
  return new Map<string, Formatter>([
    ['title', title],
    [
      'title_length',
      length(
        (n) => l10n.t('Title is {0} characters long', n),
        () => l10n.t('Title is 1 character long'),
        () => l10n.t('Title is empty'),
      ),
    ],
    ['meta_description', description],
    [
      'meta_description_length',
      length(
        (n) => l10n.t('Meta description is {0} characters long', n),
        () => l10n.t('Meta description is 1 character long'),
        () => l10n.t('Meta description is empty'),
      ),
    ],
    [
      'h1',
      (value, passed, number) => {
        if (!isStringList(value)) return undefined;
        if (value.length === 0) return words(l10n.t('No H1 heading'));
        if (value.length === 1 && passed === true) return words(value[0] === '' ? l10n.t('Empty') : value[0]);
        return words(l10n.t('{0} H1 headings: {1}', number.count(value.length), list(value)));
      },
    ],
    [
      'heading_order',
      (value, passed) => {
        if (!isStringList(value)) return undefined;
        if (value.length === 0) return passed === false ? undefined : HIDDEN;
        return words(list(value.map(headingProblem)));
      },
    ],
    [
      'image_alt',
      (value, passed, number) => {
        if (!isObject(value) || !isCount(value.images) || !isCount(value.missing_alt)) return undefined;
        const examples = value.examples === undefined ? [] : value.examples;
        if (!isStringList(examples)) return undefined;
        const { images, missing_alt: missing } = value;
        if (passed === true) return HIDDEN;
        if (images === 0) return words(l10n.t('No images'));
        if (missing === 0) return words(l10n.t('Every image has alt text'));
        const counted =
          images === 1
            ? l10n.t('1 of 1 image has no alt text')
            : missing === 1
              ? l10n.t('1 of {0} images has no alt text', number.count(images))
              : l10n.t('{0} of {1} images have no alt text', number.count(missing), number.count(images));
        if (examples.length === 0) return words(counted);
        // Fewer examples than images without alt: the list says it goes on.
        const names = list(examples.map(fileName)) + (examples.length < missing ? ', …' : '');
        return words(`${counted}: ${names}`);
      },
    ],
    ['lang', declared(() => l10n.t('No language attribute'), true)],
    ['viewport', declared(() => l10n.t('No viewport meta tag'), false)],
    ['charset', declared(() => l10n.t('No character set declared'), true)],
    ['canonical', declared(() => l10n.t('No canonical URL'), true)],
    [
      'https',
      (value, passed) => {
        if (typeof value !== 'string') return undefined;
        if (passed === true) return HIDDEN;
        return words(l10n.t('Served over {0}', value.toUpperCase()));
      },
    ],
    [
      'noindex',
      (value, passed) => {
        if (value === null) return passed === false ? undefined : HIDDEN;
        if (typeof value !== 'string') return undefined;
        return words(l10n.t('Robots directives: {0}', value));
      },
    ],
    ['favicon', declared(() => l10n.t('No favicon'), false)],
    [
      'links',
      (value, passed, number) => {
        if (!isObject(value) || !isCount(value.internal) || !isCount(value.external) || !isCount(value.empty))
          return undefined;
        if (passed === true) return HIDDEN;
        const { internal, external, empty } = value;
        if (internal + external + empty === 0) return words(l10n.t('No links'));
        return words(
          l10n.t(
            'Internal links: {0}, external: {1}, empty: {2}',
            number.count(internal),
            number.count(external),
            number.count(empty),
          ),
        );
      },
    ],
    [
      'word_count',
      count(
        (n) => l10n.t('{0} words', n),
        () => l10n.t('1 word'),
        () => l10n.t('No words'),
        true,
      ),
    ],
    [
      'page_size',
      (value, _passed, number) => (isCount(value) ? words(l10n.t('Page is {0}', number.kilobytes(value))) : undefined),
    ],
    [
      'response_time',
      (value, _passed, number) =>
        typeof value === 'number' && Number.isFinite(value) && value >= 0
          ? words(l10n.t('Answered in {0}', number.milliseconds(value)))
          : undefined,
    ],
    [
      'structured_data',
      (value) => {
        if (!isStringList(value)) return undefined;
        return words(value.length === 0 ? l10n.t('No structured data') : l10n.t('Types: {0}', list(value)));
      },
    ],
    [
      'open_graph',
      (value, passed) => {
        if (!isObject(value)) return undefined;
        if (passed === true) return HIDDEN;
        const tags = Object.keys(value).map((key) => `og:${key}`);
        return words(tags.length === 0 ? l10n.t('No Open Graph tags') : l10n.t('Open Graph tags: {0}', list(tags)));
      },
    ],
    [
      'deprecated_tags',
      (value, passed) => {
        if (!isStringList(value)) return undefined;
        if (value.length === 0) return passed === false ? undefined : HIDDEN;
        return words(l10n.t('Deprecated tags: {0}', list(value.map((tag) => `<${tag}>`))));
      },
    ],
    [
      'doctype',
      (value, passed) => {
        if (value === null) return words(l10n.t('No doctype'));
        if (typeof value !== 'string') return undefined;
        if (passed === true) return HIDDEN;
        return words(l10n.t('Doctype: {0}', `<${value}>`));
      },
    ],
    [
      'redirects',
      count(
        (n) => l10n.t('{0} redirects', n),
        () => l10n.t('1 redirect'),
        () => l10n.t('No redirects'),
        false,
      ),
    ],
  ]);
}

/** Built once: each formatter asks `@vscode/l10n` for its words when it runs, in the bundle loaded then. */
const FORMATTERS = formatters();

function numberFormatter(locale: string): NumberFormatter {
  const grouped = new Intl.NumberFormat(locale);
  const unit = (name: string, fractionDigits: number) =>
    new Intl.NumberFormat(locale, { style: 'unit', unit: name, unitDisplay: 'short', maximumFractionDigits: fractionDigits });
  return {
    count: (n) => grouped.format(n),
    kilobytes: (bytes) => unit('kilobyte', 1).format(bytes / 1000),
    milliseconds: (ms) => unit('millisecond', 0).format(ms),
  };
}

/**
 * The value of check `check.name` in words, in the language `@vscode/l10n` has loaded and the
 * number format of `locale` (BCP 47, default `en`).
 */
export function checkWords(check: CheckInput, locale = 'en'): CheckWords {
  const safe = safeLocale(locale);
  const formatter = FORMATTERS.get(check.name) ?? FORMATTERS.get(check.name.toLowerCase());
  return formatter?.(check.value, check.passed, numberFormatter(safe)) ?? { kind: 'generic' };
}
