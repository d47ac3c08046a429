/**
 * Every failure row of the product spec's table, made real by the reference service's fault
 * injection (or a refused port, or a second origin): the error kind, the sentence the user
 * gets, retries for reads only, and writes sent exactly once.
 */
import * as assert from 'node:assert/strict';
import { secretInMessage, withoutSecrets } from '../../../src/api/failures';
import { describeError, validationText } from '../../../src/api/messages';
import type { ReportsApi } from '../../../src/api/types';
import { FORBIDDEN_KEY, Harness, KEY, OtherOrigin, PASSWORD, refusedPort } from './harness';

describe('api client: failures', function () {
  this.timeout(30_000);
  let h: Harness;
  let api: ReportsApi;
  let reportId: number | string;

  before(async () => {
    h = await Harness.start();
    await h.clean();
    reportId = (await h.client().listReports({}, 1)).items[0].id;
  });
  after(async () => {
    h.auditSecrets();
    await h.stop();
  });
  beforeEach(async () => {
    await h.clean();
    api = h.client();
  });

  const reportsPath = '/api/v1/reports';

  /** A report of its own project, through the admin API (so writes under test can change it freely). */
  async function insertReport(): Promise<{ id: number | string; project: string }> {
    const project = `once-${Math.random().toString(36).slice(2)}.localhost`;
    const answer = await h.admin<Record<string, unknown>>('reports', {
      key: KEY,
      report: { url: `http://${project}/` },
    });
    const report = (answer.data ?? answer) as { id: number | string; project: string };
    assert.equal(report.project, project);
    return report;
  }
  const count = async (method: string) => (await h.requests()).filter((r) => r.method === method).length;

  describe('answers with an error status', () => {
    it('401: unauthorized, "The service rejected the API key." with Set API Key', async () => {
      const error = await h.failure(h.client({ getKey: () => 'wrong-key' }).listReports({}, 1), 'unauthorized');
      assert.equal(error.status, 401);
      assert.equal(error.serviceMessage, 'Unauthenticated.');
      assert.deepEqual(describeError(error), { message: 'The service rejected the API key.', actions: ['setApiKey'] });
      await h.failure(h.client({ getKey: () => undefined }).listReports({}, 1), 'unauthorized');
      const recorded = await h.requests();
      assert.deepEqual(
        recorded.map((r) => r.hasAuthorization),
        [true, false],
      );
      assert.equal(recorded.length, 2, '401 is not retried');
    });

    it("403: forbidden, the service's message and what the key may not do", async () => {
      const forbidden = h.client({ getKey: () => FORBIDDEN_KEY });
      const error = await h.failure(forbidden.deleteReport(reportId), 'forbidden');
      assert.equal(error.serviceMessage, 'This action is unauthorized.');
      assert.deepEqual(describeError(error), {
        message: `This action is unauthorized. (This API key may not delete report ${reportId}.)`,
        actions: ['setApiKey'],
      });
    });

    it('404: "Report N no longer exists."', async () => {
      const error = await h.failure(api.getReport(424242), 'notFound');
      assert.equal(error.serviceMessage, 'Resource not found.');
      assert.equal(describeError(error).message, 'Report 424242 no longer exists.');
      const update = await h.failure(api.updateReport(424242, { update: true }), 'notFound');
      assert.equal(describeError(update, { reportId: 424242 }).message, 'Report 424242 no longer exists.');
    });

    it("422: validation with the service's field messages", async () => {
      const error = await h.failure(api.createReport({ url: 'not a url' }), 'validation');
      assert.equal(error.status, 422);
      assert.deepEqual(error.fieldErrors, { url: ['The url field must be a valid URL.'] });
      assert.equal(describeError(error).message, 'The url field must be a valid URL.');
      const password = await h.failure(
        api.createReport({ url: `${h.url}/demo-site/good.html`, privacy: 2 }),
        'validation',
      );
      assert.ok(password.fieldMessages('password').length > 0);
      const perPage = await h.failure(api.listReports({ perPage: 7 as never }, 1), 'validation');
      assert.ok(perPage.fieldMessages('per_page').length > 0);
      assert.equal(await count('POST'), 2, 'a 422 write is not repeated');
    });

    it('422 that echoes the report password: blanked out before the text is cleaned and cut, so no part of it shows', async () => {
      const password = 'correct  horse\tbattery';
      await h.fault({
        method: 'POST',
        path: '/api/v1/reports',
        status: 422,
        body: {
          message: `The password "${password}" has appeared in a data breach.`,
          errors: { password: [`"${password}" is too common.`, `${'x'.repeat(290)}${password}`] },
        },
      });
      const error = await h.failure(
        api.createReport({ url: `${h.url}/demo-site/good.html`, privacy: 2, password }),
        'validation',
      );
      const texts = [error.serviceMessage ?? '', ...error.fieldMessages(), describeError(error).message, error.message];
      for (const text of texts) assert.ok(!/correct|horse|battery/.test(text), text);
      assert.ok((error.serviceMessage ?? '').includes('***'), error.serviceMessage);
    });

    it('422 whose words contain a short report password (`pass` in "password"): not blanked in place, where it would show where the password was', async () => {
      const password = 'pass';
      await h.fault({
        method: 'POST',
        path: '/api/v1/reports',
        status: 422,
        body: {
          message: 'The password field must be at least 8 characters.',
          errors: { password: ['The password field must be at least 8 characters.'], url: ['Try https, not http.'] },
        },
      });
      const error = await h.failure(
        api.createReport({ url: `${h.url}/demo-site/good.html`, privacy: 2, password }),
        'validation',
      );
      assert.equal(error.serviceMessage, undefined, 'the message is not used');
      assert.deepEqual(error.fieldMessages('password'), [secretInMessage()], 'the field still says it was refused');
      assert.deepEqual(error.fieldMessages('url'), ['Try https, not http.'], 'a message without the password stays');
      for (const text of [...error.fieldMessages(), describeError(error).message, error.message]) {
        assert.doesNotMatch(text, /\*\*\*/, text);
      }
      // A secret standing on its own is still blanked in place.
      assert.equal(withoutSecrets('Too short: "pass".', [password]), 'Too short: "***".');
      assert.equal(withoutSecrets('Pass: pass1', [password]), undefined);
    });

    it('422 with 300 fields of 8 long messages each: at most 20 fields of 5 messages read, and what the user reads stays short', async () => {
      const errors = Object.fromEntries(
        Array.from({ length: 300 }, (_, i) => [
          `field_${i}`,
          Array.from({ length: 8 }, (__, j) => `Message ${j} of field ${i}: ${'x'.repeat(300)}`),
        ]),
      );
      await h.fault({ method: 'POST', path: '/api/v1/reports', status: 422, body: { message: 'Invalid.', errors } });
      const error = await h.failure(api.createReport({ url: `${h.url}/demo-site/good.html` }), 'validation');
      const fields = Object.keys(error.fieldErrors ?? {});
      assert.equal(fields.length, 20);
      assert.ok(Object.values(error.fieldErrors ?? {}).every((messages) => messages.length === 5));
      const message = describeError(error).message;
      assert.ok(message.length <= 1000, `${message.length} characters`);
      assert.ok(message.startsWith('Message 0 of field 0: xxx'), message.slice(0, 60));
      // The input boxes (New Report's URL step, Change Privacy's password) read the same way.
      assert.equal(validationText(error), message);
      const onOneField = validationText(error, [...error.fieldMessages('field_1'), ...error.fieldMessages('field_1')]);
      assert.ok(onOneField.length <= 1000, `${onOneField.length} characters`);
      assert.equal(onOneField.split('Message 0 of field 1').length, 2, 'a repeated message once');
    });

    it("413 with an HTML page (a proxy's limit): the box under the input says the service refused, not the request line", async () => {
      await h.fault({
        method: 'POST',
        path: '/api/v1/reports',
        status: 413,
        body: 'html',
      });
      const error = await h.failure(api.createReport({ url: `${h.url}/demo-site/good.html` }), 'validation');
      assert.deepEqual(error.fieldMessages(), []);
      assert.equal(validationText(error), 'The service did not accept the request.');
      assert.match(error.message, /POST \/api/, 'the log sentence, which the box showed before');
    });

    it('429 with Retry-After, then success: the read waits and retries', async () => {
      await h.fault({
        method: 'GET',
        path: reportsPath,
        status: 429,
        body: { message: 'Too Many Attempts.' },
        headers: { 'Retry-After': '1' },
      });
      const started = Date.now();
      const page = await api.listReports({}, 1);
      assert.ok(Date.now() - started >= 950, 'waited for Retry-After');
      assert.equal(page.items.length, 10);
      assert.equal(await count('GET'), 2);
      assert.deepEqual(
        h.log.map((e) => [e.status, e.retries]),
        [[200, 1]],
      );
    });

    it('429 with Retry-After as an HTTP date is honoured too', async () => {
      const at = new Date(Date.now() + 2000).toUTCString();
      await h.fault({
        method: 'GET',
        path: reportsPath,
        status: 429,
        body: { message: 'Too Many Attempts.' },
        headers: { 'Retry-After': at },
      });
      const started = Date.now();
      await api.listReports({}, 1);
      assert.ok(Date.now() - started >= 900, `waited until ${at}`);
      assert.equal(await count('GET'), 2);
    });

    it('429 persisting: rateLimited with retryAfter after the bounded retries', async () => {
      await h.fault({
        method: 'GET',
        path: reportsPath,
        times: 10,
        status: 429,
        body: { message: 'Too Many Attempts.' },
        headers: { 'Retry-After': '1' },
      });
      const error = await h.failure(
        h.client({ retry: { limit: 2, maxWaitMs: 5000 } }).listReports({}, 1),
        'rateLimited',
      );
      assert.equal(error.retryAfter, 1);
      assert.equal(await count('GET'), 3, 'first try plus two retries');
      assert.deepEqual(
        h.log.map((e) => [e.status, e.retries]),
        [[429, 2]],
      );
      assert.deepEqual(describeError(error), {
        message: 'The service is rate limiting requests. Wait 1 s and try again.',
        actions: ['retry'],
      });
    });

    it('429 asking for longer than the wait budget: no retry, the user is told how long', async () => {
      await h.fault({
        method: 'GET',
        path: reportsPath,
        times: 3,
        status: 429,
        body: { message: 'Too Many Attempts.' },
        headers: { 'Retry-After': '120' },
      });
      const started = Date.now();
      const error = await h.failure(api.listReports({}, 1), 'rateLimited');
      assert.ok(Date.now() - started < 1000, 'did not wait');
      assert.equal(error.retryAfter, 120);
      assert.equal(await count('GET'), 1);
    });

    it('429 with a Retry-After that is no delay (an epoch time): not taken as one, the user is told to wait a moment', async () => {
      await h.fault({
        method: 'GET',
        path: reportsPath,
        times: 5,
        status: 429,
        body: { message: 'Too Many Attempts.' },
        headers: { 'Retry-After': '1763633730' },
      });
      const error = await h.failure(api.listReports({}, 1), 'rateLimited');
      assert.equal(error.retryAfter, undefined);
      const message = describeError(error).message;
      assert.ok(!message.includes('1763633730'), message);
      assert.match(message, /moment/, message);
    });

    it('the real rate limiter: reads wait for its Retry-After and get through', async () => {
      const limited = await Harness.start({ rateLimit: 2, rateWindowMs: 1000, seed: 3 });
      try {
        const client = limited.client({ retry: { limit: 2, maxWaitMs: 5000 } });
        for (let i = 0; i < 4; i++) await client.listReports({}, 1);
        assert.ok(
          limited.log.some((e) => e.retries > 0),
          'at least one read was retried after a 429',
        );
        assert.ok(limited.log.every((e) => e.status === 200));
      } finally {
        await limited.stop();
      }
    });

    it('503 then success: reads retry with backoff', async () => {
      await h.fault({ method: 'GET', path: reportsPath, times: 2, status: 503, body: 'json' });
      const page = await api.listReports({}, 1);
      assert.equal(page.items.length, 10);
      assert.equal(await count('GET'), 3);
      assert.equal(h.log[0]?.retries, 2);
    });

    it('HTML 502: server error naming host and status, after the read retries', async () => {
      await h.fault({ method: 'GET', path: reportsPath, times: 5, status: 502, body: 'html' });
      const error = await h.failure(api.listReports({}, 1), 'server');
      assert.equal(error.status, 502);
      assert.equal(error.serviceMessage, undefined);
      assert.deepEqual(describeError(error), { message: `The service at ${h.host} answered 502.`, actions: ['retry'] });
      assert.equal(await count('GET'), 3);
    });

    it('500 with a JSON message keeps the message, capped and cleaned', async () => {
      const hostile = `Server\u0000 Error\n\u001b[2J ${'z'.repeat(2000)}`;
      await h.fault({ method: 'GET', path: reportsPath, times: 3, status: 500, body: { message: hostile } });
      const error = await h.failure(api.listReports({}, 1), 'server');
      assert.ok(error.serviceMessage?.startsWith('Server Error [2J zzz'));
      assert.ok((error.serviceMessage?.length ?? 0) <= 300);
      // eslint-disable-next-line no-control-regex
      assert.doesNotMatch(error.serviceMessage ?? '', /[\u0000-\u001f]/);
    });

    it('a server echoing the key in its message: the key is blanked out', async () => {
      await h.fault({
        method: 'GET',
        path: reportsPath,
        status: 403,
        body: { message: `Key ${KEY} may not do this.` },
      });
      const error = await h.failure(api.listReports({}, 1), 'forbidden');
      assert.equal(error.serviceMessage, 'Key *** may not do this.');
      assert.ok(!describeError(error).message.includes(KEY));
    });
  });

  describe('2xx answers that are not the JSON expected', () => {
    const cases: Array<[string, unknown, RegExp]> = [
      ['an HTML page', 'html', /HTML/],
      ['truncated JSON', 'truncated', /JSON/],
      ['malformed JSON', 'malformed', /JSON/],
      ['an empty body', 'empty', /empty/],
      ['data that is not a list', { data: { id: 1 } }, /data/],
      ['an unknown envelope', { reports: [] }, /data/],
      ['items without ids', { data: [{ url: 'https://a.example' }] }, /data\[0\]\.id/],
      ['a JSON string', { raw: '"just text"' }, /body|data/],
      // Read as 9007199254740992 by JSON.parse: another report's id, which Delete would act on.
      [
        'an id past 2^53',
        { raw: '{"data":[{"id":9007199254740993,"url":"https://a.example/"}]}' },
        /data\[0\]\.id.*2\^53/,
      ],
    ];
    for (const [what, body, problem] of cases) {
      it(`list answered 200 with ${what}: badResponse naming the status, never an empty list`, async () => {
        await h.fault({ method: 'GET', path: reportsPath, status: 200, body });
        const error = await h.failure(api.listReports({}, 1), 'badResponse');
        assert.equal(error.status, 200);
        assert.match(error.reason ?? '', problem);
        assert.deepEqual(describeError(error), {
          message: `The service at ${h.host} answered 200 with a body that is not the expected JSON.`,
          actions: ['retry', 'showLog'],
        });
        assert.equal(h.log.at(-1)?.status, 200);
        assert.ok(h.log.at(-1)?.error, 'the log entry says the body was unusable');
      });
    }

    it('a single report answered with the wrong shape or HTML: badResponse', async () => {
      await h.fault({ method: 'GET', path: `${reportsPath}/`, status: 200, body: { data: [] } });
      await h.failure(api.getReport(reportId), 'badResponse');
      await h.fault({ method: 'POST', path: reportsPath, status: 201, body: 'html' });
      const created = await h.failure(api.createReport({ url: `${h.url}/demo-site/good.html` }), 'badResponse');
      assert.equal(created.status, 201);
    });
  });

  describe('no answer', () => {
    it('an answer slower than the timeout: timeout, not retried', async () => {
      await h.fault({ method: 'GET', path: reportsPath, delayMs: 1500, times: 3 });
      const quick = h.client({ timeoutMs: 400 });
      const started = Date.now();
      const error = await h.failure(quick.listReports({}, 1), 'timeout');
      assert.ok(Date.now() - started < 1400);
      assert.equal(error.timeoutMs, 400);
      assert.deepEqual(describeError(error), {
        message: `Cannot reach ${h.host} (no answer within 0.4 s).`,
        actions: ['retry', 'openSettings'],
      });
      assert.equal(await count('GET'), 1);
      assert.equal(h.log[0]?.error, 'timeout');
    });

    it('a dropped connection on a read is retried', async () => {
      await h.fault({ method: 'GET', path: reportsPath, drop: true });
      const page = await api.listReports({}, 1);
      assert.equal(page.items.length, 10);
      assert.equal(h.log[0]?.retries, 1);
    });

    it('a connection dropped every time: network error with a short reason', async () => {
      await h.fault({ method: 'GET', path: reportsPath, drop: true, times: 5 });
      const error = await h.failure(api.listReports({}, 1), 'network');
      assert.equal(error.reason, 'connection closed');
      assert.equal(describeError(error).message, `Cannot reach ${h.host} (connection closed).`);
      assert.deepEqual(describeError(error).actions, ['retry', 'openSettings']);
      assert.equal(await count('GET'), 3);
      assert.deepEqual(
        h.log.map((e) => [e.status, e.retries, e.error]),
        [[undefined, 2, 'connection closed']],
      );
    });

    it('a refused port: network ECONNREFUSED, "Cannot reach host (ECONNREFUSED)."', async () => {
      const port = await refusedPort();
      const nowhere = h.client({ baseUrl: `http://127.0.0.1:${port}`, retry: { limit: 1, maxWaitMs: 1000 } });
      const error = await h.failure(nowhere.listReports({}, 1), 'network');
      assert.equal(error.reason, 'ECONNREFUSED');
      assert.deepEqual(describeError(error), {
        message: `Cannot reach 127.0.0.1:${port} (ECONNREFUSED).`,
        actions: ['retry', 'openSettings'],
      });
      await h.failure(nowhere.createReport({ url: 'https://a.example' }), 'network');
    });

    it('aborted by the caller: cancelled, also while waiting to retry', async () => {
      const before = new AbortController();
      before.abort();
      await h.failure(api.listReports({}, 1, before.signal), 'cancelled');

      await h.fault({ method: 'GET', path: reportsPath, delayMs: 2000 });
      const during = new AbortController();
      setTimeout(() => during.abort(), 200);
      const started = Date.now();
      await h.failure(api.listReports({}, 1, during.signal), 'cancelled');
      assert.ok(Date.now() - started < 1500, 'stopped waiting');

      await h.fault({ method: 'GET', path: reportsPath, status: 503, body: 'json', headers: { 'Retry-After': '2' } });
      const waiting = new AbortController();
      setTimeout(() => waiting.abort(), 300);
      await h.failure(api.getReport(reportId, waiting.signal), 'cancelled');

      const write = new AbortController();
      const { id } = await insertReport();
      await h.fault({ method: 'DELETE', delayMs: 2000 });
      setTimeout(() => write.abort(), 200);
      await h.failure(api.deleteReport(id, write.signal), 'cancelled');
      assert.ok(h.log.some((e) => e.error === 'cancelled'));
    });
  });

  describe('redirects', () => {
    let other: OtherOrigin;
    before(async () => {
      other = await OtherOrigin.start();
    });
    after(async () => {
      await other.stop();
    });

    it('a redirect to another origin is refused: that origin never sees the key', async () => {
      await h.fault({ method: 'GET', path: reportsPath, redirectTo: other.url, times: 3 });
      const error = await h.failure(api.listReports({ search: 'x' }, 1), 'redirect');
      assert.equal(error.redirectTo, other.url);
      assert.equal(error.status, 302);
      assert.match(
        describeError(error).message,
        /redirected the request to http:\/\/localhost:\d+\. It was not followed/,
      );

      await h.fault({ method: 'POST', path: reportsPath, redirectTo: other.url });
      await h.failure(
        api.createReport({ url: `${h.url}/demo-site/good.html`, privacy: 2, password: PASSWORD }),
        'redirect',
      );

      assert.deepEqual(other.seen, [], 'nothing reached the other origin');
      assert.equal(await count('GET'), 1, 'the redirect itself is not retried');
      // The recorder does record what reaches it, so the empty list above means something.
      await fetch(`${other.url}/probe`);
      assert.deepEqual(other.seen, [{ method: 'GET', url: '/probe', authorization: undefined }]);
    });

    it('a redirect to a host that holds the key (lowercased by the URL parser) names that host without it', async () => {
      await h.fault({ method: 'GET', path: reportsPath, redirectTo: `https://${KEY.toLowerCase()}.evil.example/` });
      const error = await h.failure(api.listReports({}, 1), 'redirect');
      assert.equal(error.redirectTo, 'https://***.evil.example');
      const texts = [error.message, describeError(error).message, JSON.stringify(h.log)];
      for (const text of texts) assert.ok(!text.toLowerCase().includes(KEY.toLowerCase()), text);
      // Inside a longer name, the whole host goes.
      await h.fault({ method: 'GET', path: reportsPath, redirectTo: `https://x${KEY.toLowerCase()}.evil.example/` });
      assert.equal((await h.failure(api.listReports({}, 1), 'redirect')).redirectTo, 'https://***');
    });

    it('the same host under another name is another origin too', async () => {
      const port = new URL(h.url).port;
      await h.fault({ method: 'GET', path: reportsPath, redirectTo: `http://localhost:${port}` });
      const error = await h.failure(api.listReports({}, 1), 'redirect');
      assert.equal(error.redirectTo, `http://localhost:${port}`);
      assert.equal(await count('GET'), 1);
    });

    it('a same-origin redirect is followed, with the key', async () => {
      await h.fault({ method: 'GET', path: reportsPath, redirectTo: h.url });
      const page = await api.listReports({ perPage: 10 }, 2);
      assert.equal(page.page, 2);
      const recorded = await h.requests();
      assert.deepEqual(
        recorded.map((r) => [r.path, r.query.page, r.hasAuthorization, r.status]),
        [
          [reportsPath, '2', true, 302],
          [reportsPath, '2', true, 200],
        ],
      );
      assert.deepEqual(
        h.log.map((e) => e.status),
        [302, 200],
      );
    });

    it('a same-origin redirect whose path or query holds the key: the log and messages never show it', async () => {
      const encoded = KEY.replace(/[a-z]/g, (c) => `%${c.charCodeAt(0).toString(16)}`);
      const targets = [
        `/api/v1/reports/${reportId}?echo=${KEY}&page=1`,
        `/api/v1/reports/${reportId}?echo=${encoded}`,
        `/api/v1/reports/${KEY.toUpperCase()}/x?${KEY}=1`,
      ];
      for (const location of targets) {
        h.log = [];
        const at = new URL(location, h.url);
        await h.fault({ method: 'GET', path: `${reportsPath}/${reportId}`, status: 302, headers: { Location: location } });
        // The next hop fails for good (a 404 is not retried): its message names the path.
        await h.fault({ method: 'GET', path: at.pathname, status: 404 });
        const error = await h.failure(api.getReport(reportId), 'notFound');
        const texts = [error.message, describeError(error).message, JSON.stringify(h.log)];
        for (const text of texts) assert.ok(!text.toLowerCase().includes(KEY.toLowerCase()) && !text.includes(encoded), text);
        assert.equal(h.log.length, 2);
        assert.ok(h.log[1]?.path.includes('***'), h.log[1]?.path);
      }
      assert.equal(h.log[1]?.path, `/api/v1/reports/***/x?***`);
      // The requests went where the service said, key and all: only what is shown is redacted.
      const recorded = await h.requests();
      assert.ok(recorded.some((r) => r.query.echo === KEY && r.hasAuthorization));
    });

    it('same-origin redirects in a loop stop after a bound', async () => {
      await h.fault({ method: 'GET', path: reportsPath, redirectTo: h.url, times: 20 });
      const error = await h.failure(api.listReports({}, 1), 'redirect');
      assert.equal(error.reason, 'too many redirects');
      assert.equal(await count('GET'), 5);
      assert.equal(describeError(error).message, `The service at ${h.host} redirected the request too many times.`);
    });

    it('a write answered with 302 is not re-sent anywhere', async () => {
      await h.fault({ method: 'PATCH', path: reportsPath, redirectTo: h.url });
      const error = await h.failure(api.updateReport(reportId, { update: true }), 'server');
      assert.equal(error.status, 302);
      assert.equal(await count('PATCH'), 1);
    });
  });

  describe('writes are sent exactly once', () => {
    const failures: Array<[string, Record<string, unknown>, string]> = [
      ['502 HTML', { status: 502, body: 'html' }, 'server'],
      ['503 with Retry-After', { status: 503, body: 'json', headers: { 'Retry-After': '1' } }, 'server'],
      [
        '429 with Retry-After',
        { status: 429, body: { message: 'Too Many Attempts.' }, headers: { 'Retry-After': '1' } },
        'rateLimited',
      ],
      ['408', { status: 408, body: 'json' }, 'server'],
      ['a dropped connection', { drop: true }, 'network'],
      ['an answer past the timeout', { delayMs: 1500 }, 'timeout'],
    ];
    for (const [what, fault, kind] of failures) {
      it(`store, update, delete report and delete project each go once on ${what}`, async () => {
        const client = h.client({ timeoutMs: 800 });
        const { id, project } = await insertReport();
        await h.fault({ ...fault, method: 'POST', path: reportsPath });
        await h.fault({ ...fault, method: 'PATCH', path: reportsPath });
        await h.fault({ ...fault, method: 'DELETE', path: reportsPath });
        await h.fault({ ...fault, method: 'DELETE', path: '/api/v1/projects' });
        await h.failure(
          client.createReport({ url: `${h.url}/demo-site/good.html`, privacy: 2, password: PASSWORD }),
          kind as never,
        );
        await h.failure(client.updateReport(id, { privacy: 2, password: PASSWORD }), kind as never);
        await h.failure(client.deleteReport(id), kind as never);
        await h.failure(client.deleteProject(project), kind as never);
        // Give a delayed fault time to finish, so a late duplicate would be recorded.
        if ('delayMs' in fault) await new Promise((resolve) => setTimeout(resolve, 900));
        const recorded = await h.requests();
        assert.deepEqual(
          recorded.map((r) => r.method),
          ['POST', 'PATCH', 'DELETE', 'DELETE'],
          `each write once: ${JSON.stringify(recorded.map((r) => [r.method, r.path]))}`,
        );
        assert.ok(h.log.every((e) => e.retries === 0));
      });
    }
  });

  describe('the key', () => {
    it('a key that cannot be a header value fails before sending, without showing the key', async () => {
      const bad = `${KEY}\nX-Injected: 1`;
      const error = await h.failure(h.client({ getKey: () => bad }).listReports({}, 1), 'unauthorized');
      assert.ok(!error.message.includes(KEY));
      assert.equal(describeError(error).message, 'The API key contains characters that cannot be sent. Set it again.');
      assert.deepEqual(await h.requests(), []);
    });

    it('a surrounding space or newline from a paste is trimmed', async () => {
      const page = await h.client({ getKey: () => ` ${KEY}\n` }).listReports({}, 1);
      assert.equal(page.items.length, 10);
      assert.deepEqual(
        (await h.requests()).map((r) => [r.hasAuthorization, r.status]),
        [[true, 200]],
      );
    });
  });
});
