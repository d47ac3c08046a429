import * as assert from 'node:assert/strict';
import { parseReport } from '../../../src/api/schemas';
import type { Check } from '../../../src/api/types';
import {
  countTrends,
  diffAnalyses,
  formatScoreDelta,
  MINUS,
  nothingChanged,
  type AnalysisLike,
} from '../../../src/presentation/diff';

const check = (name: string, passed: boolean | undefined, importance: Check['importance'] = 'high'): Check => ({
  name,
  passed,
  importance,
  value: null,
});

const analysis = (score: number | undefined, result: AnalysisLike['result'], checks: Check[]): AnalysisLike => ({
  score,
  result,
  checks,
});

describe('diff of two analyses', () => {
  it('says nothing changed only when score, result and every check’s outcome are the same', () => {
    const same = (a: AnalysisLike, b: AnalysisLike): boolean => nothingChanged(diffAnalyses(a, b), b);
    const base = analysis(46.7, 'bad', [check('title', false), check('lang', true), check('viewport', undefined)]);
    assert.equal(
      same(base, analysis(46.7, 'bad', [check('viewport', undefined), check('title', false), check('lang', true)])),
      true,
    );
    assert.equal(same(base, analysis(46.74, 'bad', [...base.checks])), true, 'the same score as shown (one decimal)');
    assert.equal(same(analysis(undefined, undefined, []), analysis(undefined, undefined, [])), true);
    assert.equal(same(base, analysis(46.8, 'bad', [...base.checks])), false, 'score');
    assert.equal(same(base, analysis(undefined, 'bad', [...base.checks])), false, 'score gone');
    assert.equal(same(base, analysis(46.7, 'decent', [...base.checks])), false, 'result');
    // Moves to or from "unknown" count as a change (the diff's otherChanges).
    assert.equal(
      same(base, analysis(46.7, 'bad', [check('title', undefined), check('lang', true), check('viewport', undefined)])),
      false,
    );
    assert.equal(
      same(base, analysis(46.7, 'bad', [check('title', false), check('lang', true), check('viewport', true)])),
      false,
    );
    assert.equal(
      same(base, analysis(46.7, 'bad', [check('title', false), check('lang', true)])),
      false,
      'a check went',
    );
    assert.equal(same(base, analysis(46.7, 'bad', [...base.checks, check('new', true)])), false, 'a check came');
  });

  it('finds checks fixed, newly failing and unchanged, with readable names and importance', () => {
    const before = analysis(72.5, 'decent', [
      check('meta_description', false, 'high'),
      check('title', true, 'high'),
      check('image_alt', true, 'medium'),
      check('viewport', false, 'low'),
    ]);
    const after = analysis(77, 'good', [
      check('meta_description', true, 'high'),
      check('title', true, 'high'),
      check('image_alt', false, 'medium'),
      check('viewport', false, 'low'),
    ]);
    const diff = diffAnalyses(before, after);
    assert.deepEqual(
      diff.fixed.map((c) => [c.name, c.label, c.importance]),
      [['meta_description', 'Meta description', 'high']],
    );
    assert.deepEqual(
      diff.newlyFailing.map((c) => [c.name, c.label, c.importance, c.before, c.after]),
      [['image_alt', 'Image alt text', 'medium', 'passed', 'failed']],
    );
    assert.equal(diff.unchanged, 2);
    assert.deepEqual(diff.score, { before: 72.5, after: 77, delta: 4.5 });
    assert.deepEqual(diff.result, { before: 'decent', after: 'good', changed: true });
    assert.equal(diff.trend, 'improved');
  });

  it('tells checks that appear (a failing one is also newly failing) and disappear', () => {
    const before = analysis(50, 'bad', [check('title', true), check('flash', false, 'low')]);
    const after = analysis(47, 'bad', [
      check('title', true),
      check('hsts', false, 'medium'),
      check('favicon', true, 'low'),
    ]);
    const diff = diffAnalyses(before, after);
    assert.deepEqual(
      diff.appeared.map((c) => [c.name, c.before, c.after]),
      [
        ['hsts', 'absent', 'failed'],
        ['favicon', 'absent', 'passed'],
      ],
    );
    assert.deepEqual(
      diff.newlyFailing.map((c) => c.name),
      ['hsts'],
    );
    assert.deepEqual(
      diff.disappeared.map((c) => [c.name, c.before, c.after, c.importance]),
      [['flash', 'failed', 'absent', 'low']],
    );
    assert.deepEqual(diff.fixed, [], 'a failed check that went is not "fixed"');
    assert.equal(diff.trend, 'worse');
    assert.equal(diff.result.changed, false);
  });

  it('lists checks whose outcome moved to or from undetermined, and only those, as other changes', () => {
    const diff = diffAnalyses(
      analysis(72, 'decent', [
        check('title', false),
        check('lang', true, 'medium'),
        check('viewport', undefined, 'low'),
        check('charset', undefined),
        check('canonical', true),
      ]),
      analysis(72, 'decent', [
        check('title', undefined),
        check('lang', undefined, 'medium'),
        check('viewport', true, 'low'),
        check('charset', false),
        check('canonical', true),
        check('favicon', undefined),
      ]),
    );
    assert.deepEqual(
      diff.otherChanges.map((c) => [c.name, c.before, c.after]),
      [
        ['title', 'failed', 'unknown'],
        ['lang', 'passed', 'unknown'],
        ['viewport', 'unknown', 'passed'],
      ],
      'by importance; undetermined → failed is newly failing, a new undetermined check appeared',
    );
    assert.deepEqual(
      diff.newlyFailing.map((c) => c.name),
      ['charset'],
    );
    assert.deepEqual(
      diff.appeared.map((c) => c.name),
      ['favicon'],
    );
    assert.deepEqual(diff.fixed, []);
    assert.equal(diff.unchanged, 1);
  });

  it('orders changes by importance (high, medium, low, none), then name', () => {
    const before = analysis(
      1,
      'bad',
      ['b', 'a', 'c', 'd'].map((name): Check => ({ name, passed: true, importance: undefined, value: null })),
    );
    const after = analysis(1, 'bad', [
      check('b', false, 'low'),
      { name: 'a', passed: false, importance: undefined, value: null },
      check('c', false, 'high'),
      check('d', false, 'low'),
    ]);
    assert.deepEqual(
      diffAnalyses(before, after).newlyFailing.map((c) => c.name),
      ['c', 'b', 'd', 'a'],
    );
  });

  it('takes odd shapes without throwing: no checks, missing scores, undetermined outcomes, hostile names', () => {
    const empty = diffAnalyses(analysis(undefined, undefined, []), analysis(undefined, undefined, []));
    assert.equal(empty.score.delta, undefined);
    assert.equal(empty.trend, 'unchanged');
    assert.equal(empty.result.changed, false);

    const nan = diffAnalyses(analysis(Number.NaN, 'good', []), analysis(80, 'good', []));
    assert.equal(nan.score.before, undefined);
    assert.equal(nan.trend, 'unchanged');

    const unknownToFailed = diffAnalyses(
      analysis(10, 'bad', [check('__proto__', undefined), check('<img src=x>', false)]),
      analysis(10, 'bad', [check('__proto__', false), check('<img src=x>', undefined)]),
    );
    assert.deepEqual(
      unknownToFailed.newlyFailing.map((c) => [c.name, c.label]),
      [['__proto__', 'Proto']],
    );
    assert.deepEqual(unknownToFailed.fixed, [], 'failed → undetermined is not fixed');
    assert.deepEqual(
      unknownToFailed.otherChanges.map((c) => [c.name, c.before, c.after]),
      [['<img src=x>', 'failed', 'unknown']],
    );
    assert.equal(unknownToFailed.unchanged, 0);
    assert.equal(formatScoreDelta(unknownToFailed.score.delta), '±0');

    // Parsed from the service's raw shape, with results not an object: no checks at all.
    const raw = parseReport({ id: 1, url: 'https://x.test/', results: 'nonsense', score: '61.3' });
    const fromRaw = diffAnalyses(
      raw,
      parseReport({ id: 1, url: 'https://x.test/', results: { title: { passed: true } }, score: 60 }),
    );
    assert.equal(fromRaw.score.delta, -1.3);
    assert.deepEqual(
      fromRaw.appeared.map((c) => c.name),
      ['title'],
    );
  });

  it('writes score changes as +4.5, −3 (U+2212) and ±0, without float noise', () => {
    assert.equal(formatScoreDelta(4.5), '+4.5');
    assert.equal(formatScoreDelta(-3), `${MINUS}3`);
    assert.equal(formatScoreDelta(-3), '\u22123');
    assert.equal(formatScoreDelta(0), '±0');
    assert.equal(formatScoreDelta(0.30000000000000004 - 0.3), '±0');
    assert.equal(formatScoreDelta(0.04), '±0');
    assert.equal(formatScoreDelta(undefined), undefined);
    assert.equal(formatScoreDelta(1234.56, 'de'), '+1.234,6');
    assert.equal(diffAnalyses(analysis(0.1, 'bad', []), analysis(0.3, 'bad', [])).score.delta, 0.2);
  });

  it('counts a bulk re-analysis: improved = the score went up', () => {
    const up = diffAnalyses(analysis(10, 'bad', []), analysis(20, 'bad', []));
    const down = diffAnalyses(analysis(20, 'bad', []), analysis(10, 'bad', []));
    const same = diffAnalyses(analysis(20, 'bad', []), analysis(20, 'good', []));
    assert.deepEqual(countTrends([up, up, up, down, same, same]), { improved: 3, worse: 1, unchanged: 2 });
  });
});
