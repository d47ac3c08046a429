/** Contract §4 and the edges: 401, 403, 404, 405, 413, 400/422 bodies, accounts kept apart. */
import assert from 'node:assert/strict';
import { call, client, insertReport, useService } from './helpers';

describe('errors and accounts (contract §4)', function () {
  this.timeout(20_000);
  const ctx = useService({
    keys: ['demo-key', 'second-key'],
    accounts: { 'team-a': 'team', 'team-b': 'team' },
    forbiddenKeys: ['banned-key'],
    faults: true,
    rateLimit: 1000,
  });
  const api = (key: string | null = 'demo-key') => client(ctx.service, key);

  const operations: [string, string][] = [
    ['GET', '/api/v1/reports'],
    ['POST', '/api/v1/reports'],
    ['GET', '/api/v1/reports/1'],
    ['PUT', '/api/v1/reports/1'],
    ['PATCH', '/api/v1/reports/1'],
    ['DELETE', '/api/v1/reports/1'],
    ['GET', '/api/v1/projects'],
    ['DELETE', '/api/v1/projects/example.com'],
  ];

  it('answers 401 without a key, with an unknown key, or with another scheme, on every operation', async () => {
    for (const [method, path] of operations) {
      for (const headers of [
        {} as Record<string, string>,
        { Authorization: 'Bearer nope' },
        { Authorization: 'Basic ZGVtby1rZXk6' },
        { Authorization: 'demo-key' },
        { Authorization: 'Bearer' },
      ]) {
        const reply = await api(null).call(method, path, { headers });
        assert.equal(reply.status, 401, `${method} ${path} ${JSON.stringify(headers)}`);
        assert.deepEqual(reply.json, { message: 'Unauthenticated.' });
      }
    }
  });

  it('answers 403 to a key whose account may not use the API', async () => {
    for (const [method, path] of operations) {
      const reply = await api('banned-key').call(method, path, { form: { url: 'http://a.test/' } });
      assert.equal(reply.status, 403, `${method} ${path}`);
      assert.deepEqual(reply.json, { message: 'This action is unauthorized.' });
    }
  });

  it('keeps two accounts apart: lists, shows, updates and deletes', async () => {
    const mine = await insertReport(ctx.service, { url: 'https://mine.test/a', result: 'good', score: 90 }, 'demo-key');
    const theirs = await insertReport(
      ctx.service,
      { url: 'https://theirs.test/a', result: 'bad', score: 10 },
      'second-key',
    );
    const myList = await api().get('/api/v1/reports');
    assert.deepEqual(
      myList.json.data.map((r: { id: number }) => r.id),
      [mine],
    );
    const theirList = await api('second-key').get('/api/v1/reports');
    assert.deepEqual(
      theirList.json.data.map((r: { id: number }) => r.id),
      [theirs],
    );
    assert.deepEqual(
      (await api().get('/api/v1/projects')).json.data.map((p: { project: string }) => p.project),
      ['mine.test'],
    );
    for (const [method, path] of [
      ['GET', `/api/v1/reports/${theirs}`],
      ['PUT', `/api/v1/reports/${theirs}`],
      ['PATCH', `/api/v1/reports/${theirs}`],
      ['DELETE', `/api/v1/reports/${theirs}`],
      ['DELETE', '/api/v1/projects/theirs.test'],
    ]) {
      const reply = await api().call(method, path, { form: { privacy: 1 } });
      assert.equal(reply.status, 404, `${method} ${path}`);
      assert.deepEqual(reply.json, { message: 'Resource not found.', status: 404 });
    }
    const still = await api('second-key').get(`/api/v1/reports/${theirs}`);
    assert.equal(still.status, 200);
    assert.equal(still.json.data.privacy, 0);
  });

  it('lets keys of one account share its reports', async () => {
    const id = await insertReport(ctx.service, { url: 'https://team.test/' }, 'team-a');
    assert.equal((await api('team-b').get(`/api/v1/reports/${id}`)).status, 200);
    assert.equal((await api('team-b').delete(`/api/v1/reports/${id}`)).status, 200);
    assert.equal((await api('team-a').get(`/api/v1/reports/${id}`)).status, 404);
  });

  it('answers 404 JSON to unknown routes', async () => {
    for (const path of [
      '/api/v1/nothing',
      '/api/v2/reports',
      '/api',
      '/api/v1',
      '/api/v1/reports/1/extra',
      '/nothing',
      '/reports',
    ]) {
      const reply = await api().get(path);
      assert.equal(reply.status, 404, path);
      assert.equal(typeof reply.json.message, 'string', path);
    }
  });

  it('answers 405 JSON with Allow to a wrong method', async () => {
    const cases: [string, string, string][] = [
      ['DELETE', '/api/v1/reports', 'GET, HEAD, POST'],
      ['PUT', '/api/v1/reports', 'GET, HEAD, POST'],
      ['POST', '/api/v1/reports/1', 'GET, HEAD, PUT, PATCH, DELETE'],
      ['POST', '/api/v1/projects', 'GET, HEAD'],
      ['DELETE', '/api/v1/projects', 'GET, HEAD'],
      ['GET', '/api/v1/projects/example.com', 'DELETE'],
      ['OPTIONS', '/api/v1/reports', 'GET, HEAD, POST'],
    ];
    for (const [method, path, allow] of cases) {
      const reply = await api().call(method, path);
      assert.equal(reply.status, 405, `${method} ${path}`);
      assert.equal(reply.headers.allow, allow);
      assert.match(reply.json.message, new RegExp(`^The ${method} method is not supported`));
    }
  });

  it('answers HEAD like GET without a body', async () => {
    const reply = await api().call('HEAD', '/api/v1/reports');
    assert.equal(reply.status, 200);
    assert.equal(reply.text, '');
  });

  it('answers 413 to a body over 1 MB, and keeps serving', async () => {
    const big = 'url=' + 'a'.repeat(1024 * 1024 + 10);
    const reply = await api().post('/api/v1/reports', {
      body: big,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(reply.status, 413);
    assert.equal(typeof reply.json.message, 'string');
    const json = await api().post('/api/v1/reports', { json: { url: 'x'.repeat(2 * 1024 * 1024) } });
    assert.equal(json.status, 413);
    assert.equal((await api().get('/api/v1/reports')).status, 200);
  });

  it('answers 400 to malformed JSON and to JSON that is not an object', async () => {
    for (const body of ['{"url": ', '[1,2]', '"text"', '42', 'null', '{url: 1}']) {
      const reply = await api().post('/api/v1/reports', { body, headers: { 'Content-Type': 'application/json' } });
      assert.equal(reply.status, 400, body);
      assert.equal(typeof reply.json.message, 'string');
    }
  });

  it('answers 422 to fields sent as arrays or maps', async () => {
    const reply = await api().post('/api/v1/reports', {
      body: 'url[]=http://a.test/&privacy[x]=1',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(reply.status, 422);
    assert.deepEqual(Object.keys(reply.json.errors).sort(), ['privacy', 'url']);
    const password = await api().post('/api/v1/reports', {
      json: { url: 'http://a.test/', privacy: 2, password: ['x'] },
    });
    assert.equal(password.status, 422);
    assert.deepEqual(password.json.errors.password, ['The password field must be a string.']);
  });

  it('ignores a body of another type (as PHP does): the url is then missing', async () => {
    const reply = await api().post('/api/v1/reports', {
      body: 'url=http://a.test/',
      headers: { 'Content-Type': 'text/plain' },
    });
    assert.equal(reply.status, 422);
    assert.deepEqual(reply.json.errors, { url: ['The url field is required.'] });
  });

  it('answers every error as JSON with a message', async () => {
    const replies = await Promise.all([
      api(null).get('/api/v1/reports'),
      api('banned-key').get('/api/v1/reports'),
      api().get('/api/v1/reports/424242'),
      api().get('/api/v1/reports?per_page=7'),
      api().call('PATCH', '/api/v1/projects'),
      call(ctx.service.url, 'GET', '/__nothing'),
    ]);
    for (const reply of replies) {
      assert.match(String(reply.headers['content-type']), /^application\/json/);
      assert.equal(typeof reply.json.message, 'string');
    }
  });

  it('answers a request line or header it cannot parse with 400 JSON', async () => {
    const net = await import('node:net');
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(ctx.service.port, '127.0.0.1', () => socket.end('GARBAGE\r\n\r\n'));
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    assert.match(answer, /^HTTP\/1\.1 400/);
    assert.match(answer, /\{"message":"Bad Request"\}$/);
    assert.equal((await api().get('/api/v1/reports')).status, 200);
  });
});
