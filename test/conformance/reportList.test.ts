/** Contract §2 for `GET /api/v1/reports`: envelope, paging, validation, filters, search and sorts. */
import assert from 'node:assert/strict';
import { type Json, allPages, assertValidation, client, insertReport, ISO, ordinal, useService } from './helpers';

describe('report list (contract §2)', function () {
  this.timeout(20_000);
  const ctx = useService({ seed: 57, keys: ['demo-key', 'fixture-key'], faults: true });
  const api = () => client(ctx.service);
  const fixtures = () => client(ctx.service, 'fixture-key');

  it('answers the Laravel envelope: data, links and meta, 10 a page, newest id first', async () => {
    const reply = await api().get('/api/v1/reports');
    assert.equal(reply.status, 200);
    assert.match(String(reply.headers['content-type']), /^application\/json/);
    const { data, links, meta } = reply.json;
    assert.deepEqual(Object.keys(reply.json), ['data', 'links', 'meta']);
    assert.equal(data.length, 10);
    assert.deepEqual(
      data.map((r: { id: number }) => r.id),
      [57, 56, 55, 54, 53, 52, 51, 50, 49, 48],
    );
    const base = `${ctx.service.url}/api/v1/reports`;
    assert.deepEqual(links, { first: `${base}?page=1`, last: `${base}?page=6`, prev: null, next: `${base}?page=2` });
    assert.deepEqual(meta, { current_page: 1, from: 1, last_page: 6, path: base, per_page: 10, to: 10, total: 57 });
  });

  it('answers canonical reports (contract §1)', async () => {
    const reply = await api().get('/api/v1/reports?per_page=100');
    for (const report of reply.json.data) {
      assert.deepEqual(Object.keys(report), [
        'id',
        'url',
        'project',
        'result',
        'score',
        'privacy',
        'results',
        'generated_at',
        'created_at',
        'updated_at',
      ]);
      assert.equal(typeof report.id, 'number');
      assert.equal(report.project, new URL(report.url).hostname);
      assert.ok(['good', 'decent', 'bad'].includes(report.result));
      assert.ok(report.score >= 0 && report.score <= 100);
      assert.ok([0, 1, 2].includes(report.privacy));
      assert.ok(!('password' in report));
      for (const date of [report.generated_at, report.created_at, report.updated_at]) assert.match(date, ISO);
      assert.ok(Object.keys(report.results).length >= 15);
    }
  });

  it('pages: the last page is short, a page past it is empty with true meta', async () => {
    const base = `${ctx.service.url}/api/v1/reports`;
    const last = await api().get('/api/v1/reports?page=6');
    assert.equal(last.json.data.length, 7);
    assert.deepEqual(last.json.meta, {
      current_page: 6,
      from: 51,
      last_page: 6,
      path: base,
      per_page: 10,
      to: 57,
      total: 57,
    });
    assert.equal(last.json.links.next, null);
    assert.equal(last.json.links.prev, `${base}?page=5`);
    const past = await api().get('/api/v1/reports?page=9');
    assert.equal(past.status, 200);
    assert.deepEqual(past.json.data, []);
    assert.deepEqual(past.json.meta, {
      current_page: 9,
      from: null,
      last_page: 6,
      path: base,
      per_page: 10,
      to: null,
      total: 57,
    });
    assert.equal(past.json.links.next, null);
    assert.equal(past.json.links.prev, `${base}?page=8`);
    assert.equal(past.json.links.last, `${base}?page=6`);
  });

  it('takes a missing or invalid page as page 1', async () => {
    for (const page of ['0', '-1', 'abc', '1.5', '', '99999999999999999999']) {
      const reply = await api().get(`/api/v1/reports?page=${encodeURIComponent(page)}`);
      assert.equal(reply.status, 200, page);
      assert.equal(reply.json.meta.current_page, 1, page);
      assert.equal(reply.json.data[0].id, 57, page);
    }
  });

  it('accepts per_page 10, 25, 50 and 100 and nothing else', async () => {
    for (const perPage of [10, 25, 50, 100]) {
      const reply = await api().get(`/api/v1/reports?per_page=${perPage}`);
      assert.equal(reply.status, 200);
      assert.equal(reply.json.data.length, Math.min(perPage, 57));
      assert.equal(reply.json.meta.per_page, perPage);
      assert.equal(reply.json.meta.last_page, Math.ceil(57 / perPage));
    }
    for (const perPage of ['7', '0', '1000', 'ten', '25.0', '-10']) {
      const body = assertValidation(await api().get(`/api/v1/reports?per_page=${perPage}`), ['per_page']);
      assert.equal(body.message, 'The selected per page is invalid.');
    }
  });

  it('rejects unknown sort, sort_by, search_by and result values with 422', async () => {
    const cases: [string, string, string][] = [
      ['sort=up', 'sort', 'The selected sort is invalid.'],
      ['sort_by=created_at', 'sort_by', 'The selected sort by is invalid.'],
      ['sort_by=project', 'sort_by', 'The selected sort by is invalid.'],
      ['search_by=project', 'search_by', 'The selected search by is invalid.'],
      ['result=great', 'result', 'The selected result is invalid.'],
      ['result=GOOD', 'result', 'The selected result is invalid.'],
    ];
    for (const [query, field, message] of cases) {
      const body = assertValidation(await api().get(`/api/v1/reports?${query}`), [field]);
      assert.equal(body.message, message);
      assert.deepEqual(body.errors[field], [message]);
    }
  });

  it('summarizes several errors like Laravel', async () => {
    const two = assertValidation(await api().get('/api/v1/reports?per_page=7&sort=up'), ['sort', 'per_page']);
    assert.match(two.message, /^The selected .+ is invalid\. \(and 1 more error\)$/);
    const three = assertValidation(await api().get('/api/v1/reports?per_page=7&sort=up&result=x'), [
      'sort',
      'per_page',
      'result',
    ]);
    assert.match(three.message, /\(and 2 more errors\)$/);
  });

  it('rejects a search sent as an array', async () => {
    const body = assertValidation(await api().get('/api/v1/reports?search[]=a'), ['search']);
    assert.equal(body.message, 'The search field must be a string.');
  });

  it('keeps the other query parameters in links, without page, encoded', async () => {
    // `+` in a query is a space; links write it back as %20 (PHP's rawurlencode).
    const reply = await api().get(
      '/api/v1/reports?search=demo-site/&sort_by=score&page=2&sort=asc&per_page=25&note=a+b',
    );
    const base = `${ctx.service.url}/api/v1/reports`;
    const query = 'search=demo-site%2F&sort_by=score&sort=asc&per_page=25&note=a%20b';
    assert.deepEqual(reply.json.links, {
      first: `${base}?${query}&page=1`,
      last: `${base}?${query}&page=3`,
      prev: `${base}?${query}&page=1`,
      next: `${base}?${query}&page=3`,
    });
  });

  for (const sortBy of ['id', 'generated_at', 'url', 'score']) {
    for (const sort of ['asc', 'desc']) {
      it(`sorts by ${sortBy} ${sort}, ties broken by id the same way, pages never overlap`, async () => {
        const items = await allPages(api().get, `/api/v1/reports?sort_by=${sortBy}&sort=${sort}`, 25);
        assert.equal(items.length, 57);
        assert.equal(new Set(items.map((r) => r.id)).size, 57);
        const key = (r: Json): number | string =>
          sortBy === 'generated_at' ? r.generated_at : (r[sortBy] as number | string);
        const sign = sort === 'asc' ? 1 : -1;
        for (let i = 1; i < items.length; i++) {
          const a = items[i - 1];
          const b = items[i];
          const byKey =
            typeof key(a) === 'number'
              ? (key(a) as number) - (key(b) as number)
              : ordinal(String(key(a)), String(key(b)));
          const order = Math.sign(byKey) || Math.sign(a.id - b.id);
          assert.equal(order, -sign, `${sortBy} ${sort} at ${i}: ${a.id} then ${b.id}`);
        }
      });
    }
  }

  it('defaults to sort_by=id and sort=desc', async () => {
    const plain = await api().get('/api/v1/reports?per_page=100');
    const explicit = await api().get('/api/v1/reports?per_page=100&sort_by=id&sort=desc');
    assert.deepEqual(plain.json.data, explicit.json.data);
  });

  it('sorts text by code unit, not by locale', async () => {
    const urls = [
      'https://order.test/b',
      'https://order.test/B',
      'https://order.test/a',
      'https://order.test/É',
      'https://order.test/e',
      'https://order.test/Z',
    ];
    for (const url of urls) await insertReport(ctx.service, { url, score: 50, result: 'decent' }, 'fixture-key');
    const asc = await fixtures().get('/api/v1/reports?sort_by=url&sort=asc&search=order.test');
    assert.deepEqual(
      asc.json.data.map((r: { url: string }) => r.url),
      [...urls].sort(ordinal),
    );
    assert.deepEqual(
      asc.json.data.map((r: { url: string }) => r.url.slice(-1)),
      ['B', 'Z', 'a', 'b', 'e', 'É'],
    );
  });

  it('searches a substring of the URL, case-insensitively, with % _ quotes and non-ASCII taken literally', async () => {
    const urls = [
      'https://search.test/sale?discount=100%',
      'https://search.test/a_b',
      'https://search.test/aXb',
      'https://search.test/say-"hello"',
      "https://search.test/it's-here",
      'https://search.test/café',
      'https://search.test/CAFÉ-NOIR',
      'https://search.test/Ünïcödé',
    ];
    for (const url of urls) await insertReport(ctx.service, { url, score: 10, result: 'bad' }, 'fixture-key');
    const found = async (search: string): Promise<string[]> => {
      const reply = await fixtures().get(
        `/api/v1/reports?per_page=100&sort_by=url&sort=asc&search=${encodeURIComponent(search)}`,
      );
      assert.equal(reply.status, 200, reply.text);
      return reply.json.data.map((r: { url: string }) => r.url.replace('https://search.test/', ''));
    };
    assert.deepEqual(await found('%'), ['sale?discount=100%']);
    assert.deepEqual(await found('100%'), ['sale?discount=100%']);
    assert.deepEqual(await found('a_b'), ['a_b']);
    assert.deepEqual(await found('_'), ['a_b']);
    assert.deepEqual(await found('"hello"'), ['say-"hello"']);
    assert.deepEqual(await found("it's"), ["it's-here"]);
    assert.deepEqual(await found('café'), ['CAFÉ-NOIR', 'café']);
    assert.deepEqual(await found('CAFÉ'), ['CAFÉ-NOIR', 'café']);
    assert.deepEqual(await found('ünïcödé'), ['Ünïcödé']);
    assert.deepEqual(await found('AXB'), ['aXb']);
    assert.deepEqual(await found('search.test/zzz'), []);
    const explicit = await fixtures().get(`/api/v1/reports?search=a_b&search_by=url`);
    assert.equal(explicit.json.meta.total, 1);
  });

  it('filters by result and by project, alone and with a search', async () => {
    const all = await allPages(api().get, '/api/v1/reports');
    for (const result of ['good', 'decent', 'bad']) {
      const expected = all.filter((r) => r.result === result).map((r) => r.id);
      assert.ok(expected.length > 0, `the seed has ${result} reports`);
      const items = await allPages(api().get, `/api/v1/reports?result=${result}`);
      assert.deepEqual(
        items.map((r) => r.id),
        expected,
      );
    }
    const project = 'shop.localhost';
    const inProject = all.filter((r) => r.project === project);
    const items = await allPages(api().get, `/api/v1/reports?project=${project}`);
    assert.deepEqual(
      items.map((r) => r.id),
      inProject.map((r) => r.id),
    );
    const both = await allPages(api().get, `/api/v1/reports?project=${project}&result=good&search=GOOD.HTML`);
    assert.deepEqual(
      both.map((r) => r.id),
      inProject.filter((r) => r.result === 'good' && r.url.toLowerCase().includes('good.html')).map((r) => r.id),
    );
    const none = await api().get('/api/v1/reports?project=no-such-project.test');
    assert.deepEqual(none.json.data, []);
    assert.equal(none.json.meta.total, 0);
    assert.equal(none.json.meta.last_page, 1);
  });
});
