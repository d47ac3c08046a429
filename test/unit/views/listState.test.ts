/**
 * The paged list against the real reference service over loopback HTTP, through the real
 * client: paging to the total, no overlapping requests, stale answers dropped, failures
 * keeping what was loaded.
 */
import * as assert from 'node:assert/strict';
import { createClient } from '../../../src/api/client';
import { isApiError } from '../../../src/api/errors';
import type { Page, Report, ReportQuery, ReportsApi } from '../../../src/api/types';
import { PagedList, reportKey, type FetchPage } from '../../../src/views/listState';
import { DEFAULT_REPORT_QUERY, toReportQuery, withReportFilters, withReportSort } from '../../../src/views/query';
import { adminCall } from '../../service/adminClient';
import { startService } from '../../service/server';
import type { RecordedRequest } from '../../service/types';

const KEY = 'views-test-key';

type Service = Awaited<ReturnType<typeof startService>>;

async function listRequests(svc: Service): Promise<RecordedRequest[]> {
  const all = await adminCall<RecordedRequest[]>(svc.url, 'requests');
  return all.filter((r) => r.method === 'GET' && r.path === '/api/v1/reports');
}

/** A fetcher for a query that also tracks how many of its requests are in flight at once. */
class Probe {
  inFlight = 0;
  maxInFlight = 0;
  calls: number[] = [];
  aborted = 0;

  constructor(
    private readonly api: ReportsApi,
    private readonly query: ReportQuery,
    /** Whether to pass the abort signal on (false: the answer arrives even after an abort). */
    private readonly honourAbort = true,
  ) {}

  readonly fetch: FetchPage<Report> = async (page, signal) => {
    this.calls.push(page);
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    signal.addEventListener('abort', () => this.aborted++);
    try {
      return await this.api.listReports(this.query, page, this.honourAbort ? signal : undefined);
    } finally {
      this.inFlight--;
    }
  };
}

/** Every report of a query, straight from the service, page by page (the expected order). */
async function serverOrder(api: ReportsApi, query: ReportQuery): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; ; page++) {
    const answer: Page<Report> = await api.listReports({ ...query, perPage: 100 }, page);
    ids.push(...answer.items.map(reportKey));
    if (!answer.hasMore || answer.items.length === 0) return ids;
  }
}

describe('views/listState: paging against the reference service', function () {
  this.timeout(60_000);
  let svc: Service;
  let api: ReportsApi;

  before(async () => {
    svc = await startService({ keys: [KEY], seed: 132, faults: true, rateLimit: 0, quiet: true });
    api = createClient({ baseUrl: svc.url, getKey: () => KEY, timeoutMs: 5000, retry: { limit: 0 } });
  });

  after(async () => {
    await svc.stop();
  });

  /** The seeded reports in the default order, three pages of 25 loaded; the probe fetched them. */
  async function threePagesLoaded(): Promise<{ probe: Probe; list: PagedList<Report> }> {
    const probe = new Probe(api, toReportQuery(DEFAULT_REPORT_QUERY, 25));
    const list = new PagedList<Report>(reportKey);
    await list.load(probe.fetch);
    await list.loadMore();
    await list.loadMore();
    return { probe, list };
  }

  beforeEach(async () => {
    await adminCall(svc.url, 'faults', undefined, 'DELETE');
    await adminCall(svc.url, 'requests', undefined, 'DELETE');
  });

  it('Load more reaches exactly the server total with one request per page, in the server order', async () => {
    const query = toReportQuery(DEFAULT_REPORT_QUERY, 25);
    const expected = await serverOrder(api, query);
    assert.equal(expected.length, 132);
    await adminCall(svc.url, 'requests', undefined, 'DELETE');

    const list = new PagedList<Report>(reportKey);
    await list.load(new Probe(api, query).fetch);
    assert.equal(list.items.length, 25);
    assert.equal(list.total, 132);
    while (list.hasMore) {
      const before = list.items.length;
      await list.loadMore();
      assert.ok(list.items.length > before, 'each Load more adds items');
    }
    assert.equal(list.status, 'loaded');
    assert.equal(list.items.length, 132);
    assert.equal(list.total, 132);
    assert.deepEqual(list.items.map(reportKey), expected);

    // Nothing more to load: no request.
    await list.loadMore();
    const requests = await listRequests(svc);
    assert.deepEqual(
      requests.map((r) => r.query.page),
      ['1', '2', '3', '4', '5', '6'],
    );
    for (const r of requests) {
      assert.equal(r.query.per_page, '25');
      assert.equal(r.query.sort_by, 'id');
      assert.equal(r.query.sort, 'desc');
      assert.equal(r.status, 200);
    }
  });

  it('sends the query of each filter and sort, and pages through exactly its matches', async () => {
    const state = withReportSort(withReportFilters(DEFAULT_REPORT_QUERY, { result: 'bad' }), 'score', 'asc');
    const query = toReportQuery(state, 10);
    const expected = await serverOrder(api, query);
    assert.ok(expected.length > 10, `enough bad reports for two pages (${expected.length})`);
    await adminCall(svc.url, 'requests', undefined, 'DELETE');

    const list = new PagedList<Report>(reportKey);
    await list.load(new Probe(api, query).fetch);
    while (list.hasMore) await list.loadMore();
    assert.deepEqual(list.items.map(reportKey), expected);
    assert.ok(list.items.every((r) => r.result === 'bad'));
    const scores = list.items.map((r) => r.score ?? -1);
    assert.deepEqual(
      scores,
      [...scores].sort((a, b) => a - b),
    );
    const requests = await listRequests(svc);
    assert.equal(requests.length, Math.ceil(expected.length / 10));
    assert.deepEqual(
      requests.map((r) => [r.query.result, r.query.sort_by, r.query.sort, r.query.per_page]),
      requests.map(() => ['bad', 'score', 'asc', '10']),
    );
  });

  it('joins Load more clicked many times while a page is in flight: one request per page', async () => {
    const query = toReportQuery(DEFAULT_REPORT_QUERY, 25);
    const probe = new Probe(api, query);
    const list = new PagedList<Report>(reportKey);
    await list.load(probe.fetch);
    await adminCall(svc.url, 'faults', { method: 'GET', path: '/api/v1/reports', delayMs: 200 });
    await Promise.all([list.loadMore(), list.loadMore(), list.loadMore(), list.loadMore()]);
    assert.deepEqual(probe.calls, [1, 2]);
    assert.equal(probe.maxInFlight, 1);
    assert.equal(list.items.length, 50);
  });

  it('never overlaps refreshes: one in flight, then a single follow-up for all that came meanwhile', async () => {
    const query = toReportQuery(DEFAULT_REPORT_QUERY, 25);
    const probe = new Probe(api, query);
    const list = new PagedList<Report>(reportKey);
    await list.load(probe.fetch);
    await adminCall(svc.url, 'requests', undefined, 'DELETE');
    await adminCall(svc.url, 'faults', { method: 'GET', path: '/api/v1/reports', delayMs: 250, times: 2 });
    probe.calls = [];
    probe.maxInFlight = 0;

    const first = list.refresh();
    const rest = [list.refresh(), list.refresh(), list.refresh(), list.refresh()];
    assert.equal(list.status, 'loading');
    assert.equal(list.items.length, 25, 'a refresh keeps the old items until the answer');
    await Promise.all([first, ...rest]);
    assert.equal(probe.maxInFlight, 1, 'never two requests at once');
    assert.deepEqual(probe.calls, [1, 1], 'the refresh in flight, then one follow-up');
    assert.equal((await listRequests(svc)).length, 2);
    assert.equal(list.status, 'loaded');
    assert.equal(list.items.length, 25);
  });

  it('a refresh asked for during a refresh sees a change made after the first one started', async () => {
    const query = toReportQuery(DEFAULT_REPORT_QUERY, 25);
    const list = new PagedList<Report>(reportKey);
    await list.load(new Probe(api, query).fetch);
    await adminCall(svc.url, 'faults', { method: 'GET', path: '/api/v1/reports', delayMs: 300 });
    const inFlight = list.refresh();
    // A write lands while that refresh is on its way, then its caller refreshes.
    await new Promise((r) => setTimeout(r, 50));
    const created = await adminCall<{ id: number }>(svc.url, 'reports', {
      key: KEY,
      report: { url: 'https://late.localhost/new', result: 'good', score: 99 },
    });
    const after = list.refresh();
    await Promise.all([inFlight, after]);
    assert.equal(reportKey(list.items[0]), String(created.id));
    assert.equal(list.total, 133);
  });

  it('a Load more clicked during a refresh follows it: the next page comes after the reload, not lost in it', async () => {
    const probe = new Probe(api, toReportQuery(DEFAULT_REPORT_QUERY, 25));
    const list = new PagedList<Report>(reportKey);
    await list.load(probe.fetch);
    probe.calls = [];
    const refreshed = list.refresh();
    const more = list.loadMore();
    await Promise.all([refreshed, more]);
    assert.deepEqual(probe.calls, [1, 2], 'page 1 again, then page 2, one after the other');
    assert.equal(probe.maxInFlight, 1, 'never overlapping');
    assert.equal(list.items.length, 50);
  });

  it('a refresh that keeps the pages: queued with a page-1 Refresh it goes to page 1; a Load more follows both reloads; one in flight is loaded with the pages', async () => {
    const { probe, list } = await threePagesLoaded();
    assert.equal(list.items.length, 75);

    // A write's refresh and then the user's Refresh queued on a reload: the user's page 1 wins.
    probe.calls = [];
    const first = list.refresh(true);
    const write = list.refresh(true);
    const user = list.refresh();
    await Promise.all([first, write, user]);
    assert.deepEqual(probe.calls, [1, 2, 3, 1], 'the three pages, then page 1 once');
    assert.equal(list.items.length, 25);

    // A Load more clicked during a reload with a refresh queued on it follows both.
    await list.loadMore();
    probe.calls = [];
    const reload = list.refresh(true);
    const more = list.loadMore();
    const queued = list.refresh(true);
    await Promise.all([reload, more, queued]);
    assert.deepEqual(probe.calls, [1, 2, 1, 2, 3], 'two reloads of two pages, then page 3');
    assert.equal(list.items.length, 75);
    assert.equal(probe.maxInFlight, 1, 'never overlapping');

    // The same with the queued refresh asked for before the click: the click follows it.
    probe.calls = [];
    const reload2 = list.refresh(true);
    const queued2 = list.refresh(true);
    const more2 = list.loadMore();
    await Promise.all([reload2, queued2, more2]);
    assert.deepEqual(probe.calls, [1, 2, 3, 1, 2, 3, 4], 'two reloads of three pages, then page 4');
    assert.equal(list.items.length, 100);
    // Three pages again for what follows.
    await list.refresh();
    await list.loadMore();
    await list.loadMore();

    // A write's refresh while a Load more is on its way loads that page with the others.
    probe.calls = [];
    await adminCall(svc.url, 'faults', { method: 'GET', path: '/api/v1/reports', query: { page: '4' }, delayMs: 500 });
    const slowMore = list.loadMore();
    while (probe.inFlight === 0) await new Promise((r) => setTimeout(r, 5));
    await Promise.all([slowMore, list.refresh(true)]);
    assert.deepEqual(probe.calls, [4, 1, 2, 3, 4]);
    assert.equal(list.items.length, 100);
  });

  it('a Load more clicked during a reload does not carry over to a query chosen meanwhile', async () => {
    const probe = new Probe(api, toReportQuery(DEFAULT_REPORT_QUERY, 25));
    const list = new PagedList<Report>(reportKey);
    await list.load(probe.fetch);
    const good = new Probe(api, toReportQuery(withReportFilters(DEFAULT_REPORT_QUERY, { result: 'good' }), 25));
    const reload = list.refresh(true);
    const more = list.loadMore();
    const loading = list.load(good.fetch);
    await Promise.all([reload, more, loading]);
    assert.deepEqual(good.calls, [1], 'page 1 of the new query only');
    assert.equal(list.items.length, Math.min(25, list.total ?? 0));
  });

  it('Retry after a reload that kept the pages failed loads those pages again, not page 1 alone', async () => {
    const { probe, list } = await threePagesLoaded();
    await adminCall(svc.url, 'faults', { method: 'GET', path: '/api/v1/reports', query: { page: '2' }, status: 503 });
    probe.calls = [];
    await list.refresh(true);
    assert.equal(list.status, 'error');
    assert.equal(list.items.length, 75, 'what was loaded stays');
    await list.retry();
    assert.equal(list.status, 'loaded');
    assert.deepEqual(probe.calls, [1, 2, 1, 2, 3]);
    assert.equal(list.items.length, 75);
  });

  /**
   * Three pages loaded, then a write's refresh (keeping the pages) that takes in a slow Load
   * more of page 4 and fails at page 3: the list is in error with its 75 items.
   */
  async function failedReloadWithLoadMore(): Promise<{ probe: Probe; list: PagedList<Report> }> {
    const { probe, list } = await threePagesLoaded();
    await adminCall(svc.url, 'faults', { method: 'GET', path: '/api/v1/reports', query: { page: '4' }, delayMs: 500 });
    const slowMore = list.loadMore();
    while (probe.inFlight === 0) await new Promise((r) => setTimeout(r, 5));
    await adminCall(svc.url, 'faults', { method: 'GET', path: '/api/v1/reports', query: { page: '3' }, status: 503 });
    await Promise.all([slowMore, list.refresh(true)]);
    assert.equal(list.status, 'error');
    assert.equal(list.items.length, 75, 'what was loaded stays');
    probe.calls = [];
    return { probe, list };
  }

  it('Retry after a reload that took over a Load more failed loads that page too', async () => {
    const { probe, list } = await failedReloadWithLoadMore();
    await list.retry();
    assert.equal(list.status, 'loaded');
    assert.deepEqual(probe.calls, [1, 2, 3, 4], 'the page the Load more asked for is not lost');
    assert.equal(list.items.length, 100);
  });

  it('an auto refresh after such a failure loads that page too, as Retry would', async () => {
    const { probe, list } = await failedReloadWithLoadMore();
    await list.refreshLoaded();
    assert.deepEqual(probe.calls, [1, 2, 3, 4]);
    assert.equal(list.items.length, 100);
  });

  it('a new query aborts the old request and starts at page 1', async () => {
    const { probe: all, list } = await threePagesLoaded();
    assert.equal(list.items.length, 75);

    await adminCall(svc.url, 'faults', { method: 'GET', path: '/api/v1/reports', delayMs: 500 });
    const slow = list.loadMore();
    // Let the request reach the wire (a query changed before that sends nothing at all).
    while (all.inFlight === 0) await new Promise((r) => setTimeout(r, 5));
    const good = new Probe(api, toReportQuery(withReportFilters(DEFAULT_REPORT_QUERY, { result: 'good' }), 25));
    const loading = list.load(good.fetch);
    assert.equal(list.items.length, 0, 'a new query does not show the old query’s items');
    await Promise.all([slow, loading]);
    assert.equal(all.aborted, 1, 'the old request was aborted');
    assert.deepEqual(good.calls, [1], 'the new query starts at page 1');
    assert.ok(list.items.length > 0);
    assert.ok(list.items.every((r) => r.result === 'good'));
  });

  it('drops a stale answer even when its request could not be aborted', async () => {
    const list = new PagedList<Report>(reportKey);
    // The first query's request ignores the abort and answers late.
    await adminCall(svc.url, 'faults', { method: 'GET', path: '/api/v1/reports', delayMs: 400 });
    const stale = new Probe(api, toReportQuery(withReportFilters(DEFAULT_REPORT_QUERY, { result: 'bad' }), 25), false);
    const first = list.load(stale.fetch);
    await new Promise((r) => setTimeout(r, 50));
    const fresh = new Probe(api, toReportQuery(withReportFilters(DEFAULT_REPORT_QUERY, { result: 'good' }), 25));
    await list.load(fresh.fetch);
    assert.ok(list.items.every((r) => r.result === 'good'));
    const seen = list.items.map(reportKey);
    await first;
    // Wait until the stale request has really answered.
    while (stale.inFlight > 0) await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(list.items.map(reportKey), seen, 'the stale answer changed nothing');
    assert.ok(list.items.every((r) => r.result === 'good'));
    assert.equal(list.status, 'loaded');
  });

  it('a failed Load more keeps the loaded items, and Retry loads that page', async () => {
    const probe = new Probe(api, toReportQuery(DEFAULT_REPORT_QUERY, 25));
    const list = new PagedList<Report>(reportKey);
    let changes = 0;
    list.onDidChange(() => changes++);
    await list.load(probe.fetch);
    await list.loadMore();
    const loaded = list.items.map(reportKey);
    await adminCall(svc.url, 'faults', { method: 'GET', path: '/api/v1/reports', status: 502, body: 'html' });
    await list.loadMore();
    assert.equal(list.status, 'error');
    assert.ok(isApiError(list.error) && list.error.kind === 'server' && list.error.status === 502, String(list.error));
    assert.deepEqual(list.items.map(reportKey), loaded);
    assert.equal(list.hasMore, true);
    assert.equal(list.refreshFailed, false, 'a Load more failed, not a refresh');
    assert.ok(changes >= 6);

    await list.retry();
    assert.equal(list.status, 'loaded');
    assert.equal(list.error, undefined);
    assert.equal(list.items.length, 75);
    assert.deepEqual(probe.calls, [1, 2, 3, 3]);
  });

  it('a failed refresh keeps the items; a failed first load shows none and retries page 1', async () => {
    const probe = new Probe(api, toReportQuery(DEFAULT_REPORT_QUERY, 25));
    const list = new PagedList<Report>(reportKey);
    await list.load(probe.fetch);
    await adminCall(svc.url, 'faults', { method: 'GET', path: '/api/v1/reports', drop: true });
    await list.refresh();
    assert.equal(list.status, 'error');
    assert.ok(isApiError(list.error) && list.error.kind === 'network');
    assert.equal(list.items.length, 25);
    assert.equal(list.refreshFailed, true);

    const other = new PagedList<Report>(reportKey);
    await adminCall(svc.url, 'faults', { method: 'GET', path: '/api/v1/reports', status: 200, body: 'truncated' });
    const p2 = new Probe(api, toReportQuery(DEFAULT_REPORT_QUERY, 25));
    await other.load(p2.fetch);
    assert.equal(other.status, 'error');
    assert.ok(isApiError(other.error) && other.error.kind === 'badResponse');
    assert.equal(other.items.length, 0);
    assert.equal(other.refreshFailed, false, 'nothing loaded before: its error row is all the view shows');
    await other.retry();
    assert.equal(other.status, 'loaded');
    assert.deepEqual(p2.calls, [1, 1]);
  });

  it('ends the list when a Load more adds nothing: a service that ignores page= sends page 1 again, claiming more', async () => {
    const first = await fetch(`${svc.url}/api/v1/reports?per_page=25&page=1&sort_by=id&sort=desc`, {
      headers: { Authorization: `Bearer ${KEY}`, Accept: 'application/json' },
    });
    const body: unknown = await first.json();
    await adminCall(svc.url, 'faults', { method: 'GET', path: '/api/v1/reports', query: { page: '2' }, status: 200, body, times: 5 });
    await adminCall(svc.url, 'requests', undefined, 'DELETE');
    const list = new PagedList<Report>(reportKey);
    await list.load(new Probe(api, toReportQuery(DEFAULT_REPORT_QUERY, 25)).fetch);
    assert.equal(list.hasMore, true);
    await list.loadMore();
    assert.equal(list.items.length, 25, 'no duplicates');
    assert.equal(list.hasMore, false, 'no Load more that does nothing');
    assert.deepEqual(
      (await listRequests(svc)).map((r) => r.query.page),
      ['1', '2'],
    );
    // A reload of the pages loaded (after a write, auto refresh) does not bring it back.
    await list.refreshLoaded();
    assert.equal(list.items.length, 25);
    assert.equal(list.hasMore, false, 'still no Load more after a reload of both pages');
  });

  it('keeps identity by id: a refresh replaces items in place, and a page that overlaps adds no duplicate', async () => {
    const list = new PagedList<Report>(reportKey);
    const probe = new Probe(api, toReportQuery(DEFAULT_REPORT_QUERY, 25));
    await list.load(probe.fetch);
    const firstIds = list.items.map(reportKey);
    // New reports arrive at the top (id desc): page 2 now starts with items already loaded.
    for (let i = 0; i < 3; i++) {
      await adminCall(svc.url, 'reports', {
        key: KEY,
        report: { url: `https://shift.localhost/${i}`, result: 'decent', score: 50 },
      });
    }
    await list.loadMore();
    const ids = list.items.map(reportKey);
    assert.equal(new Set(ids).size, ids.length, 'no duplicates');
    assert.equal(ids.length, 47, '25 + 25 minus the 3 shifted into page 2 again');
    assert.deepEqual(ids.slice(0, 25), firstIds, 'loaded items stay where they were');

    const old = list.items[5];
    await list.refresh();
    assert.equal(list.items.length, 25);
    const again = list.get(reportKey(old));
    assert.ok(
      again !== undefined && again !== old && again.url === old.url,
      'the same report, as the fresh answer has it',
    );
    const changed = { ...list.items[3], score: 1 };
    assert.equal(list.replace(changed), true);
    assert.equal(list.items[3], changed);
    assert.equal(list.replace({ ...changed, id: 'nope' }), false);

    // A deleted report leaves at once; the rest keep their order and stay findable by key.
    const total = list.total;
    const gone = list.items[3];
    const after = list.items[4];
    let notified = 0;
    const sub = list.onDidChange(() => notified++);
    assert.equal(list.remove(reportKey(gone)), true);
    sub.dispose();
    assert.equal(notified, 1);
    assert.equal(list.items.length, 24);
    assert.equal(list.get(reportKey(gone)), undefined);
    assert.equal(list.items[3], after);
    assert.equal(list.get(reportKey(after)), after);
    assert.equal(list.total, total === undefined ? undefined : total - 1);
    assert.equal(list.remove(reportKey(gone)), false, 'not loaded (any more)');
  });

  it('refreshLoaded (auto-refresh) loads every page loaded so far again, at most five, and swaps them in at once', async () => {
    const list = new PagedList<Report>(reportKey);
    const probe = new Probe(api, toReportQuery(DEFAULT_REPORT_QUERY, 10));
    await list.load(probe.fetch);
    await list.loadMore();
    await list.loadMore();
    assert.equal(list.items.length, 30);
    const before = list.items.map(reportKey);
    const inserted = await adminCall<{ id: number }>(svc.url, 'reports', {
      key: KEY,
      report: { url: 'https://refreshed.localhost/new', result: 'good', score: 90 },
    });
    probe.calls = [];
    let changes = 0;
    const sub = list.onDidChange(() => changes++);
    await list.refreshLoaded();
    sub.dispose();
    assert.deepEqual(probe.calls, [1, 2, 3], 'the three pages loaded, one after another');
    assert.equal(probe.maxInFlight, 1);
    assert.equal(list.items.length, 30, 'the rows paged to stay');
    assert.equal(reportKey(list.items[0]), String(inserted.id), 'the new report on top');
    assert.deepEqual(list.items.slice(1).map(reportKey), before.slice(0, 29));
    assert.equal(list.hasMore, true);
    assert.equal(changes, 2, 'loading, then every page at once: no list of one page in between');

    // Seven pages loaded: five come again, the rest behind Load more.
    for (let i = 0; i < 4; i++) await list.loadMore();
    assert.equal(list.items.length, 70);
    probe.calls = [];
    await list.refreshLoaded();
    assert.deepEqual(probe.calls, [1, 2, 3, 4, 5]);
    assert.equal(list.items.length, 50);
    await list.loadMore();
    assert.deepEqual(probe.calls, [1, 2, 3, 4, 5, 6], 'Load more goes on from page 6');

    // Not while something is in flight (the next tick asks again).
    probe.calls = [];
    const more = list.loadMore();
    await list.refreshLoaded();
    await more;
    assert.deepEqual(probe.calls, [7]);
  });

  it('reset goes back to idle without a request; ensureLoaded loads page 1 once', async () => {
    const probe = new Probe(api, toReportQuery(DEFAULT_REPORT_QUERY, 25));
    const list = new PagedList<Report>(reportKey);
    list.reset(probe.fetch);
    assert.equal(list.status, 'idle');
    assert.deepEqual(probe.calls, []);
    await Promise.all([list.ensureLoaded(), list.ensureLoaded(), list.ensureLoaded()]);
    assert.deepEqual(probe.calls, [1]);
    await list.ensureLoaded();
    assert.deepEqual(probe.calls, [1]);
    assert.equal(list.items.length, 25);
    list.reset();
    assert.equal(list.items.length, 0);
    assert.equal(list.status, 'idle');
  });
});

describe('views/listState: 10,000 reports at 100 a page', function () {
  this.timeout(120_000);
  let svc: Service;

  before(async () => {
    svc = await startService({ keys: [KEY], seed: 10_000, faults: true, rateLimit: 0, quiet: true });
  });

  after(async () => {
    await svc.stop();
  });

  it('loads all of them with 100 requests, no duplicates, in the server order', async () => {
    const api = createClient({ baseUrl: svc.url, getKey: () => KEY, timeoutMs: 10_000, retry: { limit: 0 } });
    const probe = new Probe(api, toReportQuery(DEFAULT_REPORT_QUERY, 100));
    const list = new PagedList<Report>(reportKey);
    let changes = 0;
    list.onDidChange(() => changes++);
    await adminCall(svc.url, 'requests', undefined, 'DELETE');
    const started = performance.now();
    await list.load(probe.fetch);
    while (list.hasMore) await list.loadMore();
    const ms = performance.now() - started;
    assert.equal(list.items.length, 10_000);
    assert.equal(list.total, 10_000);
    assert.equal(new Set(list.items.map(reportKey)).size, 10_000);
    const ids = list.items.map((r) => Number(r.id));
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => b - a),
    );
    assert.equal(probe.calls.length, 100);
    assert.equal((await listRequests(svc)).length, 100);
    assert.equal(probe.maxInFlight, 1);
    assert.equal(changes, 200, 'one change when each request starts and one when it ends');
    // Generous: this is a correctness test; the benchmark measures speed.
    assert.ok(ms < 60_000, `${Math.round(ms)} ms`);
  });
});
