/** The test-facing admin API: faults, answer shapes (contract §5), the request log, raw reports. */
import assert from 'node:assert/strict';
import { adminReply, call, client, insertReport, useService, type Json, type Reply } from './helpers';

describe('admin API off (no faults option)', function () {
  this.timeout(20_000);
  const ctx = useService();

  it('is unreachable, and the X-Fault header does nothing', async () => {
    for (const [method, path] of [
      ['GET', '/__admin/requests'],
      ['POST', '/__admin/faults'],
      ['POST', '/__admin/shape'],
      ['POST', '/__admin/reports'],
      ['POST', '/__admin/reset'],
      ['GET', '/__admin'],
    ]) {
      const reply = await call(ctx.service.url, method, path, { json: { status: 500 } });
      assert.equal(reply.status, 404, `${method} ${path}`);
      assert.equal(typeof reply.json.message, 'string');
    }
    const reply = await client(ctx.service).get('/api/v1/reports', { headers: { 'X-Fault': '{"status":500}' } });
    assert.equal(reply.status, 200);
  });
});

describe('admin API', function () {
  this.timeout(20_000);
  const ctx = useService({ faults: true, keys: ['demo-key', 'second-key'] });
  const api = () => client(ctx.service);
  const fault = (spec: unknown): Promise<Reply> => adminReply(ctx.service, 'POST', '/__admin/faults', spec);

  beforeEach(async () => {
    await adminReply(ctx.service, 'POST', '/__admin/reset');
  });

  describe('faults', () => {
    it('answers a status with its canonical JSON body, once by default', async () => {
      assert.equal((await fault({ status: 503 })).status, 200);
      const reply = await api().get('/api/v1/reports');
      assert.equal(reply.status, 503);
      assert.deepEqual(reply.json, { message: 'Server Error' });
      assert.equal((await api().get('/api/v1/reports')).status, 200);
      const canonical: [number, unknown][] = [
        [401, { message: 'Unauthenticated.' }],
        [403, { message: 'This action is unauthorized.' }],
        [404, { message: 'Resource not found.', status: 404 }],
        [429, { message: 'Too Many Attempts.' }],
        [500, { message: 'Server Error' }],
      ];
      for (const [status, body] of canonical) {
        await fault({ status, body: 'json' });
        const answer = await api().get('/api/v1/reports');
        assert.equal(answer.status, status);
        assert.deepEqual(answer.json, body);
      }
    });

    it('answers 429 with Retry-After and rate headers, which headers can override', async () => {
      await fault({ status: 429, headers: { 'Retry-After': '7' } });
      const reply = await api().get('/api/v1/reports');
      assert.equal(reply.status, 429);
      assert.equal(reply.headers['retry-after'], '7');
      assert.equal(reply.headers['x-ratelimit-remaining'], '0');
    });

    it('answers an HTML page, truncated JSON, malformed JSON, an empty body, a raw text, any JSON', async () => {
      await fault({ status: 502, body: 'html' });
      const html = await api().get('/api/v1/reports');
      assert.equal(html.status, 502);
      assert.match(String(html.headers['content-type']), /^text\/html/);
      assert.match(html.text, /<html>.*502 Bad Gateway/s);

      for (const body of ['truncated', 'malformed']) {
        await fault({ body });
        const reply = await api().get('/api/v1/reports');
        assert.equal(reply.status, 200);
        assert.match(String(reply.headers['content-type']), /^application\/json/);
        assert.throws(() => JSON.parse(reply.text), SyntaxError);
      }

      await fault({ status: 200, body: 'empty' });
      const empty = await api().get('/api/v1/reports');
      assert.equal(empty.status, 200);
      assert.equal(empty.text, '');
      assert.equal(empty.headers['content-length'], '0');

      await fault({ status: 500, body: { raw: 'oops <b>' }, headers: { 'Content-Type': 'text/plain' } });
      const raw = await api().get('/api/v1/reports');
      assert.equal(raw.text, 'oops <b>');
      assert.equal(raw.headers['content-type'], 'text/plain');

      await fault({ body: { data: [{ id: '7', score: 'n/a' }], extra: true } });
      const custom = await api().get('/api/v1/reports');
      assert.equal(custom.status, 200);
      assert.deepEqual(custom.json, { data: [{ id: '7', score: 'n/a' }], extra: true });
    });

    it('matches method and path prefix, and applies `times` times', async () => {
      await fault({ method: 'post', path: '/api/v1/reports', status: 500, times: 2 });
      assert.equal((await api().get('/api/v1/reports')).status, 200, 'GET does not match');
      assert.equal((await api().get('/api/v1/projects')).status, 200);
      assert.equal((await api().post('/api/v1/reports', { form: { url: 'x' } })).status, 500);
      const listed = await adminReply(ctx.service, 'GET', '/__admin/faults');
      assert.equal(listed.json[0].left, 1);
      assert.equal((await api().post('/api/v1/reports', { form: { url: 'x' } })).status, 500);
      assert.equal((await api().post('/api/v1/reports', { form: { url: 'x' } })).status, 422);
      await fault({ path: '/api/v1/projects', status: 418 });
      assert.equal((await api().get('/api/v1/reports')).status, 200);
      assert.equal((await api().get('/api/v1/projects?page=2')).status, 418);
    });

    it('matches a query: only requests whose query has each parameter with its value', async () => {
      await fault({ method: 'GET', path: '/api/v1/reports', query: { page: '2' }, status: 502, times: 2 });
      assert.equal((await api().get('/api/v1/reports?per_page=10')).status, 200, 'no page');
      assert.equal((await api().get('/api/v1/reports?page=1&per_page=10')).status, 200);
      assert.equal((await api().get('/api/v1/reports?per_page=10&page=2')).status, 502);
      assert.equal((await api().get('/api/v1/reports?page=2')).status, 502);
      assert.equal((await api().get('/api/v1/reports?page=2')).status, 200, 'used up');
    });

    it('without a path waits for an API request: the analysis of a store does not use it up', async () => {
      await fault({ method: 'GET', status: 500 });
      const url = `http://shop.localhost:${ctx.service.port}/demo-site/good.html`;
      assert.equal((await api().post('/api/v1/reports', { form: { url } })).status, 201);
      assert.equal((await api().get('/api/v1/reports')).status, 500);
    });

    it('queues several faults in order, and DELETE clears them', async () => {
      const queued = await fault([{ status: 500 }, { status: 502, body: 'html' }]);
      assert.equal(queued.json.queued, 2);
      assert.equal((await api().get('/api/v1/reports')).status, 500);
      assert.equal((await api().get('/api/v1/reports')).status, 502);
      await fault({ status: 500, times: 5 });
      assert.deepEqual((await adminReply(ctx.service, 'DELETE', '/__admin/faults')).json, { cleared: 1 });
      assert.equal((await api().get('/api/v1/reports')).status, 200);
    });

    it('delays an answer, alone or before a fault', async () => {
      await fault({ delayMs: 300 });
      let started = Date.now();
      const slow = await api().get('/api/v1/reports');
      assert.equal(slow.status, 200);
      assert.ok(Date.now() - started >= 290);
      await fault({ delayMs: 200, status: 504 });
      started = Date.now();
      assert.equal((await api().get('/api/v1/reports')).status, 504);
      assert.ok(Date.now() - started >= 190);
    });

    it('adds headers to a normal answer', async () => {
      await fault({ headers: { 'X-Extra': 'yes' } });
      const reply = await api().get('/api/v1/reports');
      assert.equal(reply.status, 200);
      assert.equal(reply.headers['x-extra'], 'yes');
      assert.ok(Array.isArray(reply.json.data));
    });

    it('redirects to another origin with the path and query', async () => {
      await fault({ redirectTo: 'http://elsewhere.localhost:9/' });
      const reply = await api().get('/api/v1/reports?page=2&search=a%20b');
      assert.equal(reply.status, 302);
      assert.equal(reply.headers.location, 'http://elsewhere.localhost:9/api/v1/reports?page=2&search=a%20b');
      await fault({ redirectTo: 'http://other.localhost:9', status: 307 });
      assert.equal((await api().post('/api/v1/reports')).status, 307);
    });

    it('drops the connection without an answer', async () => {
      await fault({ drop: true });
      await assert.rejects(
        api().get('/api/v1/reports'),
        (error: NodeJS.ErrnoException) => error.code === 'ECONNRESET' || /socket hang up/.test(error.message),
      );
      assert.equal((await api().get('/api/v1/reports')).status, 200);
    });

    it('takes a fault per request in the X-Fault header', async () => {
      const reply = await api().get('/api/v1/reports', {
        headers: { 'X-Fault': JSON.stringify({ status: 500, body: 'html' }) },
      });
      assert.equal(reply.status, 500);
      assert.match(reply.text, /<html>/);
      const bad = await api().get('/api/v1/reports', { headers: { 'X-Fault': '{nope' } });
      assert.equal(bad.status, 400);
      assert.equal((await api().get('/api/v1/reports')).status, 200);
    });

    it('can break the demo site, so a store meets a failing page', async () => {
      await fault({ path: '/demo-site/good.html', status: 503 });
      const reply = await api().post('/api/v1/reports', {
        form: { url: `http://shop.localhost:${ctx.service.port}/demo-site/good.html` },
      });
      assert.equal(reply.status, 422);
      assert.match(reply.json.errors.url[0], /503/);
    });

    it('rejects an invalid fault with 422', async () => {
      for (const spec of [
        { status: 99 },
        { body: 'xml' },
        { times: 0 },
        { redirectTo: 'ftp://x' },
        { delayMs: -1 },
        { headers: { 'Bad Header': 'x' } },
        { drop: 'yes' },
        { query: 'page=2' },
        { query: { page: 2 } },
        [1],
      ]) {
        const reply = await fault(spec);
        assert.equal(reply.status, 422, JSON.stringify(spec));
        assert.equal(typeof reply.json.message, 'string');
      }
      assert.deepEqual((await adminReply(ctx.service, 'GET', '/__admin/faults')).json, []);
    });
  });

  describe('shape', () => {
    let id: number;
    beforeEach(async () => {
      id = await insertReport(ctx.service, {
        url: 'https://shape.test/a',
        result: 'good',
        score: 81.5,
        results: {},
        generated_at: '2026-11-20T10:15:30.123456Z',
        created_at: '2026-11-20T10:15:29.000000Z',
        updated_at: '2026-11-20T10:15:30.000000Z',
      });
      for (let i = 0; i < 11; i++) await insertReport(ctx.service, { url: `https://shape.test/${i}` });
    });

    it('starts canonical and can be read and reset', async () => {
      const canonical = { ids: 'number', scores: 'number', dates: 'iso', list: 'laravel', deleteStatus: 200 };
      assert.deepEqual((await adminReply(ctx.service, 'GET', '/__admin/shape')).json, canonical);
      await adminReply(ctx.service, 'POST', '/__admin/shape', { ids: 'string' });
      assert.deepEqual((await adminReply(ctx.service, 'DELETE', '/__admin/shape')).json, canonical);
    });

    it('ids as strings, scores as numeric strings, dates as SQL', async () => {
      const changed = await adminReply(ctx.service, 'POST', '/__admin/shape', {
        ids: 'string',
        scores: 'string',
        dates: 'sql',
      });
      assert.equal(changed.json.ids, 'string');
      const report = (await api().get(`/api/v1/reports/${id}`)).json.data;
      assert.equal(report.id, String(id));
      assert.equal(report.score, '81.50');
      assert.equal(report.generated_at, '2026-11-20 10:15:30');
      assert.equal(report.created_at, '2026-11-20 10:15:29');
      const project = (await api().get('/api/v1/projects')).json.data[0];
      assert.match(project.created_at, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      const deleted = await api().delete(`/api/v1/reports/${id}`);
      assert.deepEqual(deleted.json, { id: String(id), object: 'report', deleted: true });
    });

    it('scores missing', async () => {
      await adminReply(ctx.service, 'POST', '/__admin/shape', { scores: 'missing' });
      const report = (await api().get(`/api/v1/reports/${id}`)).json.data;
      assert.ok(!('score' in report));
      assert.equal(report.result, 'good');
    });

    it('lists with links only, data only, or a bare array', async () => {
      await adminReply(ctx.service, 'POST', '/__admin/shape', { list: 'links' });
      const links = (await api().get('/api/v1/reports')).json;
      assert.deepEqual(Object.keys(links), ['data', 'links']);
      assert.equal(links.links.next, `${ctx.service.url}/api/v1/reports?page=2`);
      await adminReply(ctx.service, 'POST', '/__admin/shape', { list: 'data' });
      const data = (await api().get('/api/v1/projects')).json;
      assert.deepEqual(Object.keys(data), ['data']);
      await adminReply(ctx.service, 'POST', '/__admin/shape', { list: 'array' });
      const array = (await api().get('/api/v1/reports?page=2')).json;
      assert.ok(Array.isArray(array));
      assert.equal(array.length, 2);
    });

    it('answers deletes with 202 and a body, or 204 without one', async () => {
      await adminReply(ctx.service, 'POST', '/__admin/shape', { deleteStatus: 202 });
      const accepted = await api().delete(`/api/v1/reports/${id}`);
      assert.equal(accepted.status, 202);
      assert.deepEqual(accepted.json, { id, object: 'report', deleted: true });
      await adminReply(ctx.service, 'POST', '/__admin/shape', { deleteStatus: 204 });
      const none = await api().delete('/api/v1/projects/shape.test');
      assert.equal(none.status, 204);
      assert.equal(none.text, '');
      assert.equal((await api().get('/api/v1/reports')).json.meta.total, 0);
    });

    it('rejects unknown shape values with 422', async () => {
      const reply = await adminReply(ctx.service, 'POST', '/__admin/shape', { ids: 'uuid', deleteStatus: 201 });
      assert.equal(reply.status, 422);
      assert.deepEqual(Object.keys(reply.json.errors).sort(), ['deleteStatus', 'ids']);
    });
  });

  describe('request log', () => {
    it('records API requests: method, path, query, whether a key came, body field names only', async () => {
      await api().get('/api/v1/reports?page=2&search=a+b');
      await api().post('/api/v1/reports', { form: { url: 'http://a.test/', privacy: 2, password: 'hunter2' } });
      await client(ctx.service, null).get('/api/v1/projects');
      await call(ctx.service.url, 'GET', '/demo-site/good.html');
      const log = (await adminReply(ctx.service, 'GET', '/__admin/requests')).json;
      assert.equal(log.length, 3);
      assert.deepEqual(
        log.map((r: Record<string, unknown>) => [
          r.method,
          r.path,
          r.query,
          r.hasAuthorization,
          r.bodyFields,
          r.status,
        ]),
        [
          ['GET', '/api/v1/reports', { page: '2', search: 'a b' }, true, [], 200],
          ['POST', '/api/v1/reports', {}, true, ['url', 'privacy', 'password'], 422],
          ['GET', '/api/v1/projects', {}, false, [], 401],
        ],
      );
      assert.equal(log[0].rawQuery, '?page=2&search=a+b');
      const text = JSON.stringify(log);
      assert.ok(!text.includes('hunter2'));
      assert.ok(!text.includes('demo-key'));
      assert.deepEqual((await adminReply(ctx.service, 'DELETE', '/__admin/requests')).json, { cleared: 3 });
      assert.deepEqual((await adminReply(ctx.service, 'GET', '/__admin/requests')).json, []);
    });

    it('records when each request was answered, so requests in flight can be counted', async () => {
      await adminReply(ctx.service, 'POST', '/__admin/speed', { latencyMs: 150 });
      await Promise.all([api().get('/api/v1/reports'), api().get('/api/v1/projects')]);
      const log = (await adminReply(ctx.service, 'GET', '/__admin/requests')).json;
      assert.equal(log.length, 2);
      for (const entry of log) {
        const waited = Date.parse(entry.answeredAt) - Date.parse(entry.at);
        assert.ok(waited >= 140, `answered after ${waited} ms`);
      }
      // Both arrived before either was answered: two in flight at once.
      assert.ok(Math.max(...log.map((r: Json) => Date.parse(r.at))) < Math.min(...log.map((r: Json) => Date.parse(r.answeredAt))));
    });

    it('records faulted and dropped requests too', async () => {
      await adminReply(ctx.service, 'POST', '/__admin/faults', [{ status: 500 }, { drop: true }]);
      await api().get('/api/v1/reports');
      await api()
        .get('/api/v1/reports')
        .catch(() => undefined);
      const log = (await adminReply(ctx.service, 'GET', '/__admin/requests')).json;
      assert.deepEqual(
        log.map((r: { status: number | null }) => r.status),
        [500, null],
      );
    });
  });

  describe('speed', () => {
    it('delays every API answer by the latency, and an analysis by its own delay; reset restores them', async () => {
      assert.deepEqual((await adminReply(ctx.service, 'GET', '/__admin/speed')).json, { latencyMs: 0, analysisDelayMs: 0 });
      const timed = async (send: () => Promise<Reply>): Promise<[number, Reply]> => {
        const started = performance.now();
        const reply = await send();
        return [performance.now() - started, reply];
      };
      const good = `${ctx.service.url}/demo-site/good.html`;
      const set = await adminReply(ctx.service, 'POST', '/__admin/speed', { latencyMs: 200 });
      assert.deepEqual(set.json, { latencyMs: 200, analysisDelayMs: 0 });
      const [listMs, list] = await timed(() => api().get('/api/v1/reports'));
      assert.equal(list.status, 200);
      assert.ok(listMs >= 190, `list took ${listMs} ms`);
      await adminReply(ctx.service, 'POST', '/__admin/speed', { latencyMs: 0, analysisDelayMs: 300 });
      const [listFastMs] = await timed(() => api().get('/api/v1/reports'));
      assert.ok(listFastMs < 150, `list took ${listFastMs} ms without latency`);
      const [storeMs, stored] = await timed(() => api().post('/api/v1/reports', { form: { url: good } }));
      assert.equal(stored.status, 201);
      assert.ok(storeMs >= 290, `store took ${storeMs} ms`);
      const [updateMs, updated] = await timed(() =>
        api().patch(`/api/v1/reports/${stored.json.data.id}`, { form: { update: 1 } }),
      );
      assert.equal(updated.status, 200);
      assert.ok(updateMs >= 290, `update=1 took ${updateMs} ms`);
      const [privacyMs] = await timed(() => api().patch(`/api/v1/reports/${stored.json.data.id}`, { form: { privacy: 1 } }));
      assert.ok(privacyMs < 250, `a write without analysis took ${privacyMs} ms`);
      await adminReply(ctx.service, 'POST', '/__admin/reset');
      assert.deepEqual((await adminReply(ctx.service, 'GET', '/__admin/speed')).json, { latencyMs: 0, analysisDelayMs: 0 });
    });

    it('rejects a speed that is not a whole number of milliseconds up to a minute', async () => {
      const reply = await adminReply(ctx.service, 'POST', '/__admin/speed', { latencyMs: -1, analysisDelayMs: 'slow' });
      assert.equal(reply.status, 422);
      assert.deepEqual(Object.keys(reply.json.errors).sort(), ['analysisDelayMs', 'latencyMs']);
    });
  });

  describe('raw reports', () => {
    it('inserts hostile values as given, fills id, project, privacy and dates, never answers the password', async () => {
      const hostile = '<img src=x onerror=alert(1)> [link](command:x) **bold** ${x} \u202e';
      const reply = await adminReply(ctx.service, 'POST', '/__admin/reports', {
        report: {
          url: `https://evil.test/${hostile}`,
          result: hostile,
          score: 'NaN',
          results: { [hostile]: { passed: 'yes', value: hostile } },
          custom_field: { nested: [1, 2] },
          password: 'pw',
          id: 'ignored',
        },
      });
      assert.equal(reply.status, 201);
      const report = reply.json.data;
      assert.deepEqual(reply.json.id, report.id, 'the report is also at the top level');
      assert.equal(typeof report.id, 'number');
      assert.equal(report.project, 'evil.test');
      assert.equal(report.result, hostile);
      assert.equal(report.score, 'NaN');
      assert.equal(report.privacy, 0);
      assert.deepEqual(report.custom_field, { nested: [1, 2] });
      assert.ok(!('password' in report));
      const shown = (await api().get(`/api/v1/reports/${report.id}`)).json.data;
      assert.deepEqual(shown, report);
      assert.deepEqual(Object.keys(shown), [
        'id',
        'url',
        'project',
        'result',
        'score',
        'privacy',
        'results',
        'created_at',
        'updated_at',
        'custom_field',
      ]);
    });

    it('omits fields on request, for tests of missing ones', async () => {
      const reply = await adminReply(ctx.service, 'POST', '/__admin/reports', {
        report: { url: 'https://m.test/' },
        omit: ['created_at', 'updated_at', 'privacy'],
      });
      assert.deepEqual(Object.keys(reply.json.data), ['id', 'url', 'project']);
      const listed = (await api().get('/api/v1/reports')).json.data[0];
      assert.deepEqual(listed, reply.json.data);
    });

    it('inserts for another key, and rejects an unknown key or a missing report', async () => {
      await insertReport(ctx.service, { url: 'https://second.test/' }, 'second-key');
      assert.equal((await client(ctx.service, 'second-key').get('/api/v1/reports')).json.meta.total, 1);
      assert.equal((await api().get('/api/v1/reports')).json.meta.total, 0);
      assert.equal(
        (await adminReply(ctx.service, 'POST', '/__admin/reports', { key: 'nope', report: {} })).status,
        422,
      );
      assert.equal((await adminReply(ctx.service, 'POST', '/__admin/reports', { report: 'x' })).status, 422);
    });
  });

  describe('reset, seed and routing', () => {
    it('reset empties the data and keeps the keys', async () => {
      await insertReport(ctx.service, { url: 'https://r.test/' });
      await adminReply(ctx.service, 'POST', '/__admin/shape', { list: 'array' });
      assert.deepEqual((await adminReply(ctx.service, 'POST', '/__admin/reset')).json, { reset: true });
      const reply = await api().get('/api/v1/reports');
      assert.equal(reply.status, 200);
      assert.equal(reply.json.meta.total, 0);
    });

    it('seeds reports for a key', async () => {
      const reply = await adminReply(ctx.service, 'POST', '/__admin/seed', { count: 30, key: 'second-key' });
      assert.deepEqual(reply.json, { seeded: 30, total: 30 });
      assert.equal((await client(ctx.service, 'second-key').get('/api/v1/reports')).json.meta.total, 30);
      assert.equal((await adminReply(ctx.service, 'POST', '/__admin/seed', { count: 0 })).status, 422);
    });

    it('answers 404 and 405 as JSON, and 400 to a body that is not JSON', async () => {
      assert.equal((await adminReply(ctx.service, 'GET', '/__admin/nothing')).status, 404);
      const wrong = await adminReply(ctx.service, 'PUT', '/__admin/faults');
      assert.equal(wrong.status, 405);
      assert.equal(wrong.headers.allow, 'GET, POST, DELETE');
      const bad = await call(ctx.service.url, 'POST', '/__admin/faults', {
        body: '{',
        headers: { 'Content-Type': 'application/json' },
      });
      assert.equal(bad.status, 400);
    });
  });
});

describe('mounted under a path (basePath)', function () {
  this.timeout(20_000);
  const ctx = useService({ basePath: '/team', seed: 12 });

  it('answers its API under the path only, with links under the path', async () => {
    const origin = new URL(ctx.service.url).origin;
    assert.equal(ctx.service.url, `${origin}/team`);
    // call() takes the origin of its base: the path is written out.
    const listed = await call(origin, 'GET', '/team/api/v1/reports?per_page=10', { key: 'demo-key' });
    assert.equal(listed.status, 200);
    assert.equal(listed.json.data.length, 10);
    assert.match(listed.json.links.next, new RegExp(`^${origin}/team/api/v1/reports\\?`));
    const root = await call(origin, 'GET', '/api/v1/reports', { key: 'demo-key' });
    assert.equal(root.status, 404, 'nothing at the root');
  });
});
