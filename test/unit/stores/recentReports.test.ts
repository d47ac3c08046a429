import * as assert from 'node:assert/strict';
import { parseReport } from '../../../src/api/schemas';
import type { Page, Report } from '../../../src/api/types';
import { RECENT_REPORTS_LIMIT, RecentReports, sameVersion } from '../../../src/stores/recentReports';
import { listedPage, toListSummary } from '../../../src/views/summary';

const A = 'https://a.test';
const B = 'http://127.0.0.1:8787';

/** A report as the client reads it from a list answer, with its analysis. */
function report(id: number | string, fields: Record<string, unknown> = {}): Report {
  return parseReport({
    id,
    url: `https://shop.example/${String(id)}`,
    project: 'shop.example',
    result: 'decent',
    score: 61,
    privacy: 0,
    generated_at: '2026-11-20T10:00:00Z',
    created_at: '2026-11-19T10:00:00Z',
    updated_at: '2026-11-20T10:00:00Z',
    results: { title: { passed: true, importance: 'high', value: 'Shop' } },
    ...fields,
  });
}

describe('recent reports cache', () => {
  it('gives the whole report behind a row of the same version, per service URL', () => {
    const cache = new RecentReports();
    const listed = report(42);
    cache.keep(A, [listed]);
    const row = toListSummary(listed);
    assert.equal(cache.forRow(A, row), listed);
    assert.equal(cache.forRow(A, toListSummary(report('42'))), listed, 'ids compare as text');
    assert.equal(cache.forRow(B, row), undefined, 'report 42 on another service is another report');
    assert.equal(cache.forRow(A, toListSummary(report(43))), undefined);
  });

  it('gives nothing for a row a write changed since the list answer', () => {
    const cache = new RecentReports();
    cache.keep(A, [report(42)]);
    for (const changed of [
      { updated_at: '2026-11-21T08:00:00Z', privacy: 1 },
      { generated_at: '2026-11-21T08:00:00Z', updated_at: '2026-11-21T08:00:00Z', score: 80, result: 'good' },
      { privacy: 2 },
      { score: 62 },
    ]) {
      assert.equal(cache.forRow(A, toListSummary(report(42, changed))), undefined, JSON.stringify(changed));
    }
  });

  it("tells a re-analysis apart by the row's pass/fail counts when the service sends no dates", () => {
    const cache = new RecentReports();
    const undated = { generated_at: null, created_at: null, updated_at: null };
    cache.keep(A, [report(42, undated)]);
    assert.ok(cache.forRow(A, toListSummary(report(42, undated))));
    const reanalyzed = report(42, {
      ...undated,
      results: { title: { passed: false, importance: 'high', value: '' } },
    });
    assert.equal(cache.forRow(A, toListSummary(reanalyzed)), undefined, 'same fields, other counts');
  });

  it('keeps a later answer over an earlier one, and nothing from an answer without the analysis', () => {
    const cache = new RecentReports();
    cache.keep(A, [report(42)]);
    const newer = report(42, { privacy: 1, updated_at: '2026-11-21T08:00:00Z' });
    cache.keep(A, [newer]);
    assert.equal(cache.forRow(A, toListSummary(newer)), newer);
    assert.equal(cache.size, 1);

    // A service that leaves `results` out of its lists: the row's panel fetches the report.
    const bare = parseReport({ id: 42, url: 'https://shop.example/42', privacy: 1, updated_at: '2026-11-21T08:00:00Z' });
    cache.keep(A, [bare]);
    assert.equal(cache.forRow(A, toListSummary(bare)), undefined);
    assert.equal(cache.size, 0, 'the older answer went too');
    cache.keep(A, [toListSummary(newer)]);
    assert.equal(cache.size, 0, 'a summary is never kept as a whole report');
  });

  it('keeps at most its limit, the most recently listed', () => {
    const cache = new RecentReports(3);
    cache.keep(A, [report(1), report(2), report(3)]);
    cache.keep(A, [report(4), report(1)]);
    assert.equal(cache.size, 3);
    assert.equal(cache.forRow(A, toListSummary(report(2))), undefined, 'the oldest listed went');
    for (const id of [1, 3, 4]) assert.ok(cache.forRow(A, toListSummary(report(id))), String(id));
    assert.equal(RECENT_REPORTS_LIMIT, 100);

    const full = new RecentReports();
    cache.clear();
    full.keep(A, Array.from({ length: 250 }, (_, i) => report(i)));
    assert.equal(full.size, RECENT_REPORTS_LIMIT);
    assert.ok(full.forRow(A, toListSummary(report(249))));
    assert.equal(full.forRow(A, toListSummary(report(149))), undefined);
    assert.equal(cache.size, 0, 'clear forgets everything');
  });

  it('listedPage: the list keeps summaries, the cache the whole reports of the service the answer came from', () => {
    const cache = new RecentReports();
    const page: Page<Report> = { items: [report(7), report(8)], page: 1, perPage: 10, total: 2, lastPage: 1, hasMore: false };
    const kept = listedPage(page, cache, A);
    assert.deepEqual(
      kept.items.map((r) => [r.id, r.checks.length, r.summary?.all]),
      [
        [7, 0, 1],
        [8, 0, 1],
      ],
    );
    assert.equal(cache.forRow(A, kept.items[0]), page.items[0]);
    listedPage(page, cache, undefined);
    assert.equal(cache.size, 2, 'an answer from no known service is not kept');
  });

  it('sameVersion compares the dates by time and treats missing ones alike', () => {
    const bare = { id: 1, url: 'https://x.example/' };
    assert.ok(sameVersion(parseReport(bare), parseReport(bare)));
    assert.ok(!sameVersion(parseReport(bare), parseReport({ ...bare, updated_at: '2026-11-21T08:00:00Z' })));
    assert.ok(sameVersion(report(1, { updated_at: '2026-11-21 08:00:00' }), report(1, { updated_at: '2026-11-21T08:00:00Z' })));
  });
});
