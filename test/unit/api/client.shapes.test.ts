/**
 * The tolerant answer shapes of contract §5, switched on in the reference service: the
 * client reads each into the same normalized values.
 */
import * as assert from 'node:assert/strict';
import type { Report, ReportsApi } from '../../../src/api/types';
import { Harness, KEY } from './harness';

describe('api client: tolerant shapes (contract §5)', function () {
  this.timeout(20_000);
  let h: Harness;
  let api: ReportsApi;
  /** The first page as read in the canonical shape, to compare against. */
  let canonical: Report[];

  before(async () => {
    h = await Harness.start({ seed: 23 });
    await h.clean();
    api = h.client();
    canonical = (await api.listReports({ perPage: 10, sortBy: 'id', sort: 'asc' }, 1)).items;
  });
  after(async () => {
    h.auditSecrets();
    await h.stop();
  });
  beforeEach(async () => {
    await h.clean();
  });

  const normalized = (r: Report) => ({
    id: String(r.id),
    url: r.url,
    project: r.project,
    result: r.result,
    score: r.score,
    privacy: r.privacy,
    checks: r.checks,
    generatedAt: r.generatedAt?.getTime(),
    createdAt: r.createdAt?.getTime(),
  });

  it('ids as strings, scores as strings, SQL dates: same values, ids kept as sent', async () => {
    await h.shape({ ids: 'string', scores: 'string', dates: 'sql' });
    const page = await api.listReports({ perPage: 10, sortBy: 'id', sort: 'asc' }, 1);
    assert.ok(page.items.every((r) => typeof r.id === 'string'));
    assert.ok(page.items.every((r) => typeof r.raw.score === 'string' && typeof r.score === 'number'));
    assert.ok(
      page.items.every(
        (r) => typeof r.raw.generated_at === 'string' && /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(r.raw.generated_at),
      ),
    );
    // SQL dates carry whole seconds: compare at that precision.
    const seconds = (t: number | undefined) => (t === undefined ? undefined : Math.floor(t / 1000));
    assert.deepEqual(
      page.items.map((r) => ({
        ...normalized(r),
        generatedAt: seconds(r.generatedAt?.getTime()),
        createdAt: seconds(r.createdAt?.getTime()),
      })),
      canonical.map((r) => ({
        ...normalized(r),
        generatedAt: seconds(r.generatedAt?.getTime()),
        createdAt: seconds(r.createdAt?.getTime()),
      })),
    );
    const one = await api.getReport(page.items[0].id);
    assert.equal(one.id, page.items[0].id);
    assert.equal(typeof one.id, 'string');
  });

  it('scores missing: undefined, never NaN', async () => {
    await h.shape({ scores: 'missing' });
    const page = await api.listReports({ perPage: 10 }, 1);
    assert.ok(page.items.length > 0);
    assert.ok(page.items.every((r) => r.score === undefined && !('score' in r.raw)));
  });

  it('a list with only links: last page from links, more from links.next', async () => {
    await h.shape({ list: 'links' });
    const first = await api.listReports({ perPage: 10 }, 1);
    assert.deepEqual([first.items.length, first.total, first.lastPage, first.hasMore], [10, undefined, 3, true]);
    const last = await api.listReports({ perPage: 10 }, 3);
    assert.deepEqual([last.items.length, last.hasMore], [3, false]);
    const projects = await api.listProjects({ perPage: 10 }, 1);
    assert.ok(projects.items.length > 0);
    assert.equal(projects.total, undefined);
  });

  it('a list with data only: a short page is the last', async () => {
    await h.shape({ list: 'data' });
    const first = await api.listReports({ perPage: 10 }, 1);
    assert.deepEqual(
      [first.items.length, first.total, first.lastPage, first.hasMore],
      [10, undefined, undefined, true],
    );
    const last = await api.listReports({ perPage: 10 }, 3);
    assert.deepEqual([last.items.length, last.hasMore], [3, false]);
    // Paging is by `page`, so every page arrives once.
    const second = await api.listReports({ perPage: 10 }, 2);
    const ids = new Set([...first.items, ...second.items, ...last.items].map((r) => String(r.id)));
    assert.equal(ids.size, 23);
  });

  it('a bare array: read as the items of the page', async () => {
    await h.shape({ list: 'array', ids: 'string' });
    const page = await api.listReports({ perPage: 25 }, 1);
    assert.deepEqual([page.items.length, page.perPage, page.hasMore], [23, 25, false]);
    const projects = await api.listProjects({ perPage: 100 }, 1);
    assert.ok(projects.items.length > 0 && projects.items.every((p) => typeof p.name === 'string'));
  });

  for (const deleteStatus of [200, 202, 204] as const) {
    it(`deletes answered ${deleteStatus} succeed`, async () => {
      await h.shape({ deleteStatus });
      const project = `shape-${deleteStatus}.localhost`;
      const inserted = await h.admin<Record<string, unknown>>('reports', {
        key: KEY,
        report: { url: `http://${project}/a` },
      });
      const report = (inserted.data ?? inserted) as { id: number };
      await h.admin('reports', { key: KEY, report: { url: `http://${project}/b` } });
      await api.deleteReport(report.id);
      await api.deleteProject(project);
      const recorded = await h.requests();
      assert.deepEqual(
        recorded.filter((r) => r.method === 'DELETE').map((r) => r.status),
        [deleteStatus, deleteStatus],
      );
      assert.equal((await api.listProjects({ search: project }, 1)).items.length, 0);
    });
  }

  it('a delete answered 200 with a body that is not JSON still succeeds', async () => {
    const inserted = await h.admin<Record<string, unknown>>('reports', {
      key: KEY,
      report: { url: 'http://any-body.localhost/' },
    });
    const report = (inserted.data ?? inserted) as { id: number };
    await h.fault({ method: 'DELETE', status: 200, body: 'html' });
    await api.deleteReport(report.id);
  });

  it('hostile and unknown fields of a raw report are kept as data', async () => {
    const hostile = {
      url: 'http://hostile.localhost/<img src=x onerror=alert(1)>',
      result: 'excellent',
      score: 'NaN',
      privacy: '2',
      generated_at: 'not a date',
      results: { '<b>x</b>': { passed: 'yes', importance: 'urgent', value: '<script>alert(1)</script>' } },
      lighthouse: { performance: 0.93 },
    };
    const inserted = await h.admin<Record<string, unknown>>('reports', { key: KEY, report: hostile });
    const id = ((inserted.data ?? inserted) as { id: number }).id;
    const report = await api.getReport(id);
    assert.equal(report.url, hostile.url);
    assert.equal(report.result, undefined);
    assert.equal(report.score, undefined);
    assert.equal(report.privacy, 2);
    assert.equal(report.generatedAt, undefined);
    assert.deepEqual(report.checks, [
      { name: '<b>x</b>', passed: undefined, importance: undefined, value: '<script>alert(1)</script>' },
    ]);
    assert.deepEqual(report.raw.lighthouse, { performance: 0.93 });
  });
});
