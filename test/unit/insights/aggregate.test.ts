import * as assert from 'node:assert/strict';
import { parseReport } from '../../../src/api/schemas';
import type { Report } from '../../../src/api/types';
import {
  aggregate,
  bucketLabel,
  formatShare,
  medianLine,
  isoWeekStart,
  median,
  reportCount,
  scoreBucket,
  summaryMarkdown,
} from '../../../src/presentation/insightsAggregate';
import { ENGLISH_SUMMARY_WORDS } from '../helpers/summaryWords';
import { insightsLimit } from '../../../src/insights/load';
import { checkLabel } from '../../../src/presentation/format';
import { escapeMarkdown } from '../../../src/views/format';

let nextId = 1;
/** A report as the client would parse it from the server's raw JSON. */
function report(fields: Record<string, unknown>): Report {
  return parseReport({ id: nextId++, url: 'https://shop.localhost/p', ...fields });
}

const HOSTILE = '<img src=x onerror="alert(1)">|**bold**|[x](command:evil)';

describe('insights aggregation', () => {
  describe('results', () => {
    it('counts good, decent and bad exactly, and unknown or missing results as other', () => {
      const reports = [
        report({ result: 'good' }),
        report({ result: 'good' }),
        report({ result: 'decent' }),
        report({ result: 'bad' }),
        report({ result: 'bad' }),
        report({ result: 'bad' }),
        report({ result: 'excellent' }),
        report({}),
        report({ result: null }),
      ];
      const model = aggregate(reports, 'shop.localhost');
      assert.deepEqual(model.results, { good: 2, decent: 1, bad: 3, other: 3 });
      assert.equal(model.total, 9);
      assert.equal(model.project, 'shop.localhost');
    });

    it('gives zeros and no NaN for a project without reports', () => {
      const model = aggregate([], 'empty.localhost');
      assert.deepEqual(model.results, { good: 0, decent: 0, bad: 0, other: 0 });
      assert.equal(model.total, 0);
      assert.deepEqual(model.scores, {
        scored: 0,
        unscored: 0,
        mean: null,
        median: null,
        buckets: new Array(10).fill(0),
      });
      assert.deepEqual(model.checks, []);
      assert.deepEqual(model.lowest, []);
      assert.ok(!JSON.stringify(model).includes('NaN'));
      const markdown = summaryMarkdown(model, 'now', ENGLISH_SUMMARY_WORDS);
      assert.ok(!markdown.includes('NaN'), markdown);
      assert.match(markdown, /Good 0 · Decent 0 · Bad 0 · 0 reports/);
      assert.ok(!markdown.includes('Other'), 'Other only when needed');
    });

    it('says 1 report and N reports', () => {
      assert.equal(reportCount(1, ENGLISH_SUMMARY_WORDS), '1 report');
      assert.equal(reportCount(35, ENGLISH_SUMMARY_WORDS), '35 reports');
      assert.equal(reportCount(0, ENGLISH_SUMMARY_WORDS), '0 reports');
      assert.equal(reportCount(5310, ENGLISH_SUMMARY_WORDS), '5,310 reports');
    });
  });

  describe('scores', () => {
    it('puts the edges 0, 9.99, 10, 90, 99.99 and 100 into their ten-point buckets', () => {
      assert.equal(scoreBucket(0), 0);
      assert.equal(scoreBucket(9.99), 0);
      assert.equal(scoreBucket(10), 1);
      assert.equal(scoreBucket(89.99), 8);
      assert.equal(scoreBucket(90), 9);
      assert.equal(scoreBucket(99.99), 9);
      assert.equal(scoreBucket(100), 9);
      // Out of range (a non-canonical server) clamps rather than indexing outside the list.
      assert.equal(scoreBucket(-5), 0);
      assert.equal(scoreBucket(130), 9);
      assert.equal(bucketLabel(0, 'en'), '0–9.99');
      assert.equal(bucketLabel(9, 'en'), '90–100');
      // In the reader's language: a German decimal comma.
      assert.equal(bucketLabel(4, 'de'), '40–49,99');
    });

    it('computes mean, median and buckets of the reports with a score, counting those without', () => {
      const reports = [0, 9.99, 10, 100, '55.5', undefined, 'n/a'].map((score) =>
        report(score === undefined ? {} : { score }),
      );
      const model = aggregate(reports, null);
      assert.equal(model.scores.scored, 5);
      assert.equal(model.scores.unscored, 2);
      assert.equal(model.scores.mean, (0 + 9.99 + 10 + 100 + 55.5) / 5);
      assert.equal(model.scores.median, 10);
      assert.deepEqual(model.scores.buckets, [2, 1, 0, 0, 0, 1, 0, 0, 0, 1]);
    });

    it('takes the mean of the two middle scores as the median of an even count', () => {
      assert.equal(median([40, 10, 30, 20]), 25);
      assert.equal(median([7]), 7);
      assert.equal(median([]), null);
    });

    it('lists the ten lowest-scoring pages, lowest first, newest first among equals', () => {
      const scores = [50, 3, 70, 3, 90, 10, 20, 30, 40, 60, 80, 5, 1];
      const reports = scores.map((score, i) => report({ score, url: `https://shop.localhost/p${i}` }));
      const model = aggregate(reports, null);
      const lowest = model.lowest.map((i) => model.reports[i].score);
      assert.deepEqual(lowest, [1, 3, 3, 5, 10, 20, 30, 40, 50, 60]);
      // The two 3s keep the loaded order (newest first).
      assert.deepEqual(
        model.lowest.slice(1, 3).map((i) => model.reports[i].id),
        [reports[1].id, reports[3].id],
      );
    });
  });

  describe('the weekly median line', () => {
    it('breaks after a week whose next week has no reports, and joins consecutive weeks', () => {
      const DAY = 86_400_000;
      const monday = Date.UTC(2026, 10, 2); // a Monday
      const week = (n: number, median: number) => ({
        weekStart: monday + n * 7 * DAY,
        median,
        count: 1,
        at: monday + n * 7 * DAY + DAY,
      });
      assert.deepEqual(medianLine([week(0, 50), week(1, 60), week(4, 70)]), [
        { x: monday + DAY, y: 50 },
        { x: monday + 7 * DAY + DAY, y: 60 },
        { x: monday + 14 * DAY, y: null },
        { x: monday + 28 * DAY + DAY, y: 70 },
      ]);
      assert.deepEqual(medianLine([]), []);
    });
  });

  describe('check shares', () => {
    it('reads as whole percents, "<1%" and ">99%" at the ends, never 0% or 100% for a mixed outcome', () => {
      assert.equal(formatShare(0), '0%');
      assert.equal(formatShare(1 / 20_000), '<1%');
      assert.equal(formatShare(0.004), '<1%');
      assert.equal(formatShare(0.005), '1%');
      assert.equal(formatShare(0.42), '42%');
      assert.equal(formatShare(0.994), '99%');
      assert.equal(formatShare(199 / 200), '>99%');
      assert.equal(formatShare(1), '100%');
      assert.equal(formatShare(Number.NaN), '0%');
      assert.equal(formatShare(1 / 20_000, 'de'), `<${new Intl.NumberFormat('de', { style: 'percent' }).format(0.01)}`);
    });
  });

  describe('lowest-scoring pages', () => {
    it('takes each page by its newest report: a page fixed since is not listed for an old score', () => {
      // Newest first, as the insights load them.
      const reports = [
        report({ url: 'https://shop.localhost/fixed', score: 95 }),
        report({ url: 'https://shop.localhost/poor', score: 40 }),
        report({ url: 'https://shop.localhost/fixed', score: 12 }),
        report({ url: 'https://shop.localhost/unscored' }),
        report({ url: 'https://shop.localhost/poor', score: 20 }),
        report({ url: 'https://shop.localhost/unscored', score: 5 }),
      ];
      const model = aggregate(reports, null);
      assert.deepEqual(
        model.lowest.map((i) => [model.reports[i].url, model.reports[i].score]),
        [
          ['https://shop.localhost/poor', 40],
          ['https://shop.localhost/fixed', 95],
        ],
        'one row a page, its newest score; a page whose newest report has no score is not listed',
      );
      assert.equal(model.total, 6, 'every report still counts in the other figures');
    });

    it('takes a page by the report analysed last: Re-analyze keeps an older report’s id and renews its date', () => {
      // Newest first by id, as the insights load them: report 2 of /fixed was re-analysed after report 5.
      const reports = [
        report({ url: 'https://shop.localhost/fixed', score: 40, generated_at: '2026-11-01T10:00:00Z' }),
        report({ url: 'https://shop.localhost/other', score: 60, generated_at: '2026-11-02T10:00:00Z' }),
        report({ url: 'https://shop.localhost/fixed', score: 95, generated_at: '2026-11-20T10:00:00Z' }),
        report({ url: 'https://shop.localhost/fixed', score: 10 }),
      ];
      const model = aggregate(reports, null);
      assert.deepEqual(
        model.lowest.map((i) => [model.reports[i].url, model.reports[i].score]),
        [
          ['https://shop.localhost/other', 60],
          ['https://shop.localhost/fixed', 95],
        ],
        'the latest generated date wins over load order; an undated report does not replace a dated one',
      );
    });
  });

  describe('over time', () => {
    it('starts ISO weeks on Monday 00:00 UTC', () => {
      // 2026-11-23 is a Monday.
      const monday = Date.parse('2026-11-23T00:00:00Z');
      assert.equal(isoWeekStart(monday), monday);
      assert.equal(isoWeekStart(Date.parse('2026-11-29T23:59:59.999Z')), monday, 'Sunday night is the same week');
      assert.equal(isoWeekStart(Date.parse('2026-11-22T23:59:59Z')), Date.parse('2026-11-16T00:00:00Z'));
      assert.equal(
        isoWeekStart(Date.parse('2026-01-01T12:00:00Z')),
        Date.parse('2025-12-29T00:00:00Z'),
        'across a year',
      );
      assert.equal(isoWeekStart(Date.parse('1970-01-01T00:00:00Z')), Date.parse('1969-12-29T00:00:00Z'));
    });

    it('gives each dated, scored report a point and each week the median of its scores', () => {
      const reports = [
        report({ score: 80, generated_at: '2026-11-23T08:00:00Z' }), // Mon, week of 23rd
        report({ score: 60, generated_at: '2026-11-29T22:00:00Z' }), // Sun, same week
        report({ score: 10, generated_at: '2026-11-29 23:30:00' }), // SQL format, UTC, same week
        report({ score: 40, generated_at: '2026-11-22T23:00:00Z' }), // Sun, week of 16th
        report({ score: 30, generated_at: '2026-11-16T00:00:00.000000Z' }), // Mon, week of 16th
        report({ score: 99, generated_at: 'not a date' }), // undated
        report({ generated_at: '2026-11-17T00:00:00Z' }), // no score: no point
      ];
      const model = aggregate(reports, null);
      assert.equal(model.overTime.points.length, 5);
      assert.equal(model.overTime.undated, 1);
      assert.deepEqual(model.overTime.weekly, [
        // Drawn at the median time of the week's reports: among them, never before or after.
        {
          weekStart: Date.parse('2026-11-16T00:00:00Z'),
          median: 35,
          count: 2,
          at: (Date.parse('2026-11-16T00:00:00Z') + Date.parse('2026-11-22T23:00:00Z')) / 2,
        },
        { weekStart: Date.parse('2026-11-23T00:00:00Z'), median: 60, count: 3, at: Date.parse('2026-11-29T22:00:00Z') },
      ]);
      assert.deepEqual(model.overTime.points[0], { x: Date.parse('2026-11-23T08:00:00Z'), y: 80, report: 0 });
    });
  });

  describe('failing checks', () => {
    it('counts per check the reports it failed in and the reports that ran it, most frequent first', () => {
      const reports = [
        report({
          results: {
            title: { passed: false, importance: 'high', value: null },
            meta_description: { passed: false, importance: 'medium', value: null },
            h1: { passed: true, importance: 'high', value: 'x' },
          },
        }),
        report({ results: { title: { passed: false, importance: 'high' }, h1: { passed: false, importance: 'low' } } }),
        report({ results: { title: { passed: true, importance: 'high' }, meta_description: { passed: false } } }),
        report({ results: { title: { passed: false, importance: 'high' } } }),
      ];
      const model = aggregate(reports, null);
      const byName = Object.fromEntries(model.checks.map((c) => [c.name, c]));
      assert.deepEqual(
        model.checks.map((c) => c.name),
        ['title', 'meta_description', 'h1'],
      );
      assert.equal(byName.title.failed, 3);
      assert.equal(byName.title.ran, 4);
      assert.equal(byName.title.share, 0.75);
      assert.deepEqual(byName.title.reports, [0, 1, 3]);
      assert.equal(byName.title.label, checkLabel('title').label, "the report panel's readable name");
      assert.equal(byName.meta_description.failed, 2);
      assert.equal(byName.meta_description.ran, 2);
      assert.equal(byName.meta_description.importance, 'medium');
      assert.equal(byName.h1.failed, 1);
      assert.equal(byName.h1.ran, 2);
      assert.equal(byName.h1.importance, 'low', 'the importance it failed with');
    });

    it('reads the odd results shapes of contract §5: a list, JSON text, missing, null, entries that are not objects', () => {
      const reports = [
        report({
          results: [
            { name: 'title', passed: false, importance: 'high' },
            { name: 'title', passed: true },
          ],
        }),
        report({ results: JSON.stringify({ title: { passed: 'false', importance: 'HIGH' } }) }),
        report({ results: '{not json' }),
        report({ results: null }),
        report({}),
        report({ results: { title: 'failed', canonical: null, lang: { passed: 0 } } }),
        report({ results: 42 }),
      ];
      const model = aggregate(reports, null);
      const title = model.checks.find((c) => c.name === 'title');
      assert.ok(title, 'title failed somewhere');
      // Report 0 lists title twice (failed and passed): it counts once, as failed.
      assert.ok(title.reports.includes(0));
      assert.equal(title.reports.filter((i) => i === 0).length, 1);
      // Report 5's title is not an object: it ran, but did not say it failed.
      assert.ok(title.ran >= 2);
      assert.ok(!title.reports.includes(5));
      assert.ok(Number.isFinite(title.share) && title.share > 0 && title.share <= 1);
      assert.equal(model.total, 7);
      assert.ok(!JSON.stringify(model).includes('NaN'));
    });

    it('labels a check with bidi or control characters in its name with U+FFFD there (the page, its charts and their text)', () => {
      const name = 'price\u202Egnp.exe\nnext';
      const model = aggregate([report({ results: { [name]: { passed: false, importance: 'high' } } })], null);
      const check = model.checks.find((c) => c.name === name);
      assert.ok(check, 'counted under its own name');
      assert.ok(!/[\u202E\n]/.test(check.label), JSON.stringify(check.label));
      assert.ok(check.label.includes('\uFFFD'));
    });

    it('keeps hostile check names exactly as text, and escapes them in the Markdown summary', () => {
      const reports = [
        report({
          result: 'bad',
          score: 5,
          results: { [HOSTILE]: { passed: false, importance: 'high' }, __proto__check: { passed: false } },
        }),
        report({
          result: 'bad',
          score: 7,
          results: JSON.parse(
            `{"__proto__": {"passed": false, "importance": "low"}, "constructor": {"passed": false}}`,
          ),
        }),
      ];
      const model = aggregate(reports, HOSTILE);
      const names = model.checks.map((c) => c.name);
      assert.ok(names.includes(HOSTILE));
      assert.ok(names.includes('__proto__'), 'a check named __proto__ is counted, not lost');
      assert.ok(names.includes('constructor'));
      const hostile = model.checks.find((c) => c.name === HOSTILE)!;
      assert.equal(hostile.label, HOSTILE, 'not identifier-like: shown as sent, as text');

      const markdown = summaryMarkdown(model, '22 Nov 2026', ENGLISH_SUMMARY_WORDS);
      assert.ok(!/(?<!\\)<img/.test(markdown), 'no unescaped markup');
      assert.ok(!markdown.includes('](command:'), markdown);
      assert.ok(markdown.includes(escapeMarkdown(HOSTILE)), 'the check and project names escaped for Markdown');
      // Every table row keeps its four columns: no unescaped pipe from a name splits a row.
      for (const line of markdown.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| ---'))) {
        const cells = line.split(/(?<!\\)\|/).length - 2;
        assert.ok(cells === 2 || cells === 4, `row with ${cells} cells: ${line}`);
      }
    });
  });

  describe('Markdown summary', () => {
    it('holds the result counts, the score numbers and buckets, and the top ten failing checks', () => {
      const results = Object.fromEntries(
        Array.from({ length: 12 }, (_, i) => [
          `check_${String(i).padStart(2, '0')}`,
          { passed: false, importance: 'low' },
        ]),
      );
      const reports = [
        report({ result: 'good', score: 95, results }),
        report({ result: 'decent', score: 70 }),
        report({ result: 'bad', score: 20 }),
        report({ result: 'weird' }),
      ];
      const markdown = summaryMarkdown(
        aggregate(reports, 'shop.localhost'),
        '22 Nov 2026, 22:41 UTC',
        ENGLISH_SUMMARY_WORDS,
      );
      assert.match(markdown, /^## Insights: shop\\\.localhost$/m);
      assert.ok(markdown.includes('Good 1 · Decent 1 · Bad 1 · Other 1 · 4 reports'), markdown);
      assert.ok(markdown.includes('- Mean: 61.7'), markdown);
      assert.ok(markdown.includes('- Median: 70'), markdown);
      assert.ok(markdown.includes('Without a score: 1'), markdown);
      assert.ok(markdown.includes('| 90–100 | 1 |'), markdown);
      assert.ok(markdown.includes('| 0–9.99 | 0 |'), markdown);
      assert.equal((markdown.match(/^\| Check \d\d /gm) ?? []).length, 10, 'the top ten checks only');
      assert.ok(markdown.includes('| Check 00 | Low | 1 / 1 | 100% |'), markdown);
    });
  });

  it('reads the insightsLimit setting within 100–20,000, whole numbers, default 2,000', () => {
    assert.equal(insightsLimit(undefined), 2000);
    assert.equal(insightsLimit('5000'), 2000);
    assert.equal(insightsLimit(Number.NaN), 2000);
    assert.equal(insightsLimit(5), 100);
    assert.equal(insightsLimit(1e9), 20000);
    assert.equal(insightsLimit(250.7), 250);
  });
});
