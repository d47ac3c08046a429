/** The analysis is real: each demo page gets its own result, from at least 15 checks. */
import assert from 'node:assert/strict';
import { THRESHOLDS, WEIGHTS } from '../service/checks';
import { assertValidation, call, client, type Json, useService } from './helpers';

describe('page analysis and the demo site', function () {
  this.timeout(20_000);
  const ctx = useService({ slowPageDelayMs: 1100, fetchTimeoutMs: 2500 });
  const api = () => client(ctx.service);
  const page = (name: string): string => `http://docs.localhost:${ctx.service.port}/demo-site/${name}`;
  const analyzed = new Map<string, Json>();

  before(async function () {
    this.timeout(20_000);
    const names = ['good.html', 'mediocre.html', 'bad.html', 'broken.html', 'slow.html', 'moved.html', 'index.html'];
    const replies = await Promise.all(
      names.map((name) => api().post('/api/v1/reports', { form: { url: page(name) } })),
    );
    replies.forEach((reply, i) => {
      assert.equal(reply.status, 201, `${names[i]}: ${reply.text}`);
      analyzed.set(names[i], reply.json.data);
    });
  });

  it('gives every demo page a different score', () => {
    const scores = [...analyzed.values()].map((report) => report.score);
    assert.equal(new Set(scores).size, scores.length, JSON.stringify([...analyzed].map(([n, r]) => [n, r.score])));
  });

  it('rates the excellent page good, the mediocre one decent and the bad one bad', () => {
    assert.equal(analyzed.get('good.html').result, 'good');
    assert.equal(analyzed.get('mediocre.html').result, 'decent');
    assert.equal(analyzed.get('bad.html').result, 'bad');
    assert.equal(analyzed.get('broken.html').result, 'bad');
    assert.ok(analyzed.get('good.html').score > analyzed.get('slow.html').score);
    assert.ok(analyzed.get('mediocre.html').score > analyzed.get('bad.html').score);
  });

  it('answers at least 15 checks, each with passed, importance and value', () => {
    for (const [name, report] of analyzed) {
      const checks = Object.entries<Json>(report.results);
      assert.ok(checks.length >= 15, name);
      for (const [check, entry] of checks) {
        assert.deepEqual(Object.keys(entry).sort(), ['importance', 'passed', 'value'], `${name} ${check}`);
        assert.equal(typeof entry.passed, 'boolean');
        assert.ok(['high', 'medium', 'low'].includes(entry.importance));
      }
    }
  });

  it('computes the score as the weighted share of passed checks, and the result by thresholds', () => {
    for (const [name, report] of analyzed) {
      let total = 0;
      let passed = 0;
      for (const entry of Object.values<{ passed: boolean; importance: 'high' | 'medium' | 'low' }>(report.results)) {
        total += WEIGHTS[entry.importance];
        if (entry.passed) passed += WEIGHTS[entry.importance];
      }
      assert.equal(report.score, Math.round((passed / total) * 1000) / 10, name);
      const expected = report.score >= THRESHOLDS.good ? 'good' : report.score >= THRESHOLDS.decent ? 'decent' : 'bad';
      assert.equal(report.result, expected, name);
    }
  });

  it('reads what the pages hold', () => {
    const good = analyzed.get('good.html').results;
    assert.equal(good.title.value, 'Aurora Desk Lamp – Lumen Lamps');
    assert.deepEqual(good.h1.value, ['Aurora Desk Lamp']);
    assert.equal(good.lang.value, 'en');
    assert.equal(good.https.passed, false, 'the demo site is plain http');
    assert.deepEqual(good.structured_data.value, ['Product']);
    assert.equal(good.canonical.value, page('good.html'));
    assert.ok(good.word_count.value >= 250);
    const bad = analyzed.get('bad.html').results;
    assert.equal(bad.noindex.passed, false);
    assert.deepEqual(bad.deprecated_tags.value, ['center', 'font', 'marquee']);
    assert.equal(bad.image_alt.value.missing_alt, 2);
    assert.equal(bad.doctype.value, null);
    assert.equal(analyzed.get('slow.html').results.response_time.passed, false);
    assert.ok(analyzed.get('slow.html').results.response_time.value >= 1000);
    assert.equal(analyzed.get('moved.html').results.redirects.value, 1);
    assert.equal(analyzed.get('mediocre.html').results.heading_order.value[0], 'h2 → h4');
    assert.equal(analyzed.get('broken.html').results.h1.value.length, 2);
  });

  it('times out a page that never answers, as a 422 on url', async () => {
    const body = assertValidation(await api().post('/api/v1/reports', { form: { url: page('hang.html') } }), ['url']);
    assert.match(body.message, /did not answer within 2500 ms/);
  });

  it('serves the demo site: index, pages, assets; 404 for others', async () => {
    const index = await call(ctx.service.url, 'GET', '/demo-site/');
    assert.equal(index.status, 200);
    assert.match(String(index.headers['content-type']), /^text\/html/);
    assert.match(index.text, /good\.html/);
    assert.equal((await call(ctx.service.url, 'GET', '/demo-site/lamp.svg')).headers['content-type'], 'image/svg+xml');
    assert.equal((await call(ctx.service.url, 'GET', '/demo-site/missing.html')).status, 404);
    assert.equal((await call(ctx.service.url, 'GET', '/demo-site/../server.ts')).status, 404);
    assert.equal((await call(ctx.service.url, 'GET', '/demo-site/%2e%2e%2fserver.ts')).status, 404);
    const moved = await call(ctx.service.url, 'GET', '/demo-site/moved.html');
    assert.equal(moved.status, 301);
    assert.equal(moved.headers.location, '/demo-site/good.html');
  });
});
