/**
 * CORS as a Laravel application with its default `config/cors.php` answers it (every origin,
 * method and header allowed on `api/*`, nothing exposed, `max_age` 0, no credentials), on the
 * admin endpoints too; `cors: false` (`--no-cors`) answers none of it.
 */
import assert from 'node:assert/strict';
import { parseArgs } from '../service/cli';
import { call, useService } from './helpers';

const ORIGIN = 'http://127.0.0.1:9999';

/** A browser's preflight for a request with these method and headers. */
function preflight(base: string, path: string, method: string, headers?: string): ReturnType<typeof call> {
  return call(base, 'OPTIONS', path, {
    headers: {
      Origin: ORIGIN,
      'Access-Control-Request-Method': method,
      ...(headers === undefined ? {} : { 'Access-Control-Request-Headers': headers }),
    },
  });
}

describe('CORS (Laravel default)', () => {
  const ctx = useService({ keys: ['demo-key'], seed: 2, faults: true, rateLimit: 60 });

  it('answers a preflight with 204, echoing the requested method and headers (not *), nothing exposed', async () => {
    const reply = await preflight(ctx.service.url, '/api/v1/reports', 'GET', 'authorization');
    assert.equal(reply.status, 204);
    assert.equal(reply.text, '');
    assert.equal(reply.headers['access-control-allow-origin'], '*');
    assert.equal(reply.headers['access-control-allow-methods'], 'GET');
    // `Allow-Headers: *` would not cover Authorization: the requested list comes back as sent.
    assert.equal(reply.headers['access-control-allow-headers'], 'authorization');
    assert.equal(reply.headers['access-control-max-age'], '0');
    assert.equal(reply.headers['access-control-allow-credentials'], undefined);
    assert.equal(reply.headers['access-control-expose-headers'], undefined);
    assert.match(String(reply.headers.vary), /Access-Control-Request-Method/);
  });

  it('echoes a write preflight with several headers, and the preflight reaches no handler', async () => {
    const reply = await preflight(ctx.service.url, '/api/v1/reports/1', 'PATCH', 'authorization,content-type');
    assert.equal(reply.status, 204);
    assert.equal(reply.headers['access-control-allow-methods'], 'PATCH');
    assert.equal(reply.headers['access-control-allow-headers'], 'authorization,content-type');
    const requests = await call(ctx.service.url, 'GET', '/__admin/requests');
    assert.deepEqual(
      (requests.json as { method: string }[]).filter((r) => r.method === 'OPTIONS'),
      [],
      'a preflight is answered by the CORS layer, not logged as an API request',
    );
  });

  it('adds Allow-Origin * to every API answer, errors and rate-limit answers included, and exposes nothing', async () => {
    const ok = await call(ctx.service.url, 'GET', '/api/v1/reports', { key: 'demo-key', headers: { Origin: ORIGIN } });
    assert.equal(ok.status, 200);
    assert.equal(ok.headers['access-control-allow-origin'], '*');
    assert.equal(ok.headers['access-control-expose-headers'], undefined);
    // The rate-limit headers are sent, but a browser may not read them (not exposed).
    assert.ok(ok.headers['x-ratelimit-limit'] !== undefined);
    const unauthorized = await call(ctx.service.url, 'GET', '/api/v1/reports', { key: null });
    assert.equal(unauthorized.status, 401);
    assert.equal(unauthorized.headers['access-control-allow-origin'], '*');
    await call(ctx.service.url, 'POST', '/__admin/faults', {
      json: { path: '/api/v1/reports', status: 502, body: 'html' },
    });
    const fault = await call(ctx.service.url, 'GET', '/api/v1/reports', { key: 'demo-key' });
    assert.equal(fault.status, 502);
    assert.equal(fault.headers['access-control-allow-origin'], '*');
  });

  it('answers CORS on /__admin too, and not on paths outside api/* (the demo site, the root)', async () => {
    const adminPreflight = await preflight(ctx.service.url, '/__admin/faults', 'POST', 'content-type');
    assert.equal(adminPreflight.status, 204);
    assert.equal(adminPreflight.headers['access-control-allow-headers'], 'content-type');
    const admin = await call(ctx.service.url, 'GET', '/__admin/requests', { headers: { Origin: ORIGIN } });
    assert.equal(admin.headers['access-control-allow-origin'], '*');
    const root = await call(ctx.service.url, 'GET', '/', { headers: { Origin: ORIGIN } });
    assert.equal(root.status, 200);
    assert.equal(root.headers['access-control-allow-origin'], undefined);
    const demo = await call(ctx.service.url, 'GET', '/demo-site/', { headers: { Origin: ORIGIN } });
    assert.equal(demo.headers['access-control-allow-origin'], undefined);
  });

  it('records the Origin of API requests (null without one)', async () => {
    await call(ctx.service.url, 'DELETE', '/__admin/requests');
    await call(ctx.service.url, 'GET', '/api/v1/projects', { key: 'demo-key', headers: { Origin: ORIGIN } });
    await call(ctx.service.url, 'GET', '/api/v1/projects', { key: 'demo-key' });
    const requests = await call(ctx.service.url, 'GET', '/__admin/requests');
    assert.deepEqual(
      (requests.json as { origin: string | null }[]).map((r) => r.origin),
      [ORIGIN, null],
    );
  });
});

describe('CORS off (--no-cors)', () => {
  const ctx = useService({ keys: ['demo-key'], faults: true, cors: false });

  it('is what --no-cors sets', () => {
    assert.deepEqual(parseArgs(['--no-cors']), { port: 8787, quiet: false, cors: false });
  });

  it('sends no CORS header, and a preflight is an ordinary API request the API does not route', async () => {
    const reply = await preflight(ctx.service.url, '/api/v1/reports', 'GET', 'authorization');
    assert.notEqual(reply.status, 204);
    assert.equal(reply.headers['access-control-allow-origin'], undefined);
    assert.equal(reply.headers['access-control-allow-headers'], undefined);
    const ok = await call(ctx.service.url, 'GET', '/api/v1/reports', { key: 'demo-key', headers: { Origin: ORIGIN } });
    assert.equal(ok.status, 200);
    assert.equal(ok.headers['access-control-allow-origin'], undefined);
    const admin = await call(ctx.service.url, 'GET', '/__admin/requests', { headers: { Origin: ORIGIN } });
    assert.equal(admin.headers['access-control-allow-origin'], undefined);
  });
});
