/**
 * The insights loader against the reference service on loopback: sequential pages of 100,
 * newest first, the cap, a failure that keeps what was loaded and resumes, a project deleted
 * while loading, an empty project.
 */
import * as assert from 'node:assert/strict';
import { ApiError } from '../../../src/api/errors';
import type { ReportsApi } from '../../../src/api/types';
import { emptyProgress, loadReports, ProjectGoneError } from '../../../src/insights/load';
import { Harness } from '../api/harness';

interface ListAnswer {
  data: { id: number; project: string }[];
  meta: { total: number };
}

describe('insights loader (reference service)', function () {
  this.timeout(30_000);
  let h: Harness;
  let api: ReportsApi;

  before(async () => {
    h = await Harness.start({ seed: 0 });
    await h.admin('seed', { count: 260 });
    api = h.client();
  });
  after(() => h.stop());
  beforeEach(() => h.clean());

  async function serverList(query: string): Promise<ListAnswer> {
    const response = await fetch(`${h.url}/api/v1/reports?${query}`, {
      headers: { Authorization: 'Bearer prk_live_7f3a9cQ2-secret', Accept: 'application/json' },
    });
    return (await response.json()) as ListAnswer;
  }

  it('loads every report of all projects, pages of 100, newest first, page 1 before the others', async () => {
    const pages: number[] = [];
    const progress = await loadReports(api, emptyProgress(), {
      project: null,
      limit: 2000,
      onPage: (p) => pages.push(p.items.length),
    });
    assert.equal(progress.items.length, 260);
    assert.equal(progress.total, 260);
    assert.equal(progress.done, true);
    assert.equal(progress.capped, false);
    assert.deepEqual(pages.length, 3);
    assert.equal(pages[0], 100, 'page 1 first');
    assert.equal(pages[2], 260);
    const ids = progress.items.map((r) => Number(r.id));
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => b - a),
      'newest (highest id) first',
    );
    const requests = (await h.requests()).filter((r) => r.path === '/api/v1/reports');
    assert.deepEqual(
      requests.map((r) => r.query).sort((a, b) => a.page.localeCompare(b.page)),
      [1, 2, 3].map((page) => ({ sort_by: 'id', sort: 'desc', per_page: '100', page: String(page) })),
    );
    assert.equal(requests[0]?.query.page, '1');
  });

  it('ends when a page brings nothing new: a service that ignores page= does not keep it loading', async () => {
    const first = await serverList('sort_by=id&sort=desc&per_page=100&page=1');
    // Every list request answers page 1 with "more to come".
    await h.admin('faults', {
      method: 'GET',
      path: '/api/v1/reports',
      status: 200,
      body: { data: first.data, meta: { current_page: 1, last_page: 3, per_page: 100, total: 260 } },
      times: 50,
    });
    await h.admin('requests', undefined, 'DELETE');
    const progress = await loadReports(api, emptyProgress(), { project: null, limit: 2000 });
    assert.equal(progress.done, true);
    assert.equal(progress.items.length, 100);
    assert.equal((await h.requests()).filter((r) => r.path === '/api/v1/reports').length, 3, 'page 1, then the two it announced');
  });

  it('asks for one project with project= and counts what the service holds for it', async () => {
    const expected = await serverList('project=shop.localhost&per_page=10');
    assert.ok(expected.meta.total > 0, 'the seed has shop.localhost reports');
    const progress = await loadReports(api, emptyProgress(), { project: 'shop.localhost', limit: 2000 });
    assert.equal(progress.items.length, expected.meta.total);
    assert.ok(progress.items.every((r) => r.project === 'shop.localhost'));
    const requests = (await h.requests()).filter((r) => r.path === '/api/v1/reports');
    assert.ok(requests.every((r) => r.query.project === 'shop.localhost'));
  });

  it('keeps the newest `limit` reports and says the cap cut the data', async () => {
    const progress = await loadReports(api, emptyProgress(), { project: null, limit: 150 });
    assert.equal(progress.items.length, 150);
    assert.equal(progress.capped, true);
    assert.equal(progress.total, 260);
    assert.equal((await h.requests()).filter((r) => r.path === '/api/v1/reports').length, 2, 'stops at the cap');
    const newest = await serverList('sort_by=id&sort=desc&per_page=100');
    assert.deepEqual(
      progress.items.slice(0, 100).map((r) => r.id),
      newest.data.map((r) => r.id),
    );
  });

  it('keeps what was loaded when a page fails, and continues at that page on retry', async () => {
    // The first page answers; right before page 2 the service is told to fail it (502 HTML),
    // more times than the client retries.
    const failing: ReportsApi = {
      ...api,
      listReports: async (query, page, signal) => {
        if (page === 2)
          await h.fault({ method: 'GET', path: '/api/v1/reports', query: { page: '2' }, status: 502, body: 'html', times: 3 });
        return api.listReports(query, page, signal);
      },
    };
    const progress = emptyProgress();
    const first = await loadReports(failing, progress, { project: null, limit: 2000 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(first instanceof ApiError, `expected a failure, got ${String(first)}`);
    assert.equal(first.status, 502);
    assert.equal(progress.items.length, 160, 'pages 1 and 3 stay');
    assert.deepEqual([...progress.pages.keys()].sort(), [1, 3]);
    await h.admin('faults', undefined, 'DELETE');
    await loadReports(api, progress, { project: null, limit: 2000 });
    assert.equal(progress.items.length, 260);
    assert.equal(new Set(progress.items.map((r) => r.id)).size, 260, 'no report twice');
  });

  it('ends with ProjectGoneError when the project is deleted while loading', async () => {
    const expected = await serverList('project=blog.localhost&per_page=10');
    assert.ok(expected.meta.total > 0);
    // A client that deletes the project on the service right before page 2 is asked for.
    const deleting: ReportsApi = {
      ...api,
      listReports: async (query, page, signal) => {
        if (page === 2) await api.deleteProject('blog.localhost');
        return api.listReports(query, page, signal);
      },
    };
    // The loader asks for pages of 100: the project needs more than one page.
    for (let i = 0; i < 100; i++)
      await h.admin('reports', {
        report: { url: `https://blog.localhost/extra-${i}`, result: 'good', score: 90 },
      });
    await assert.rejects(
      loadReports(deleting, emptyProgress(), { project: 'blog.localhost', limit: 2000 }),
      ProjectGoneError,
    );
  });

  it('loads nothing for a project without reports, and is done', async () => {
    const progress = await loadReports(api, emptyProgress(), { project: 'nothing-here.localhost', limit: 2000 });
    assert.equal(progress.items.length, 0);
    assert.equal(progress.total, 0);
    assert.equal(progress.done, true);
  });
});
