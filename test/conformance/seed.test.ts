/** `seed`: deterministic reports over several projects, pointing at the demo site. */
import assert from 'node:assert/strict';
import { startService } from '../service/server';
import { allPages, client, type Json, useService } from './helpers';

/**
 * The outcome of each check but the response time, which depends on the machine's load
 * (and with it the score and perhaps the result).
 */
function checksOf(results: Record<string, { passed: boolean; importance: string }>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(results)
      .filter(([name]) => name !== 'response_time')
      .map(([name, entry]) => [name, [entry.passed, entry.importance]]),
  );
}

/** A report without what depends on the port or on the time of a fetch. */
function comparable(report: Json, port: number): unknown {
  const { results, score: _score, result: _result, ...rest } = report;
  return { ...rest, url: String(rest.url).replace(`:${port}/`, ':PORT/'), checks: checksOf(results) };
}

describe('seed', function () {
  this.timeout(30_000);
  const ctx = useService({ seed: 120, keys: ['demo-key', 'second-key'] });

  it('creates N reports for the first key only', async () => {
    assert.equal((await client(ctx.service).get('/api/v1/reports')).json.meta.total, 120);
    assert.equal((await client(ctx.service, 'second-key').get('/api/v1/reports')).json.meta.total, 0);
  });

  it('spreads them over several projects, results, privacies, and URLs with query strings', async () => {
    const reports = await allPages(client(ctx.service).get, '/api/v1/reports');
    const projects = new Set(reports.map((r) => r.project));
    assert.ok(projects.size >= 5, [...projects].join(', '));
    assert.ok(projects.has('xn--caf-dma.localhost'), 'an international host, in punycode');
    assert.deepEqual(new Set(reports.map((r) => r.result)), new Set(['good', 'decent', 'bad']));
    assert.deepEqual(new Set(reports.map((r) => r.privacy)), new Set([0, 1, 2]));
    assert.ok(reports.filter((r) => r.url.includes('?')).length >= 10);
    for (const report of reports) {
      assert.match(report.url, new RegExp(`^http://[^/]+:${ctx.service.port}/demo-site/`));
      assert.ok(
        report.created_at <= report.generated_at && report.generated_at <= report.updated_at,
        String(report.id),
      );
    }
    const byId = [...reports].sort((a, b) => a.id - b.id);
    for (let i = 1; i < byId.length; i++) assert.ok(byId[i - 1].created_at < byId[i].created_at, 'ids follow creation');
  });

  it('points at pages that analyze for real: a re-analysis gives the same checks', async () => {
    const reports = (await client(ctx.service).get('/api/v1/reports?per_page=25')).json.data;
    for (const report of reports.slice(0, 5)) {
      const again = await client(ctx.service).patch(`/api/v1/reports/${report.id}`, { form: { update: 1 } });
      assert.equal(again.status, 200, again.text);
      assert.deepEqual(checksOf(again.json.data.results), checksOf(report.results), report.url);
    }
  });

  it('is deterministic', async () => {
    const other = await startService({ seed: 120, rateLimit: 0 });
    try {
      // The newest 25 may have been analyzed again by the test before.
      const mine = (await allPages(client(ctx.service).get, '/api/v1/reports?sort=asc')).slice(0, 95);
      const theirs = (await allPages(client(other).get, '/api/v1/reports?sort=asc')).slice(0, 95);
      assert.deepEqual(
        theirs.map((r) => comparable(r, other.port)),
        mine.map((r) => comparable(r, ctx.service.port)),
      );
    } finally {
      await other.stop();
    }
  });

  it('seeds 10,000 reports in a few seconds at most', async () => {
    const started = Date.now();
    const big = await startService({ seed: 10_000, rateLimit: 0 });
    try {
      const elapsed = Date.now() - started;
      assert.ok(elapsed < 5000, `${elapsed} ms`);
      const reply = await client(big).get('/api/v1/reports?per_page=100&sort_by=score&page=100');
      assert.equal(reply.json.data.length, 100);
      assert.equal(reply.json.meta.total, 10_000);
    } finally {
      await big.stop();
    }
  });
});
