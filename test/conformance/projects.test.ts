/** Contract §1-3 for projects: list, search, sorts, paging, and delete by URL-encoded name. */
import assert from 'node:assert/strict';
import { allPages, assertValidation, client, insertReport, ISO, ordinal, useService } from './helpers';

describe('projects (contract §1-3)', function () {
  this.timeout(20_000);
  const ctx = useService({ faults: true });
  const api = () => client(ctx.service);

  /** Reports in projects created at known times; some names need URL encoding. */
  const fixtures: [string, string][] = [
    ['alpha.test', '2026-01-05T10:00:00.000000Z'],
    ['Beta.test', '2026-01-03T10:00:00.000000Z'],
    ['my project/with slashes', '2026-01-04T10:00:00.000000Z'],
    ['name with spaces & symbols?#%', '2026-01-01T10:00:00.000000Z'],
    ['zeta.test', '2026-01-02T10:00:00.000000Z'],
    ['ünïcode.test', '2026-01-06T10:00:00.000000Z'],
    ['same-time-a.test', '2026-01-07T10:00:00.000000Z'],
    ['same-time-b.test', '2026-01-07T10:00:00.000000Z'],
  ];

  before(async () => {
    for (const [project, createdAt] of fixtures) {
      await insertReport(ctx.service, {
        url: `https://x.test/${encodeURIComponent(project)}`,
        project,
        created_at: createdAt,
      });
      // A later report does not change the project's date.
      await insertReport(ctx.service, {
        url: `https://x.test/${encodeURIComponent(project)}/2`,
        project,
        created_at: '2026-02-01T00:00:00.000000Z',
      });
    }
    for (let i = 0; i < 14; i++) {
      await insertReport(ctx.service, {
        url: `https://p${i}.paging.test/`,
        created_at: `2025-06-${String(10 + i).padStart(2, '0')}T00:00:00.000000Z`,
      });
    }
  });

  it('lists projects with the envelope, newest first, dated by their first report', async () => {
    const reply = await api().get('/api/v1/projects');
    assert.equal(reply.status, 200);
    const base = `${ctx.service.url}/api/v1/projects`;
    assert.deepEqual(reply.json.meta, {
      current_page: 1,
      from: 1,
      last_page: 3,
      path: base,
      per_page: 10,
      to: 10,
      total: 22,
    });
    assert.deepEqual(reply.json.links, {
      first: `${base}?page=1`,
      last: `${base}?page=3`,
      prev: null,
      next: `${base}?page=2`,
    });
    const first = reply.json.data[0];
    assert.deepEqual(Object.keys(first), ['project', 'created_at']);
    assert.match(first.created_at, ISO);
    // Same date: the name breaks the tie, in the same direction.
    assert.deepEqual(
      reply.json.data.slice(0, 4).map((p: { project: string }) => p.project),
      ['same-time-b.test', 'same-time-a.test', 'ünïcode.test', 'alpha.test'],
    );
    assert.equal(reply.json.data[3].created_at, '2026-01-05T10:00:00.000000Z');
  });

  for (const sortBy of ['created_at', 'project']) {
    for (const sort of ['asc', 'desc']) {
      it(`sorts by ${sortBy} ${sort} across pages without overlap`, async () => {
        const items = await allPages(api().get, `/api/v1/projects?sort_by=${sortBy}&sort=${sort}`, 10);
        assert.equal(items.length, 22);
        assert.equal(new Set(items.map((p) => p.project)).size, 22);
        const sign = sort === 'asc' ? 1 : -1;
        for (let i = 1; i < items.length; i++) {
          const [a, b] = [items[i - 1], items[i]];
          const order =
            sortBy === 'project'
              ? ordinal(a.project, b.project)
              : ordinal(a.created_at, b.created_at) || ordinal(a.project, b.project);
          assert.equal(order, -sign, `${a.project} then ${b.project}`);
        }
      });
    }
  }

  it('sorts names by code unit', async () => {
    const items = await allPages(api().get, '/api/v1/projects?sort_by=project&sort=asc&search=.test', 100);
    const names = items.map((p) => p.project);
    assert.ok(names.indexOf('Beta.test') < names.indexOf('alpha.test'), 'uppercase before lowercase');
    assert.equal(names[names.length - 1], 'ünïcode.test');
  });

  it('searches names case-insensitively, literally', async () => {
    const names = async (search: string): Promise<string[]> => {
      const reply = await api().get(
        `/api/v1/projects?per_page=100&sort_by=project&sort=asc&search=${encodeURIComponent(search)}`,
      );
      assert.equal(reply.status, 200);
      return reply.json.data.map((p: { project: string }) => p.project);
    };
    assert.deepEqual(await names('BETA'), ['Beta.test']);
    assert.deepEqual(await names('%'), ['name with spaces & symbols?#%']);
    assert.deepEqual(await names('/with'), ['my project/with slashes']);
    assert.deepEqual(await names('ÜNÏ'), ['ünïcode.test']);
    assert.deepEqual(await names('_'), []);
    assert.equal((await api().get('/api/v1/projects?search=paging&search_by=project')).json.meta.total, 14);
  });

  it('validates per_page, sort, sort_by and search_by', async () => {
    assertValidation(await api().get('/api/v1/projects?per_page=7'), ['per_page']);
    assertValidation(await api().get('/api/v1/projects?sort=sideways'), ['sort']);
    assertValidation(await api().get('/api/v1/projects?sort_by=score'), ['sort_by']);
    assertValidation(await api().get('/api/v1/projects?search_by=url'), ['search_by']);
    const past = await api().get('/api/v1/projects?page=4');
    assert.deepEqual(past.json.data, []);
    assert.equal(past.json.meta.from, null);
    assert.equal(past.json.meta.total, 22);
  });

  it('deletes a project whose name holds spaces, symbols and slashes, URL-encoded, with its reports', async () => {
    for (const name of ['name with spaces & symbols?#%', 'my project/with slashes']) {
      const before = await api().get(`/api/v1/reports?project=${encodeURIComponent(name)}`);
      assert.equal(before.json.meta.total, 2);
      const reply = await api().delete(`/api/v1/projects/${encodeURIComponent(name)}`);
      assert.equal(reply.status, 200, reply.text);
      assert.deepEqual(reply.json, { id: name, object: 'project', deleted: true });
      const after = await api().get(`/api/v1/reports?project=${encodeURIComponent(name)}`);
      assert.equal(after.json.meta.total, 0);
      const search = await api().get(`/api/v1/projects?search=${encodeURIComponent(name)}`);
      assert.deepEqual(search.json.data, []);
      const again = await api().delete(`/api/v1/projects/${encodeURIComponent(name)}`);
      assert.equal(again.status, 404);
      assert.deepEqual(again.json, { message: 'Resource not found.', status: 404 });
    }
  });

  it('does not take an unencoded slash as part of a name', async () => {
    const reply = await api().delete('/api/v1/projects/my project/with slashes'.replace(/ /g, '%20'));
    assert.equal(reply.status, 404);
  });

  it('answers 404 for an unknown project', async () => {
    const reply = await api().delete('/api/v1/projects/nope.test');
    assert.equal(reply.status, 404);
    assert.deepEqual(reply.json, { message: 'Resource not found.', status: 404 });
  });

  it('a project goes with its last report', async () => {
    const list = await api().get('/api/v1/reports?project=zeta.test');
    assert.equal(list.json.data.length, 2);
    await api().delete(`/api/v1/reports/${list.json.data[0].id}`);
    assert.equal((await api().get('/api/v1/projects?search=zeta')).json.meta.total, 1);
    await api().delete(`/api/v1/reports/${list.json.data[1].id}`);
    assert.equal((await api().get('/api/v1/projects?search=zeta')).json.meta.total, 0);
  });
});
