/**
 * The loader of every page of a list (src/api/allPages.ts) against the reference service:
 * order, at most four requests in flight (counted from the service's request log), rate
 * limits (X-RateLimit-Remaining, one pause for a burst of 429s, no more 429s than a
 * sequential load), cancel, resume after a failed page, and a service that announces no total.
 */
import * as assert from 'node:assert/strict';
import {
  emptyAllPages,
  loadAllPages,
  MAX_PAGES_IN_FLIGHT,
  type AllPages,
  type AllPagesOptions,
} from '../../../src/api/allPages';
import { isApiError } from '../../../src/api/errors';
import { waitingOutRateLimits } from '../../../src/api/rateLimit';
import type { Report, ReportsApi } from '../../../src/api/types';
import { maxInFlight as requestsInFlight } from '../../service/adminClient';
import { Harness, KEY, type RecordedRequest } from './harness';

const PER_PAGE = 10;
const REPORTS = 200;
const listPath = '/api/v1/reports';

/** The most list requests the service had in flight at once. */
function maxInFlight(requests: readonly RecordedRequest[]): number {
  return requestsInFlight(requests.filter((r) => r.path === listPath));
}

/** The ids of every report, newest first, as the service lists them. */
async function serviceIds(h: Harness): Promise<number[]> {
  const response = await fetch(`${h.url}${listPath}?sort_by=id&sort=desc&per_page=100&page=1`, {
    headers: { Authorization: `Bearer ${KEY}`, Accept: 'application/json' },
  });
  const first = (await response.json()) as { meta: { last_page: number } };
  const ids: number[] = [];
  for (let page = 1; page <= first.meta.last_page; page++) {
    const answer = await fetch(`${h.url}${listPath}?sort_by=id&sort=desc&per_page=100&page=${page}`, {
      headers: { Authorization: `Bearer ${KEY}`, Accept: 'application/json' },
    });
    ids.push(...((await answer.json()) as { data: { id: number }[] }).data.map((r) => r.id));
  }
  return ids;
}

function options(api: ReportsApi, more: Partial<AllPagesOptions<Report>> = {}): AllPagesOptions<Report> {
  return {
    fetchPage: (page, signal, read) =>
      api.listReports({ sortBy: 'id', sort: 'desc', perPage: PER_PAGE }, page, signal, read),
    keyOf: (report) => String(report.id),
    perPage: PER_PAGE,
    limit: 20_000,
    ...more,
  };
}

const statuses = (requests: readonly RecordedRequest[]): (number | null)[] =>
  requests.filter((r) => r.path === listPath).map((r) => r.status);

describe('api: loading every page of a list', function () {
  this.timeout(30_000);
  let h: Harness;
  let api: ReportsApi;
  let expected: number[];

  before(async () => {
    h = await Harness.start({ seed: 0 });
    await h.admin('seed', { count: REPORTS });
    expected = await serviceIds(h);
  });
  after(async () => {
    h.auditSecrets();
    await h.stop();
  });
  beforeEach(async () => {
    await h.clean();
    await h.admin('speed', { latencyMs: 0 });
    api = h.client();
  });

  it('keeps the list order, page 1 before any other, at most four requests in flight', async () => {
    await h.admin('speed', { latencyMs: 60 });
    // Page 2 answers last: the order must not follow the answers.
    await h.fault({ method: 'GET', path: listPath, query: { page: '2' }, delayMs: 300 });
    const load = await loadAllPages(emptyAllPages<Report>(), options(api));
    assert.deepEqual(
      load.items.map((r) => r.id),
      expected,
    );
    assert.equal(load.done, true);
    assert.equal(load.total, REPORTS);
    const requests = (await h.requests()).filter((r) => r.path === listPath);
    assert.equal(requests.length, REPORTS / PER_PAGE, 'each page once');
    assert.equal(requests[0]?.query.page, '1');
    assert.ok(Date.parse(requests[0].answeredAt!) <= Date.parse(requests[1].at), 'the others after page 1 answered');
    assert.equal(maxInFlight(requests), MAX_PAGES_IN_FLIGHT);
  });

  it('sends no more requests at once than X-RateLimit-Remaining allows', async () => {
    const limited = await Harness.start({ seed: 0, rateLimit: 6, rateWindowMs: 1000, latencyMs: 40 });
    try {
      await limited.admin('seed', { count: 120 });
      const load = await loadAllPages(emptyAllPages<Report>(), options(limited.client({ retry: { limit: 0 } })));
      assert.equal(load.items.length, 120);
      const requests = await limited.requests();
      // 12 pages at 6 a window: two windows cross, each costs at most the one request that finds it closed.
      assert.ok(statuses(requests).filter((s) => s === 429).length <= 2, JSON.stringify(statuses(requests)));
      assert.ok(maxInFlight(requests) <= MAX_PAGES_IN_FLIGHT);
    } finally {
      await limited.stop();
    }
  });

  it('pauses the whole load once for a burst of 429s, for the wait they name', async () => {
    await h.admin('speed', { latencyMs: 30 });
    for (const page of ['2', '3', '4', '5']) {
      await h.fault({
        method: 'GET',
        path: listPath,
        query: { page },
        status: 429,
        body: { message: 'Too Many Attempts.' },
        headers: { 'Retry-After': '1' },
      });
    }
    const waits: (number | null)[] = [];
    const started = Date.now();
    const load = await loadAllPages(
      emptyAllPages<Report>(),
      options(api, { onWait: (seconds) => waits.push(seconds) }),
    );
    assert.deepEqual(waits, [1, null], 'one pause, then on');
    assert.ok(Date.now() - started >= 950, 'waited what Retry-After said');
    assert.deepEqual(
      load.items.map((r) => r.id),
      expected,
    );
    assert.equal(
      statuses(await h.requests()).filter((s) => s === 429).length,
      4,
      'no request of the burst was retried by the client',
    );
  });

  it('cancel aborts every request in flight', async () => {
    await h.admin('speed', { latencyMs: 500 });
    const controller = new AbortController();
    let abortedAt = 0;
    const loading = loadAllPages(
      emptyAllPages<Report>(),
      options(api, {
        signal: controller.signal,
        onPage: () =>
          setTimeout(() => {
            abortedAt = Date.now();
            controller.abort();
          }, 50),
      }),
    );
    await assert.rejects(loading, (error: unknown) => isApiError(error, 'cancelled'));
    assert.ok(Date.now() - abortedAt < 300, 'settled without waiting for the answers');
    const cancelled = h.log.filter((entry) => entry.error === 'cancelled');
    assert.equal(cancelled.length, MAX_PAGES_IN_FLIGHT, JSON.stringify(h.log));
  });

  it('keeps the pages loaded when one fails, and loads only the gaps on retry', async () => {
    await h.fault({ method: 'GET', path: listPath, query: { page: '3' }, status: 502, body: 'html', times: 3 });
    const load: AllPages<Report> = emptyAllPages();
    await assert.rejects(loadAllPages(load, options(api)), (error: unknown) => isApiError(error, 'server'));
    assert.equal(load.pages.has(3), false);
    assert.equal(load.pages.has(1), true);
    assert.ok(load.items.length >= PER_PAGE);
    assert.equal(load.done, false);
    await h.admin('requests', undefined, 'DELETE');
    const loadedBefore = [...load.pages.keys()];
    await loadAllPages(load, options(api));
    const again = (await h.requests()).filter((r) => r.path === listPath).map((r) => Number(r.query.page));
    assert.ok(again.includes(3), 'the failed page again');
    assert.ok(!again.some((page) => loadedBefore.includes(page)), `no page loaded before: ${again.join(', ')}`);
    assert.deepEqual(
      load.items.map((r) => r.id),
      expected,
    );
  });

  it('loads one page at a time from a service that announces no total', async () => {
    await h.shape({ list: 'data' });
    await h.admin('speed', { latencyMs: 20 });
    const load = await loadAllPages(emptyAllPages<Report>(), options(api));
    assert.deepEqual(
      load.items.map((r) => r.id),
      expected,
    );
    assert.equal(load.total, undefined);
    const requests = await h.requests();
    assert.equal(maxInFlight(requests), 1);
    // A full last page may have a successor: one request more, answered empty.
    assert.equal(requests.filter((r) => r.path === listPath).length, REPORTS / PER_PAGE + 1);
  });

  it('stops at the cap, and says so', async () => {
    const load = await loadAllPages(emptyAllPages<Report>(), options(api, { limit: 35 }));
    assert.equal(load.items.length, 35);
    assert.equal(load.capped, true);
    assert.deepEqual(
      load.items.map((r) => r.id),
      expected.slice(0, 35),
    );
    assert.equal((await h.requests()).filter((r) => r.path === listPath).length, 4, 'the pages the cap needs');
  });
});

describe('api: every page against a rate limit of 60 a window', function () {
  this.timeout(60_000);
  const PAGES = 100;

  it(`gets no more 429 answers for ${PAGES} pages than a sequential load`, async () => {
    // A one-second window keeps the test short; the limit is the contract's 60.
    const h = await Harness.start({ seed: 0, rateLimit: 60, rateWindowMs: 1000 });
    try {
      await h.admin('seed', { count: PAGES * PER_PAGE });
      const client = h.client({ retry: { limit: 0 } });
      const query = { sortBy: 'id', sort: 'desc', perPage: PER_PAGE } as const;
      // Sequential: one page after another, each 429 waited out as long work does.
      const sequential: Report[] = [];
      for (let page = 1; page <= PAGES; page++) {
        sequential.push(...(await waitingOutRateLimits(() => client.listReports(query, page))).items);
      }
      const sequential429s = statuses(await h.requests()).filter((s) => s === 429).length;
      await h.admin('requests', undefined, 'DELETE');
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const load = await loadAllPages(emptyAllPages<Report>(), options(client));
      const loader429s = statuses(await h.requests()).filter((s) => s === 429).length;
      assert.deepEqual(
        load.items.map((r) => r.id),
        sequential.map((r) => r.id),
      );
      assert.ok(sequential429s >= 1, 'the sequential load met the limit');
      assert.ok(loader429s <= sequential429s, `loader ${loader429s} 429s, sequential ${sequential429s}`);
    } finally {
      await h.stop();
    }
  });
});
