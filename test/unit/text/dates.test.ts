import * as assert from 'node:assert/strict';
import type { Report } from '../../../src/api/types';
import { formatAbsolute, formatRelative, safeLocale } from '../../../src/text/dates';
import { toReportView } from '../../../src/presentation/format';
import { reportDescription } from '../../../src/views/format';

const NOW = Date.parse('2026-11-20T12:00:00Z');
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The relative text for a date `offset` ms from NOW (negative: in the past). */
function at(offset: number, locale = 'en'): string | undefined {
  return formatRelative(NOW + offset, NOW, locale);
}

describe('text/dates: relative', () => {
  it('says now under a second, then seconds', () => {
    assert.equal(at(0), 'now');
    assert.equal(at(-999), 'now');
    assert.equal(at(-SECOND), '1 second ago');
    assert.equal(at(-59 * SECOND - 999), '59 seconds ago');
  });

  it('switches to minutes at 60 s and to hours at 60 min, counting whole units', () => {
    assert.equal(at(-MINUTE), '1 minute ago');
    assert.equal(at(-HOUR + 1), '59 minutes ago', 'never "60 minutes ago"');
    assert.equal(at(-HOUR), '1 hour ago');
    assert.equal(at(-DAY + 1), '23 hours ago');
  });

  it('switches to days at 24 h: yesterday until two whole days have passed', () => {
    assert.equal(at(-DAY), 'yesterday');
    assert.equal(at(-2 * DAY + 1), 'yesterday');
    assert.equal(at(-2 * DAY), '2 days ago');
    assert.equal(at(-30 * DAY), '30 days ago');
  });

  it('switches to months after an average month and to years after an average year', () => {
    assert.equal(at(-31 * DAY), 'last month');
    assert.equal(at(-92 * DAY), '3 months ago');
    assert.equal(at(-365 * DAY), '11 months ago');
    assert.equal(at(-366 * DAY), 'last year');
    assert.equal(at(-3 * 366 * DAY), '3 years ago');
  });

  it('says future dates (a server clock ahead of ours) the same way', () => {
    assert.equal(at(30 * SECOND), 'in 30 seconds');
    assert.equal(at(5 * MINUTE), 'in 5 minutes');
    assert.equal(at(2 * HOUR + 10 * MINUTE), 'in 2 hours');
    assert.equal(at(DAY), 'tomorrow');
    assert.equal(at(400 * DAY), 'next year');
  });

  it('speaks the display language and falls back to English for a tag Intl rejects', () => {
    assert.equal(at(-3 * DAY, 'de'), 'vor 3 Tagen');
    assert.equal(at(-DAY, 'de'), 'gestern');
    assert.equal(at(-3 * DAY, 'not a locale!'), '3 days ago');
  });

  it('gives undefined (shown as missing) for missing or invalid dates, never Invalid Date or NaN', () => {
    for (const date of [undefined, null, new Date(Number.NaN), Number.NaN, Number.POSITIVE_INFINITY]) {
      assert.equal(formatRelative(date, NOW, 'en'), undefined, String(date));
      assert.equal(formatAbsolute(date, 'en'), undefined, String(date));
    }
    assert.equal(formatRelative(NOW, Number.NaN, 'en'), undefined);
    assert.equal(formatRelative(NOW, new Date('garbage'), 'en'), undefined);
  });
});

describe('text/dates: absolute', () => {
  it('formats in the given locale and zone, and survives bad locales and zones', () => {
    const date = new Date('2026-11-20T10:15:30Z');
    assert.equal(formatAbsolute(date, 'en-US', { timeZone: 'UTC' }), 'Nov 20, 2026, 10:15 AM');
    assert.equal(formatAbsolute(date, 'de', { timeZone: 'UTC' }), '20.11.2026, 10:15');
    assert.equal(formatAbsolute(date, 'not a locale!!', { timeZone: 'UTC' }), 'Nov 20, 2026, 10:15 AM');
    assert.equal(formatAbsolute(date, 'en', { timeZone: 'Mars/Olympus' }), '2026-11-20T10:15:30.000Z');
    assert.equal(safeLocale('pt-br'), 'pt-BR');
    assert.equal(safeLocale(''), 'en');
  });
});

describe('text/dates: the tree and the panel agree', () => {
  function report(generatedAt: Date | undefined): Report {
    return {
      id: 7,
      url: 'https://example.com/',
      project: undefined,
      result: undefined,
      score: undefined,
      privacy: undefined,
      checks: [],
      generatedAt,
      createdAt: undefined,
      updatedAt: undefined,
      raw: {},
    };
  }

  // 1.6 days ago was "2 days ago" in the tree and "yesterday" in the panel before both used this module.
  for (const [offset, expected] of [
    [-1.6 * DAY, 'yesterday'],
    [-59.6 * MINUTE, '59 minutes ago'],
    [-45 * DAY, 'last month'],
    [3 * HOUR, 'in 3 hours'],
  ] as const) {
    it(`both say "${expected}" for the same report`, () => {
      for (const locale of ['en', 'de']) {
        const generated = new Date(NOW + offset);
        const tree = reportDescription(report(generated), { now: new Date(NOW), locale });
        const panel = toReportView(report(generated), { now: NOW, locale }).generated.relative;
        assert.equal(tree, panel, locale);
        if (locale === 'en') assert.equal(panel, expected);
      }
    });
  }

  it('both show a missing date as missing', () => {
    assert.equal(reportDescription(report(undefined), { now: new Date(NOW) }), '');
    const panel = toReportView(report(undefined), { now: NOW }).generated;
    assert.equal(panel.relative, 'unknown');
    assert.equal(panel.absolute, '—');
  });
});
