/** Contract §4: the rate limit per key, its headers on every answer, 429 and the reset. */
import assert from 'node:assert/strict';
import { adminReply, client, useService } from './helpers';

/** A window no test outlasts, however loaded the machine; the reset has its own service. */
const WINDOW_MS = 60_000;
/** The short window of the reset test. */
const SHORT_WINDOW_MS = 400;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

describe('rate limit (contract §4)', function () {
  this.timeout(20_000);
  const ctx = useService({ rateLimit: 3, rateWindowMs: WINDOW_MS, keys: ['demo-key', 'other-key'], faults: true });
  const api = (key = 'demo-key') => client(ctx.service, key);

  beforeEach(async () => {
    // A fresh window for each test (reset also clears the limiter).
    await adminReply(ctx.service, 'POST', '/__admin/reset');
  });

  it('counts down in the headers of every answer, then answers 429 with Retry-After until the window ends', async () => {
    const replies = [
      await api().get('/api/v1/reports'),
      await api().get('/api/v1/reports/12345'),
      await api().get('/api/v1/reports?per_page=7'),
    ];
    assert.deepEqual(
      replies.map((r) => r.status),
      [200, 404, 422],
    );
    assert.deepEqual(
      replies.map((r) => r.headers['x-ratelimit-limit']),
      ['3', '3', '3'],
    );
    assert.deepEqual(
      replies.map((r) => r.headers['x-ratelimit-remaining']),
      ['2', '1', '0'],
    );
    const limited = await api().get('/api/v1/reports');
    assert.equal(limited.status, 429);
    assert.deepEqual(limited.json, { message: 'Too Many Attempts.' });
    assert.equal(limited.headers['x-ratelimit-limit'], '3');
    assert.equal(limited.headers['x-ratelimit-remaining'], '0');
    assert.match(String(limited.headers['retry-after']), /^[1-9]\d*$/);
    assert.ok(Number(limited.headers['retry-after']) <= WINDOW_MS / 1000);
    // Writes are limited the same way.
    assert.equal((await api().post('/api/v1/reports', { form: { url: 'http://a.test/' } })).status, 429);
  });

  it('limits each key on its own', async () => {
    for (let i = 0; i < 4; i++) await api().get('/api/v1/reports');
    assert.equal((await api().get('/api/v1/reports')).status, 429);
    const other = await api('other-key').get('/api/v1/reports');
    assert.equal(other.status, 200);
    assert.equal(other.headers['x-ratelimit-remaining'], '2');
  });

  it('limits unauthenticated requests per client address, with headers on the 401', async () => {
    const first = await client(ctx.service, 'wrong-key').get('/api/v1/reports');
    assert.equal(first.status, 401);
    assert.equal(first.headers['x-ratelimit-remaining'], '2');
    await client(ctx.service, null).get('/api/v1/reports');
    await client(ctx.service, null).get('/api/v1/reports');
    assert.equal((await client(ctx.service, null).get('/api/v1/reports')).status, 429);
    assert.equal((await api().get('/api/v1/reports')).status, 200, 'a valid key has its own budget');
  });

  it('never limits the admin API', async () => {
    for (let i = 0; i < 10; i++) {
      const reply = await adminReply(ctx.service, 'GET', '/__admin/requests');
      assert.equal(reply.status, 200);
      assert.equal(reply.headers['x-ratelimit-limit'], undefined);
    }
  });
});

describe('rate limit reset', function () {
  this.timeout(20_000);
  const ctx = useService({ rateLimit: 3, rateWindowMs: SHORT_WINDOW_MS });

  it('starts a new window when the old one ends', async () => {
    // Retried a few times: on a loaded machine the window may end while the first three run.
    let limited = false;
    for (let attempt = 0; attempt < 5 && !limited; attempt++) {
      await sleep(SHORT_WINDOW_MS + 20);
      for (let i = 0; i < 3; i++) await client(ctx.service).get('/api/v1/projects');
      limited = (await client(ctx.service).get('/api/v1/projects')).status === 429;
    }
    assert.ok(limited, 'the fourth request in a window is limited');
    await sleep(SHORT_WINDOW_MS + 50);
    const again = await client(ctx.service).get('/api/v1/projects');
    assert.equal(again.status, 200);
    assert.equal(again.headers['x-ratelimit-remaining'], '2');
  });
});

describe('rate limit off (rateLimit 0)', function () {
  this.timeout(20_000);
  const ctx = useService({ rateLimit: 0 });

  it('answers without limit and without rate headers', async () => {
    for (let i = 0; i < 80; i++) {
      const reply = await client(ctx.service).get('/api/v1/reports');
      assert.equal(reply.status, 200);
      assert.equal(reply.headers['x-ratelimit-limit'], undefined);
    }
  });
});

describe('rate limit default', function () {
  this.timeout(20_000);
  const ctx = useService({ rateLimit: undefined });

  it('is 60 a minute', async () => {
    const reply = await client(ctx.service).get('/api/v1/reports');
    assert.equal(reply.headers['x-ratelimit-limit'], '60');
    assert.equal(reply.headers['x-ratelimit-remaining'], '59');
  });
});
