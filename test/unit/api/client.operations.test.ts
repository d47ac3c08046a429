/**
 * Every operation with every parameter, against the real reference service: what the
 * client sends (as the service recorded it) and what it makes of the answers.
 */
import * as assert from 'node:assert/strict';
import type { Report, ReportsApi } from '../../../src/api/types';
import { Harness, KEY, OTHER_KEY, PASSWORD } from './harness';

describe('api client: operations', function () {
  this.timeout(20_000);
  let h: Harness;
  let api: ReportsApi;
  /** Headers of every request the client handed to fetch (a pass-through spy, not a mock). */
  let sent: Array<{ method: string; url: string; headers: Headers }>;

  before(async () => {
    h = await Harness.start();
  });
  after(async () => {
    h.auditSecrets();
    await h.stop();
  });
  beforeEach(async () => {
    await h.clean();
    sent = [];
    api = h.client({
      fetch: async (input, init) => {
        const request = input instanceof Request ? input : new Request(input, init);
        sent.push({ method: request.method, url: request.url, headers: new Headers(request.headers) });
        return fetch(input, init);
      },
    });
  });

  const demo = (page: string) => `${h.url}/demo-site/${page}`;

  it('listReports sends every query parameter plus page, and reads the page', async () => {
    const everything = await api.listReports({ perPage: 100 }, 1);
    const sample = everything.items.find((r) => r.project !== undefined && r.result !== undefined) as Report;
    const search = new URL(sample.url).pathname.slice(1, 8).toUpperCase(); // case-insensitive substring
    await h.admin('requests', undefined, 'DELETE');
    sent = [];

    const page = await api.listReports(
      {
        search,
        searchBy: 'url',
        project: sample.project,
        result: sample.result,
        sortBy: 'score',
        sort: 'asc',
        perPage: 25,
      },
      1,
    );
    const [recorded] = await h.requests();
    assert.equal(recorded?.method, 'GET');
    assert.equal(recorded?.path, '/api/v1/reports');
    assert.deepEqual(recorded?.query, {
      search,
      search_by: 'url',
      project: sample.project,
      result: sample.result,
      sort_by: 'score',
      sort: 'asc',
      per_page: '25',
      page: '1',
    });
    assert.equal(recorded?.hasAuthorization, true);
    assert.deepEqual(recorded?.bodyFields, []);
    assert.equal(page.page, 1);
    assert.equal(page.perPage, 25);
    assert.ok(
      page.items.some((r) => r.id === sample.id),
      'the sample matches its own filters',
    );
    for (const r of page.items) {
      assert.equal(r.project, sample.project);
      assert.equal(r.result, sample.result);
      assert.ok(r.url.toUpperCase().includes(search));
    }
    const scores = page.items.map((r) => r.score ?? -1);
    assert.deepEqual(
      scores,
      [...scores].sort((a, b) => a - b),
    );

    const second = await api.listReports({ project: sample.project, perPage: 10 }, 2);
    assert.equal((await h.requests()).at(-1)?.query.page, '2');
    assert.equal(second.page, 2);

    const headers = sent[0]?.headers;
    assert.equal(headers?.get('accept'), 'application/json');
    assert.equal(headers?.get('authorization'), `Bearer ${KEY}`);
    assert.ok(!sent[0]?.url.includes(KEY), 'the key is never part of the URL');
  });

  it('listReports leaves out undefined parameters and pages through the seeded reports', async () => {
    const first = await api.listReports({}, 1);
    const [recorded] = await h.requests();
    assert.equal(recorded?.rawQuery, '?page=1');
    assert.equal(first.perPage, 10);
    assert.equal(first.items.length, 10);
    assert.equal(first.total, 30);
    assert.equal(first.lastPage, 3);
    assert.equal(first.hasMore, true);

    const seen = new Set<string>();
    for (let page = 1; page <= 3; page++) {
      const answer = await api.listReports({ perPage: 10, sortBy: 'id', sort: 'desc' }, page);
      assert.equal(answer.hasMore, page < 3, `hasMore on page ${page}`);
      for (const report of answer.items) seen.add(String(report.id));
    }
    assert.equal(seen.size, 30, 'pages never overlap and cover everything');

    const past = await api.listReports({}, 9);
    assert.deepEqual([past.items.length, past.hasMore], [0, false]);
  });

  it('listReports: results come sorted as asked', async () => {
    const asc = await api.listReports({ sortBy: 'score', sort: 'asc', perPage: 100 }, 1);
    const scores = asc.items.map((r) => r.score ?? -1);
    assert.deepEqual(
      scores,
      [...scores].sort((a, b) => a - b),
    );
    const byUrl = await api.listReports({ sortBy: 'url', sort: 'desc', perPage: 50 }, 1);
    const urls = byUrl.items.map((r) => r.url);
    assert.deepEqual(urls, [...urls].sort().reverse());
  });

  it('getReport answers the report, with checks and dates', async () => {
    const { items } = await api.listReports({ perPage: 10 }, 1);
    const listed = items[0];
    const report = await api.getReport(listed.id);
    assert.equal(report.id, listed.id);
    assert.equal(report.url, listed.url);
    assert.ok(report.checks.length > 0);
    assert.ok(report.generatedAt instanceof Date && !Number.isNaN(report.generatedAt.getTime()));
    assert.ok(['good', 'decent', 'bad'].includes(report.result ?? ''));
    assert.equal(typeof report.score, 'number');
    const recorded = await h.requests();
    assert.equal(recorded.at(-1)?.path, `/api/v1/reports/${listed.id}`);
    assert.equal(recorded.at(-1)?.rawQuery, '');
  });

  it('createReport posts a form; the password only goes with privacy 2', async () => {
    const created = await api.createReport({ url: demo('good.html'), privacy: 2, password: PASSWORD });
    assert.equal(created.url, demo('good.html'));
    assert.equal(created.privacy, 2);
    assert.equal(created.project, '127.0.0.1');
    assert.ok(created.checks.length > 0);
    assert.equal('password' in created.raw, false);

    await api.createReport({ url: demo('bad.html'), privacy: 1, password: PASSWORD });
    await api.createReport({ url: demo('mediocre.html') });
    const recorded = await h.requests();
    assert.deepEqual(
      recorded.map((r) => [r.method, r.path, r.bodyFields]),
      [
        ['POST', '/api/v1/reports', ['url', 'privacy', 'password']],
        ['POST', '/api/v1/reports', ['url', 'privacy']],
        ['POST', '/api/v1/reports', ['url']],
      ],
    );
    assert.ok(recorded.every((r) => r.hasAuthorization && r.status === 201));
    assert.match(sent[0]?.headers.get('content-type') ?? '', /^application\/x-www-form-urlencoded/);
    assert.equal(sent[0]?.headers.get('accept'), 'application/json');
    const defaults = await api.getReport((await api.listReports({ search: 'mediocre', perPage: 10 }, 1)).items[0].id);
    assert.equal(defaults.privacy, 0);
  });

  it('a 2xx report body that echoes the password, at the top or inside: none of it is kept', async () => {
    const echoed = {
      id: 9,
      url: demo('good.html'),
      privacy: 2,
      password: PASSWORD,
      results: { title: { passed: true, importance: 'high', value: { password: PASSWORD, text: 'ok' } } },
      meta: [{ owner: { password: PASSWORD } }],
    };
    await h.fault({ method: 'POST', path: '/api/v1/reports', status: 201, body: { data: echoed } });
    const created = await api.createReport({ url: demo('good.html'), privacy: 2, password: PASSWORD });
    await h.fault({ method: 'PATCH', status: 200, body: { data: { ...echoed, results: JSON.stringify(echoed.results) } } });
    const updated = await api.updateReport(9, { privacy: 2, password: PASSWORD });
    for (const report of [created, updated]) {
      const kept = JSON.stringify(report);
      assert.ok(!kept.includes(PASSWORD) && !kept.includes('"password"'), kept);
      assert.deepEqual(report.checks[0]?.value, { text: 'ok' });
    }
  });

  it('updateReport: privacy, password only with 2, update=1 runs the analysis again', async () => {
    const report = await api.createReport({ url: demo('good.html') });
    await h.admin('requests', undefined, 'DELETE');

    const shared = await api.updateReport(report.id, { privacy: 2, password: PASSWORD });
    assert.equal(shared.privacy, 2);
    const closed = await api.updateReport(report.id, { privacy: 1, password: PASSWORD });
    assert.equal(closed.privacy, 1);
    await new Promise((resolve) => setTimeout(resolve, 1100)); // generated_at has whole seconds
    const rerun = await api.updateReport(report.id, { update: true });
    assert.ok(rerun.generatedAt && report.generatedAt && rerun.generatedAt > report.generatedAt, 'a new generated_at');
    await api.updateReport(report.id, { update: false, privacy: 0 });

    const recorded = await h.requests();
    assert.deepEqual(
      recorded.map((r) => [r.method, r.path, r.bodyFields]),
      [
        ['PATCH', `/api/v1/reports/${report.id}`, ['privacy', 'password']],
        ['PATCH', `/api/v1/reports/${report.id}`, ['privacy']],
        ['PATCH', `/api/v1/reports/${report.id}`, ['update']],
        ['PATCH', `/api/v1/reports/${report.id}`, ['privacy']],
      ],
    );
  });

  it('deleteReport deletes; the report is then not found', async () => {
    const report = await api.createReport({ url: demo('bad.html') });
    await api.deleteReport(report.id);
    const error = await h.failure(api.getReport(report.id), 'notFound');
    assert.equal(error.status, 404);
    const recorded = await h.requests();
    assert.deepEqual(
      recorded.slice(-2).map((r) => [r.method, r.path, r.status]),
      [
        ['DELETE', `/api/v1/reports/${report.id}`, 200],
        ['GET', `/api/v1/reports/${report.id}`, 404],
      ],
    );
  });

  it('listProjects sends every query parameter plus page', async () => {
    const page = await api.listProjects(
      { search: '.localhost', searchBy: 'project', sortBy: 'project', sort: 'asc', perPage: 50 },
      1,
    );
    const [recorded] = await h.requests();
    assert.equal(recorded?.path, '/api/v1/projects');
    assert.deepEqual(recorded?.query, {
      search: '.localhost',
      search_by: 'project',
      sort_by: 'project',
      sort: 'asc',
      per_page: '50',
      page: '1',
    });
    assert.ok(page.items.length > 0);
    assert.ok(page.items.every((p) => p.name.includes('.localhost')));
    const names = page.items.map((p) => p.name);
    assert.deepEqual(names, [...names].sort());
    assert.ok(page.items.every((p) => p.createdAt instanceof Date));

    const all = await api.listProjects({}, 1);
    assert.equal((await h.requests()).at(-1)?.rawQuery, '?page=1');
    assert.equal(all.perPage, 10);
  });

  it('deleteProject URL-encodes the name ("/" as %2F) and deletes its reports', async () => {
    const name = 'odd/name?#% é';
    await h.admin('reports', { key: KEY, report: { url: 'http://odd.localhost/x', project: name } });
    const before = await api.listProjects({ search: 'odd/', perPage: 10 }, 1);
    assert.deepEqual(
      before.items.map((p) => p.name),
      [name],
    );

    await api.deleteProject(name);
    const recorded = await h.requests();
    const deletion = recorded.find((r) => r.method === 'DELETE');
    assert.equal(deletion?.path, `/api/v1/projects/${encodeURIComponent(name)}`);
    assert.ok(deletion?.path.includes('odd%2Fname%3F%23%25%20%C3%A9'));
    const after = await api.listProjects({ search: 'odd/', perPage: 10 }, 1);
    assert.equal(after.items.length, 0);
    await h.failure(api.deleteProject(name), 'notFound');
  });

  it('names that cannot be a path segment fail without a request', async () => {
    for (const name of ['', '.', '..']) {
      const error = await h.failure(api.deleteProject(name), 'validation');
      assert.ok(error.fieldMessages('project').length === 1);
    }
    await h.failure(api.getReport('..'), 'validation');
    assert.deepEqual(await h.requests(), []);
  });

  it('report ids sent as strings are kept and used as sent', async () => {
    await h.shape({ ids: 'string' });
    const { items } = await api.listReports({ perPage: 10 }, 1);
    const id = items[0]?.id;
    assert.equal(typeof id, 'string');
    const report = await api.getReport(id);
    assert.equal(report.id, id);
  });

  it('each account sees its own reports; the key is asked for before every request', async () => {
    let key = KEY;
    const switching = h.client({ getKey: async () => key });
    const mine = await switching.listReports({}, 1);
    key = OTHER_KEY;
    const theirs = await switching.listReports({}, 1);
    assert.ok((mine.total ?? 0) >= 30, 'the first account owns the seeded reports');
    assert.equal(theirs.total, 0, 'the other account has none');
    assert.deepEqual(
      (await h.requests()).map((r) => r.hasAuthorization),
      [true, true],
    );
  });

  it('takes the platform fetch once, at start: a wrapper another extension installs later sees no request', async () => {
    const original = globalThis.fetch;
    const seen: string[] = [];
    globalThis.fetch = (input, init) => {
      seen.push(input instanceof Request ? input.url : String(input));
      return original(input, init);
    };
    try {
      const page = await h.client().listReports({}, 1);
      assert.ok(page.items.length > 0);
    } finally {
      globalThis.fetch = original;
    }
    assert.deepEqual(seen, []);
  });

  it('a base URL with a trailing slash works the same', async () => {
    const slashed = h.client({ baseUrl: `${h.url}/` });
    await slashed.listReports({}, 1);
    assert.equal((await h.requests())[0]?.path, '/api/v1/reports');
  });

  it('logs one entry per request: method, path with query, status, duration, retries', async () => {
    await api.listReports({ search: 'x y', perPage: 10 }, 1);
    await h.failure(api.getReport(987654), 'notFound');
    assert.equal(h.log.length, 2);
    const [list, missing] = h.log;
    assert.deepEqual(
      { ...list, durationMs: 0 },
      { method: 'GET', path: '/api/v1/reports?search=x+y&per_page=10&page=1', status: 200, durationMs: 0, retries: 0 },
    );
    assert.ok((list?.durationMs ?? -1) >= 0);
    assert.deepEqual(
      { ...missing, durationMs: 0 },
      { method: 'GET', path: '/api/v1/reports/987654', status: 404, durationMs: 0, retries: 0 },
    );
  });
});
