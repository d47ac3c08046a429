import * as assert from 'node:assert/strict';
import { parseReport } from '../../../src/api/schemas';
import type { Page, Report } from '../../../src/api/types';
import { reportAccessibilityLabel, reportDescription, reportTooltipMarkdown } from '../../../src/views/format';
import { checkCounts } from '../../../src/presentation/format';
import { isListSummary, summarizePage, toListSummary } from '../../../src/views/summary';

/** A report as the client builds it from a server answer, with an analysis and an unknown field. */
function fullReport(): Report {
  return parseReport({
    id: 42,
    url: 'https://shop.example/cart',
    project: 'shop',
    result: 'decent',
    score: 61.5,
    privacy: 1,
    generated_at: '2026-11-20T10:00:00Z',
    created_at: '2026-11-19T10:00:00Z',
    updated_at: '2026-11-20T10:00:00Z',
    owner_note: 'kept: a top-level scalar',
    tags: ['dropped', 'nested'],
    results: {
      title: { passed: true, importance: 'high', value: 'Cart' },
      meta_description: { passed: false, importance: 'medium', value: null },
      headings: { passed: false, importance: 'low', value: ['h1', 'h1'] },
      mystery: { importance: 'low', value: 1 },
    },
  });
}

describe('views/summary: what the lists keep of a report', () => {
  it('keeps every field rows, tooltips, sorting and commands use, and leaves the analysis out', () => {
    const full = fullReport();
    const summary = toListSummary(full);
    for (const key of ['id', 'url', 'project', 'result', 'score', 'privacy'] as const)
      assert.equal(summary[key], full[key], key);
    assert.equal(summary.generatedAt?.getTime(), full.generatedAt?.getTime());
    assert.equal(summary.createdAt?.getTime(), full.createdAt?.getTime());
    assert.equal(summary.updatedAt?.getTime(), full.updatedAt?.getTime());
    assert.deepEqual(summary.checks, []);
    assert.equal('results' in summary.raw, false, 'the analysis is not held');
    assert.equal('tags' in summary.raw, false, 'nested values are not held');
    assert.equal(summary.raw.owner_note, 'kept: a top-level scalar');
    assert.equal(summary.raw.generated_at, '2026-11-20T10:00:00Z');
    assert.deepEqual(summary.summary, { passed: 1, failed: 2, all: 4 });
    assert.equal(isListSummary(summary), true);
    assert.equal(isListSummary(full), false);
    assert.equal(full.checks.length, 4, 'the full report is left as it was');
    assert.ok('results' in full.raw);
  });

  it('shows the same row, spoken label and tooltip as the full report', () => {
    const full = fullReport();
    const summary = toListSummary(full);
    const options = { now: new Date('2026-11-21T10:00:00Z'), locale: 'en' };
    assert.equal(reportDescription(summary, options), reportDescription(full, options));
    assert.equal(reportAccessibilityLabel(summary, options), reportAccessibilityLabel(full, options));
    assert.equal(reportTooltipMarkdown(summary, options), reportTooltipMarkdown(full, options));
    assert.match(reportTooltipMarkdown(summary, options), /1 passed\\, 2 failed/);
  });

  it('counts a full report and passes a summary through unchanged', () => {
    const full = fullReport();
    assert.deepEqual(checkCounts(full), { passed: 1, failed: 2, all: 4 });
    const summary = toListSummary(full);
    assert.equal(toListSummary(summary), summary);
    const page: Page<Report> = { items: [full], page: 2, perPage: 10, total: 11, lastPage: 2, hasMore: false };
    const summarized = summarizePage(page);
    assert.deepEqual({ ...summarized, items: [] }, { ...page, items: [] });
    assert.deepEqual(summarized.items[0].summary, { passed: 1, failed: 2, all: 4 });
  });

  it('a report without an analysis has no Checks row, as before', () => {
    const bare = parseReport({ id: 'a-1', url: 'https://x.example/' });
    const summary = toListSummary(bare);
    assert.deepEqual(summary.summary, { passed: 0, failed: 0, all: 0 });
    assert.doesNotMatch(reportTooltipMarkdown(summary), /Checks/);
  });
});
