/**
 * Long work waits out a rate limit the client does not wait for itself (api/rateLimit.ts):
 * against the reference service's 429s, with a client that does not retry (so each 429 reaches
 * the helper).
 */
import * as assert from 'node:assert/strict';
import { ApiError, isApiError } from '../../../src/api/errors';
import { holdOffUntil, longWorkWaitS, RATE_LIMIT, readRetryWaitMs, waitingOutRateLimits } from '../../../src/api/rateLimit';
import type { ReportsApi } from '../../../src/api/types';
import { Harness } from './harness';

describe('api: waiting out rate limits in long work', function () {
  this.timeout(30_000);
  let h: Harness;
  let api: ReportsApi;
  const path = '/api/v1/reports';
  const limited = (times: number, retryAfter: string) =>
    h.fault({
      method: 'GET',
      path,
      times,
      status: 429,
      body: { message: 'Too Many Attempts.' },
      headers: { 'Retry-After': retryAfter },
    });
  const gets = async () => (await h.requests()).filter((r) => r.method === 'GET').length;

  before(async () => {
    h = await Harness.start();
  });
  after(async () => {
    h.auditSecrets();
    await h.stop();
  });
  beforeEach(async () => {
    await h.clean();
    api = h.client({ retry: { limit: 0 } });
  });

  it('waits as long as the service asks, then sends the request again and resolves its answer', async () => {
    await limited(2, '1');
    const waits: number[] = [];
    let resumed = 0;
    const started = Date.now();
    const page = await waitingOutRateLimits(() => api.listReports({}, 1), {
      onWait: (seconds) => waits.push(seconds),
      onResume: () => resumed++,
    });
    assert.equal(page.items.length, 10);
    assert.deepEqual(waits, [1, 1]);
    assert.equal(resumed, 2);
    assert.ok(Date.now() - started >= 1900, 'waited 1 s twice');
    assert.equal(await gets(), 3);
  });

  it(`gives up with the service's rateLimited error after ${RATE_LIMIT.longWorkMaxWaits} waits`, async () => {
    await limited(10, '1');
    await assert.rejects(
      waitingOutRateLimits(() => api.listReports({}, 1)),
      (e: unknown) => isApiError(e) && e.kind === 'rateLimited' && e.retryAfter === 1,
    );
    assert.equal(await gets(), 1 + RATE_LIMIT.longWorkMaxWaits);
  });

  it('stops waiting when cancelled: rejects as cancelled at once and sends nothing more', async () => {
    await limited(1, '30');
    const controller = new AbortController();
    const started = Date.now();
    const run = waitingOutRateLimits(() => api.listReports({}, 1), {
      signal: controller.signal,
      onWait: () => setTimeout(() => controller.abort(), 100),
    });
    await assert.rejects(run, (e: unknown) => isApiError(e) && e.kind === 'cancelled');
    assert.ok(Date.now() - started < 5000, 'did not wait the 30 s');
    assert.equal(await gets(), 1);
  });

  it('passes every other failure through without waiting', async () => {
    await h.fault({ method: 'GET', path, times: 1, status: 502, body: 'html' });
    let waited = false;
    await assert.rejects(
      waitingOutRateLimits(() => api.listReports({}, 1), { onWait: () => (waited = true) }),
      (e: unknown) => isApiError(e) && e.kind === 'server',
    );
    assert.equal(waited, false);
    assert.equal(await gets(), 1);
  });
});

describe('api: the rate-limit policy', () => {
  const limited = (retryAfter?: number): ApiError =>
    new ApiError({ kind: 'rateLimited', host: 'h', method: 'GET', path: '/', status: 429, retryAfter }, '429');

  it('a read waits what the service names; else a fixed wait for a 429, a doubling backoff for a fault', () => {
    assert.equal(readRetryWaitMs(1, 4_000, true), 4_000);
    assert.equal(readRetryWaitMs(1, undefined, true), RATE_LIMIT.unnamedReadWaitMs);
    assert.equal(readRetryWaitMs(2, undefined, true), RATE_LIMIT.unnamedReadWaitMs);
    assert.deepEqual(
      [1, 2, 3].map((retry) => readRetryWaitMs(retry, undefined, false)),
      [300, 600, 1200],
    );
  });

  it('long work waits Retry-After within 1-60 s, else 5, 20 and 60 s, three times at most', () => {
    assert.equal(longWorkWaitS(limited(7), 0), 7);
    assert.equal(longWorkWaitS(limited(0), 0), 1);
    assert.equal(longWorkWaitS(limited(3600), 0), RATE_LIMIT.longWorkMaxWaitS);
    assert.deepEqual(
      [0, 1, 2, 3].map((waits) => longWorkWaitS(limited(), waits)),
      [5, 20, 60, undefined],
    );
  });

  it('views hold off until Retry-After has passed, else for the window', () => {
    assert.equal(holdOffUntil(limited(30), 1_000), 31_000);
    assert.equal(holdOffUntil(limited(), 1_000), 1_000 + RATE_LIMIT.windowMs);
  });
});
