/**
 * src/api/browser.ts on its own: what it makes of the answers and failures a browser's fetch
 * gives (opaque redirects, cross-origin answers with hidden headers, bare TypeErrors). Under
 * Node every one of them is "nothing to do". The real thing runs in the web worker extension
 * host (test/integration/web, test/e2e/browser.e2e.ts); the probe here meets a real loopback
 * service and a closed port, never a mocked fetch.
 */
import * as assert from 'node:assert/strict';
import {
  browserFetchError,
  CORS_REFUSED,
  HIDDEN_REDIRECT,
  HIDDEN_RETRY_AFTER,
  HIDDEN_RETRY_AFTER_WAIT_MS,
  hiddenRedirectError,
  hiddenRetryAfterWait,
  isBrowserFetchFailure,
  httpBlockedInBrowser,
  runsInBrowser,
  withHiddenRetryAfter,
} from '../../../src/api/browser';
import { ApiError } from '../../../src/api/errors';
import { startService, type RunningService } from '../../service/server';

const target = { method: 'GET', host: '127.0.0.1:1', path: '/api/v1/reports' };
const answer = (
  status: number,
  type: string,
  headers: Record<string, string> = {},
): { status: number; type: string; headers: Headers } => ({
  status,
  type,
  headers: new Headers(headers),
});

describe('browser differences (src/api/browser.ts)', () => {
  it('turns only an opaque redirect into a redirect error', () => {
    const error = hiddenRedirectError(answer(0, 'opaqueredirect'), target);
    assert.ok(error instanceof ApiError);
    assert.equal(error.kind, 'redirect');
    assert.equal(error.reason, HIDDEN_REDIRECT);
    assert.equal(error.redirectTo, undefined);
    for (const type of ['basic', 'cors', 'default'])
      assert.equal(hiddenRedirectError(answer(302, type), target), undefined);
  });

  it('waits the fixed backoff only in a browser, for a 429/503 whose Retry-After cannot be read', () => {
    assert.equal(hiddenRetryAfterWait(answer(429, 'cors'), true), HIDDEN_RETRY_AFTER_WAIT_MS);
    assert.equal(hiddenRetryAfterWait(answer(503, 'default'), true), HIDDEN_RETRY_AFTER_WAIT_MS);
    assert.equal(
      hiddenRetryAfterWait(answer(429, 'cors', { 'Retry-After': '3' }), true),
      undefined,
      'exposed: read as usual',
    );
    assert.equal(hiddenRetryAfterWait(answer(429, 'default')), undefined, 'Node: the normal backoff');
    assert.equal(hiddenRetryAfterWait(answer(500, 'cors'), true), undefined);
  });

  it('marks a final 429 whose Retry-After was hidden, and leaves every other error as it is', () => {
    const limited = new ApiError({ kind: 'rateLimited', ...target, status: 429 }, 'limited');
    const marked = withHiddenRetryAfter(limited, answer(429, 'cors'), true);
    assert.equal(marked.kind, 'rateLimited');
    assert.equal(marked.status, 429);
    assert.equal(marked.reason, HIDDEN_RETRY_AFTER);
    assert.match(marked.message, /hides Retry-After/);
    assert.equal(withHiddenRetryAfter(limited, answer(429, 'default')), limited);
    const server = new ApiError({ kind: 'server', ...target, status: 503 }, 'down');
    assert.equal(withHiddenRetryAfter(server, answer(503, 'cors'), true), server);
  });

  it("tells a browser's bare TypeError from Node's fetch failures", () => {
    assert.equal(isBrowserFetchFailure(new TypeError('Failed to fetch')), true);
    assert.equal(isBrowserFetchFailure(new TypeError('NetworkError when attempting to fetch resource.')), true);
    assert.equal(isBrowserFetchFailure(new TypeError('fetch failed', { cause: new Error('ECONNREFUSED') })), false);
    assert.equal(isBrowserFetchFailure(new Error('Failed to fetch')), false);
  });

  describe('the no-cors probe', () => {
    let service: RunningService;
    before(async () => (service = await startService({ keys: ['probe-key'], quiet: true, rateLimit: 0 })));
    after(() => service?.stop());

    it('says CORS when the host answers, and cannot reach when nothing listens', async () => {
      const blocked = new TypeError('Failed to fetch');
      const cors = await browserFetchError(blocked, { ...target, host: new URL(service.url).host }, service.url, fetch);
      assert.equal(cors?.kind, 'cors');
      assert.equal(cors?.reason, CORS_REFUSED);
      // Port 9 (discard) on loopback: nothing listens there on these machines.
      const down = await browserFetchError(blocked, target, 'http://127.0.0.1:9', fetch);
      assert.equal(down?.kind, 'network');
      assert.equal(await browserFetchError(new Error('bug'), target, service.url, fetch), undefined);
    });
  });

  it('under Node: not a browser, so http: is not blocked', () => {
    assert.equal(runsInBrowser(), false);
    assert.equal(httpBlockedInBrowser('http://reports.example.com'), false);
  });
});
