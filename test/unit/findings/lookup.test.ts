/**
 * A page's latest report, looked up against the real reference service: exact URL match among
 * the substring search's answers, newest first, at most LOOKUP_PAGES pages, one lookup per page
 * at a time, and nothing kept from before a clear.
 */
import * as assert from 'node:assert/strict';
import type { ReportsApi } from '../../../src/api/types';
import { LOOKUP_PAGES, PageReports, latestReportOf } from '../../../src/findings/lookup';
import { Harness, KEY } from '../api/harness';

describe('findings: looking up a page’s report', function () {
  this.timeout(30_000);
  let h: Harness;
  let api: ReportsApi;

  const insert = async (url: string, generatedAt: string, title = 'x'): Promise<string | number> => {
    const answer = await h.admin<{ data: { id: string | number } }>('reports', {
      key: KEY,
      report: { url, result: 'bad', score: 10, generated_at: generatedAt, results: { title: { passed: false, importance: 'high', value: title } } },
    });
    return answer.data.id;
  };

  const lookups = async (): Promise<number> =>
    (await h.requests()).filter((r) => r.method === 'GET' && r.path === '/api/v1/reports').length;

  before(async () => {
    h = await Harness.start({ seed: 0 });
    api = h.client();
  });
  after(async () => {
    await h.stop();
  });
  beforeEach(async () => {
    await h.clean();
  });

  it('takes the newest report whose URL is the page’s, a fragment and one trailing slash aside', async () => {
    await insert('https://shop.example/pricing', '2026-01-01T00:00:00.000000Z', 'old');
    const newest = await insert('https://shop.example/pricing/#plans', '2026-03-01T00:00:00.000000Z', 'new');
    // Newer, but other pages that hold the URL as a substring.
    await insert('https://shop.example/pricing-old', '2026-05-01T00:00:00.000000Z');
    await insert('https://shop.example/pricing?plan=pro', '2026-05-01T00:00:00.000000Z');
    const report = await latestReportOf(api, 'https://shop.example/pricing');
    assert.equal(String(report?.id), String(newest));
    const requests = (await h.requests()).filter((r) => r.path === '/api/v1/reports');
    assert.deepEqual(requests[0]?.query, {
      search: 'https://shop.example/pricing',
      search_by: 'url',
      sort_by: 'generated_at',
      sort: 'desc',
      per_page: '100',
      page: '1',
    });
  });

  it(`reads at most ${LOOKUP_PAGES} pages, then says the page has none`, async () => {
    const others = Array.from({ length: LOOKUP_PAGES * 100 + 5 }, (_, i) => `https://many.example/a/${i}`);
    for (const url of others) await insert(url, '2026-02-01T00:00:00.000000Z');
    await insert('https://many.example/a', '2026-01-01T00:00:00.000000Z');
    await h.admin('requests', undefined, 'DELETE');
    assert.equal(await latestReportOf(api, 'https://many.example/a'), undefined);
    assert.equal(await lookups(), LOOKUP_PAGES);
  });

  it('shares one lookup per page, keeps the answer, and drops what ends after a clear', async () => {
    await insert('https://shop.example/about', '2026-01-01T00:00:00.000000Z');
    const pages = new PageReports();
    await h.admin('requests', undefined, 'DELETE');
    const [a, b] = await Promise.all([
      pages.lookup('https://shop.example/about', api),
      pages.lookup('https://shop.example/about/', api),
    ]);
    assert.equal(a, b);
    assert.equal(await lookups(), 1);
    assert.equal(pages.known('https://shop.example/about#x')?.report, a);
    await pages.lookup('https://shop.example/about', api);
    assert.equal(await lookups(), 1, 'kept until a clear');

    const running = pages.lookup('https://shop.example/contact', api);
    pages.clear();
    assert.equal(await running, undefined);
    assert.equal(pages.known('https://shop.example/contact'), undefined, 'an answer from before the clear is not kept');
    assert.equal(pages.known('https://shop.example/about'), undefined);
  });

  it('a write replaces the page’s report; a delete forgets it', async () => {
    const pages = new PageReports();
    const report = await latestReportOf(api, 'https://shop.example/none');
    assert.equal(report, undefined);
    await insert('https://shop.example/new', '2026-01-01T00:00:00.000000Z');
    const created = await latestReportOf(api, 'https://shop.example/new');
    assert.ok(created);
    pages.put(created);
    assert.equal(pages.known('https://shop.example/new/')?.report, created);
    assert.deepEqual(pages.drop(created.id), ['https://shop.example/new']);
    assert.equal(pages.known('https://shop.example/new'), undefined);
  });
});
