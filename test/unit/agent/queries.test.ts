/**
 * The reads behind the agent tools (src/agent/queries.ts) against the reference service: the
 * limit asks for the next allowed page size, an exact page is found through the service's
 * search and checked here, and inputs are checked before anything is sent.
 */
import * as assert from 'node:assert/strict';
import {
  findReports,
  InputError,
  latestReportOf,
  perPageFor,
  readCreateInput,
  readFindInput,
  readIdInput,
  readReportInput,
  samePage,
} from '../../../src/agent/queries';
import type { ReportsApi } from '../../../src/api/types';
import { Harness, KEY } from '../api/harness';

describe('agent tool queries', function () {
  this.timeout(20_000);
  let h: Harness;
  let api: ReportsApi;

  before(async () => {
    h = await Harness.start();
    api = h.client();
  });

  after(async () => {
    await h.stop();
  });

  beforeEach(async () => {
    await h.clean();
  });

  async function insert(url: string, generatedAt: string): Promise<number> {
    const answer = await h.admin<{ id: number }>('reports', {
      key: KEY,
      report: { url, result: 'bad', score: 10, generated_at: generatedAt },
    });
    return answer.id;
  }

  it('asks for the next allowed per_page and cuts the answer to the limit', async () => {
    assert.deepEqual([1, 10, 11, 25, 26, 60, 100].map(perPageFor), [10, 10, 25, 25, 50, 100, 100]);
    const found = await findReports(api, readFindInput({ limit: 12, sortBy: 'score', sort: 'asc' }), undefined);
    assert.equal(found.reports.length, 12);
    assert.equal(found.total, 30);
    const scores = found.reports.map((r) => r.score ?? 0);
    assert.deepEqual(
      scores,
      [...scores].sort((a, b) => a - b),
    );
    const [request] = await h.requests();
    assert.equal(request?.query.per_page, '25');
    assert.equal(request?.query.sort_by, 'score');
  });

  it('finds the reports of exactly one page, ignoring a fragment and one trailing slash, and its latest report', async () => {
    const older = await insert('https://exact.example/pricing', '2026-01-01T00:00:00Z');
    const newer = await insert('https://exact.example/pricing/', '2026-02-01T00:00:00Z');
    await insert('https://exact.example/pricing-old', '2026-03-01T00:00:00Z');
    await insert('https://exact.example/pricing/team', '2026-03-01T00:00:00Z');
    const found = await findReports(api, readFindInput({ url: 'https://exact.example/pricing#plans' }));
    assert.deepEqual(found.reports.map((r) => r.id).sort(), [older, newer].sort());
    assert.equal(found.total, 2);
    assert.equal((await latestReportOf(api, 'https://exact.example/pricing'))?.id, newer);
    assert.equal(await latestReportOf(api, 'https://exact.example/nothing'), undefined);
    assert.ok(samePage('https://a.example/x/', 'https://a.example/x#y'));
    assert.ok(!samePage('https://a.example/x', 'https://a.example/X'));
  });

  it('refuses inputs it cannot use before sending anything', async () => {
    for (const bad of [
      { limit: 0 },
      { limit: 101 },
      { limit: 2.5 },
      { result: 'awful' },
      { sortBy: 'name' },
      { sort: 'up' },
      { url: 'a', search: 'b' },
      { search: '' },
      'text',
    ]) {
      assert.throws(() => readFindInput(bad), InputError, JSON.stringify(bad));
    }
    assert.throws(() => readReportInput({}), InputError);
    assert.throws(() => readReportInput({ id: 1, url: 'https://a.example/' }), InputError);
    assert.throws(() => readReportInput({ id: 1.5 }), InputError);
    assert.deepEqual(readReportInput({ id: '42' }), { id: '42' });
    assert.throws(() => readIdInput({ id: null }), InputError);
    const isHttp = (t: string): boolean => /^https?:\/\/./.test(t);
    assert.deepEqual(readCreateInput({ url: 'https://a.example/' }, isHttp), { url: 'https://a.example/', privacy: 0 });
    for (const bad of [
      { url: 'ftp://a' },
      { url: 'https://a.example/', privacy: 2 },
      { url: 'https://a.example/', password: 'x' },
      {},
    ]) {
      assert.throws(() => readCreateInput(bad, isHttp), InputError, JSON.stringify(bad));
    }
    assert.deepEqual(await h.requests(), []);
  });
});
