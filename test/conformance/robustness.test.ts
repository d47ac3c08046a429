/**
 * Robustness: a few hundred random requests (seeded, so a failure can be replayed) with
 * odd methods, paths, headers and bodies. Each gets a JSON answer (or none where HTTP says
 * so: HEAD, 204, 304), and the service still serves afterwards.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { prng } from '../service/seed';
import { adminReply, call, client, useService, type Reply } from './helpers';

const SEED = 20261121;
const REQUESTS = 400;

/** Sends raw bytes and answers the raw reply (for what an HTTP client refuses to send). */
function raw(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes));
    let text = '';
    socket.setTimeout(5000, () => socket.destroy(new Error('raw request timed out')));
    socket.on('data', (chunk) => (text += chunk.toString('latin1')));
    socket.on('end', () => resolve(text));
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });
}

describe('robustness', function () {
  this.timeout(60_000);
  const ctx = useService({
    faults: true,
    seed: 30,
    rateLimit: 120,
    keys: ['demo-key', 'second-key'],
    forbiddenKeys: ['banned'],
  });

  it(`answers ${REQUESTS} random requests with JSON and keeps serving`, async () => {
    const random = prng(SEED);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
    const port = ctx.service.port;
    const demo = (page: string): string => `http://shop.localhost:${port}/demo-site/${page}`;

    const methods = [
      'GET',
      'GET',
      'GET',
      'POST',
      'POST',
      'PUT',
      'PATCH',
      'PATCH',
      'DELETE',
      'HEAD',
      'OPTIONS',
      'TRACE',
      'PROPFIND',
      'FOO',
    ];
    const paths = [
      '/api/v1/reports',
      '/api/v1/reports',
      '/api/v1/reports',
      '/api/v1/reports/2',
      '/api/v1/reports/5',
      '/api/v1/projects',
      '/api/v1/reports',
      '/api/v1/reports/',
      '/api/v1/reports/1',
      '/api/v1/reports/7',
      '/api/v1/reports/0',
      '/api/v1/reports/-3',
      '/api/v1/reports/99999999999999999999',
      '/api/v1/reports/abc',
      '/api/v1/reports/1/2',
      '/api/v1/projects',
      '/api/v1/projects/shop.localhost',
      '/api/v1/projects/%ZZ',
      '/api/v1/projects/a%2Fb',
      '/api/v1/projects/%00',
      '/api/v1/projects/',
      '/api/v1',
      '/api/v2/reports',
      '/api',
      '/',
      '//api/v1/reports',
      '/api/v1/reports/%',
      '/__admin/faults',
      '/__admin/requests',
      '/__admin/shape',
      '/__admin/reports',
      '/__admin/nothing',
      '/x/../api/v1/reports',
      '/api/v1/reports/' + encodeURIComponent('é'.repeat(50)),
      '/' + 'a'.repeat(3000),
      '/api/v1/reports?' + 'x=1&'.repeat(300),
    ];
    const queries = [
      '',
      '?page=2',
      '?per_page=7',
      '?per_page=100&sort_by=score&sort=asc',
      '?search=%25&search_by=url',
      '?search[]=a',
      '?result=good&project=shop.localhost',
      '?sort_by=nope&sort=sideways&result=x&per_page=3',
      '?page=-1',
      '?page=%FF',
      '?search=' + encodeURIComponent('"\'<>&;%_\\é😀'),
      '?=&&==&a',
      '?per_page[x]=1',
      '?search=' + 'z'.repeat(5000),
    ];
    const keys = [
      null,
      'demo-key',
      'demo-key',
      'demo-key',
      'demo-key',
      'demo-key',
      'second-key',
      'banned',
      'wrong',
      '',
      'demo-key extra',
      'clé',
    ];
    const values: unknown[] = [
      demo('good.html'),
      demo('bad.html'),
      demo('missing.html'),
      demo('data.json'),
      'http://',
      'ftp://x',
      'javascript:alert(1)',
      '0',
      '1',
      '2',
      '3',
      '-1',
      'x',
      '',
      ' ',
      'é😀',
      '%',
      '&=&',
      0,
      1,
      2,
      2.5,
      -7,
      true,
      false,
      null,
      [],
      ['a'],
      { a: 1 },
      'x'.repeat(3000),
    ];
    const fields = [
      'url',
      'privacy',
      'password',
      'update',
      'search',
      'report',
      'key',
      'count',
      'list',
      'ids',
      'x',
      'a[]',
      'b[c]',
    ];
    const contentTypes = [
      undefined,
      'application/x-www-form-urlencoded',
      'application/json',
      'application/json; charset=utf-8',
      'text/plain',
      'multipart/form-data; boundary=B',
      'multipart/form-data',
      'application/vnd.api+json',
      'garbage/;;;',
      'application/xml',
    ];
    const faultHeaders = [
      '{"status":500}',
      '{',
      '{"status":"x"}',
      '{"headers":{"X-A":"1"}}',
      '[]',
      '{"redirectTo":"http://x.localhost/"}',
    ];

    /** A body and the type it is sent with: mostly the right type, sometimes any. */
    const randomBody = (): { body?: string | Buffer; type?: string } => {
      const anyType = (): string | undefined => pick(contentTypes);
      switch (Math.floor(random() * 7)) {
        case 0:
          return random() < 0.5 ? {} : { type: anyType() };
        case 1:
        case 2: {
          const params = new URLSearchParams();
          const count = Math.floor(random() * 5);
          for (let i = 0; i < count; i++) params.append(pick(fields), String(pick(values)));
          return { body: params.toString(), type: random() < 0.8 ? 'application/x-www-form-urlencoded' : anyType() };
        }
        case 3:
        case 4: {
          const object: Record<string, unknown> = {};
          const count = Math.floor(random() * 5);
          for (let i = 0; i < count; i++) object[pick(fields)] = pick(values);
          return {
            body: JSON.stringify(random() < 0.1 ? [object] : object),
            type: random() < 0.8 ? 'application/json' : anyType(),
          };
        }
        case 5:
          return {
            body: pick([
              '{',
              '{"url":',
              'null',
              '[]',
              '"x"',
              '--B\r\nContent-Disposition: form-data; name="url"\r\n\r\nhttp://a.test/\r\n--B--\r\n',
              '%%%',
              '\u0000\u0001',
            ]),
            type: anyType(),
          };
        default:
          return { body: randomBytes(Math.floor(random() * 200)), type: anyType() };
      }
    };

    const failures: string[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      const method = pick(methods);
      const path = pick(paths) + (random() < 0.5 ? pick(queries) : '');
      const headers: Record<string, string> = {};
      const key = pick(keys);
      if (key !== null) headers.Authorization = random() < 0.9 ? `Bearer ${key}` : key;
      const fault = random() < 0.15 ? pick(faultHeaders) : undefined;
      if (fault) headers['X-Fault'] = fault;
      if (random() < 0.1) headers.Accept = pick(['text/html', '*/*', 'application/xml', '']);
      // (Not with HEAD: the 431 comes before the method is known, with a body a HEAD client cannot read.)
      if (random() < 0.05 && method !== 'HEAD') headers['X-Long'] = 'y'.repeat(20_000);
      const { body, type } = method === 'HEAD' ? {} : randomBody();
      if (type) headers['Content-Type'] = type;
      const label = `#${i} ${method} ${path.slice(0, 80)}${fault ? ` X-Fault ${fault}` : ''}`;
      let reply: Reply;
      try {
        reply = await call(ctx.service.url, method, path, {
          key: null,
          headers: headers,
          ...(body === undefined ? {} : { body }),
          timeoutMs: 10_000,
        });
      } catch (error) {
        failures.push(`${label}: no answer (${(error as Error).message})`);
        continue;
      }
      const bodiless = method === 'HEAD' || reply.status === 204 || reply.status === 304;
      if (bodiless) {
        if (reply.text !== '') failures.push(`${label}: ${reply.status} with a body`);
        continue;
      }
      if (!/^application\/json/.test(String(reply.headers['content-type'])) || reply.json === undefined) {
        failures.push(`${label}: ${reply.status} ${String(reply.headers['content-type'])} ${reply.text.slice(0, 80)}`);
      }
      // A 5xx is only right when a fault asked for it.
      if (reply.status >= 500 && !fault?.includes('500'))
        failures.push(`${label}: server error ${reply.status} ${reply.text.slice(0, 80)}`);
    }
    assert.deepEqual(failures, []);

    // What an HTTP client will not send: CONNECT, an upgrade, a broken request line, a bad chunk.
    for (const bytes of [
      'CONNECT 127.0.0.1:1 HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET /api/v1/reports HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n',
      'NOT HTTP AT ALL\r\n\r\n',
      'POST /api/v1/reports HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nZZZ\r\n',
      'GET /api/v1/reports HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n',
    ]) {
      const answer = await raw(port, bytes);
      assert.match(answer, /^HTTP\/1\.1 [45]\d\d /, JSON.stringify(bytes));
      assert.match(answer, /\r\nContent-Type: application\/json/i, JSON.stringify(bytes));
    }

    // Still serving, with the admin state put back.
    await adminReply(ctx.service, 'DELETE', '/__admin/faults');
    await adminReply(ctx.service, 'DELETE', '/__admin/shape');
    await new Promise((resolve) => setTimeout(resolve, 10));
    const reply = await client(ctx.service, 'second-key').get('/api/v1/reports');
    assert.equal(reply.status, 200);
    assert.ok(Array.isArray(reply.json.data));
    const log = await adminReply(ctx.service, 'GET', '/__admin/requests');
    assert.equal(log.status, 200);
  });
});
