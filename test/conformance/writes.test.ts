/** Contract §3: store, show, update (PUT and PATCH), delete; privacy and password rules. */
import assert from 'node:assert/strict';
import { adminReply, assertValidation, type CallOptions, client, insertReport, ISO, useService } from './helpers';

describe('writes (contract §3)', function () {
  this.timeout(20_000);
  const ctx = useService({ faults: true });
  const api = () => client(ctx.service);
  const page = (name: string, host = 'shop.localhost'): string =>
    `http://${host}:${ctx.service.port}/demo-site/${name}`;

  /** Whether the stored report has a password: privacy 2 without one is a 422 only then. */
  async function hasPassword(id: number): Promise<boolean> {
    const reply = await api().patch(`/api/v1/reports/${id}`, { form: { privacy: 2 } });
    if (reply.status === 200) return true;
    assertValidation(reply, ['password']);
    return false;
  }

  describe('store', () => {
    it('answers 201 with the analyzed report, form-urlencoded', async () => {
      const url = page('good.html?ref=mail');
      const reply = await api().post('/api/v1/reports', { form: { url } });
      assert.equal(reply.status, 201, reply.text);
      const report = reply.json.data;
      assert.deepEqual(Object.keys(reply.json), ['data']);
      assert.equal(typeof report.id, 'number');
      assert.equal(report.url, url);
      assert.equal(report.project, 'shop.localhost');
      assert.equal(report.result, 'good');
      assert.equal(report.privacy, 0);
      assert.ok(!('password' in report));
      assert.ok(Object.keys(report.results).length >= 15);
      for (const field of ['generated_at', 'created_at', 'updated_at']) assert.match(report[field], ISO);
      const shown = await api().get(`/api/v1/reports/${report.id}`);
      assert.equal(shown.status, 200);
      assert.deepEqual(shown.json, { data: report });
    });

    it('takes JSON bodies too', async () => {
      const reply = await api().post('/api/v1/reports', { json: { url: page('mediocre.html'), privacy: 1 } });
      assert.equal(reply.status, 201, reply.text);
      assert.equal(reply.json.data.privacy, 1);
      assert.equal(reply.json.data.result, 'decent');
    });

    it('takes multipart form fields too', async () => {
      const boundary = 'XyZ';
      const body = `--${boundary}\r\nContent-Disposition: form-data; name="url"\r\n\r\n${page('bad.html')}\r\n--${boundary}--\r\n`;
      const reply = await api().post('/api/v1/reports', {
        body,
        headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
      });
      assert.equal(reply.status, 201, reply.text);
      assert.equal(reply.json.data.result, 'bad');
    });

    it('chooses the project: host name, lower-cased, without port, punycode', async () => {
      const cases: [string, string][] = [
        [`http://SHOP.LocalHost:${ctx.service.port}/demo-site/good.html`, 'shop.localhost'],
        [`http://café.localhost:${ctx.service.port}/demo-site/good.html`, 'xn--caf-dma.localhost'],
        [`http://localhost:${ctx.service.port}/demo-site/good.html`, 'localhost'],
        [`http://127.0.0.1:${ctx.service.port}/demo-site/good.html`, '127.0.0.1'],
      ];
      for (const [url, project] of cases) {
        const reply = await api().post('/api/v1/reports', { form: { url, project: 'ignored' } });
        assert.equal(reply.status, 201, reply.text);
        assert.equal(reply.json.data.project, project);
        assert.equal(reply.json.data.url, url);
      }
    });

    it('requires a url, and an absolute http(s) one', async () => {
      const missing = assertValidation(await api().post('/api/v1/reports', { form: { privacy: 0 } }), ['url']);
      assert.deepEqual(missing, {
        message: 'The url field is required.',
        errors: { url: ['The url field is required.'] },
      });
      assertValidation(await api().post('/api/v1/reports', { form: { url: '   ' } }), ['url']);
      for (const url of [
        'example.com',
        '/demo-site/good.html',
        'ftp://example.com/',
        'javascript:alert(1)',
        'http://',
        'http://exa mple.com/',
        'mailto:a@b.c',
      ]) {
        const body = assertValidation(await api().post('/api/v1/reports', { form: { url } }), ['url']);
        assert.equal(body.message, 'The url field must be a valid URL.', url);
      }
      assertValidation(await api().post('/api/v1/reports', { json: { url: 42 } }), ['url']);
      assertValidation(await api().post('/api/v1/reports', { json: { url: ['http://a.test/'] } }), ['url']);
    });

    it('validates privacy and summarizes several errors', async () => {
      for (const privacy of ['3', '-1', 'public', '1.5']) {
        const body = assertValidation(
          await api().post('/api/v1/reports', { form: { url: page('good.html'), privacy } }),
          ['privacy'],
        );
        assert.ok(body.errors.privacy.includes('The selected privacy is invalid.'), privacy);
      }
      const both = assertValidation(await api().post('/api/v1/reports', { form: { privacy: 'x' } }), [
        'url',
        'privacy',
      ]);
      assert.equal(both.message, 'The url field is required. (and 2 more errors)');
      assert.deepEqual(both.errors.privacy, [
        'The privacy field must be an integer.',
        'The selected privacy is invalid.',
      ]);
    });

    it('privacy 2 needs a password; the password is never answered', async () => {
      const body = assertValidation(
        await api().post('/api/v1/reports', { form: { url: page('good.html'), privacy: 2 } }),
        ['password'],
      );
      assert.equal(body.message, 'The password field is required when privacy is 2.');
      const reply = await api().post('/api/v1/reports', {
        form: { url: page('good.html'), privacy: 2, password: 's3cret pass' },
      });
      assert.equal(reply.status, 201, reply.text);
      assert.equal(reply.json.data.privacy, 2);
      assert.ok(!reply.text.includes('s3cret'));
      assert.ok(!(await api().get(`/api/v1/reports/${reply.json.data.id}`)).text.includes('s3cret'));
      assert.equal(await hasPassword(reply.json.data.id), true);
    });

    it('ignores a password sent with privacy 0 or 1', async () => {
      for (const privacy of [0, 1]) {
        const reply = await api().post('/api/v1/reports', {
          form: { url: page('good.html'), privacy, password: 'ignored' },
        });
        assert.equal(reply.status, 201);
        assert.equal(await hasPassword(reply.json.data.id), false);
      }
    });

    it('answers 422 on url with the reason when the page cannot be fetched', async () => {
      const cases: [string, RegExp][] = [
        [page('missing.html'), /404/],
        [page('error.html'), /500/],
        [page('data.json'), /not HTML/],
        [page('loop.html'), /redirected more than 5 times/],
        [page('huge.html'), /larger than 2 MB/],
        ['http://localhost:1/', /refused/],
        ['https://example.com/pricing', /could not be resolved/],
      ];
      for (const [url, reason] of cases) {
        const body = assertValidation(await api().post('/api/v1/reports', { form: { url } }), ['url']);
        assert.match(body.message, /^The url could not be fetched: /);
        assert.match(body.message, reason, url);
        assert.deepEqual(body.errors.url, [body.message]);
      }
      const list = await api().get(`/api/v1/reports?search=${encodeURIComponent('missing.html')}`);
      assert.equal(list.json.meta.total, 0, 'nothing is stored');
    });
  });

  describe('show', () => {
    it('answers 404 for an unknown or malformed id', async () => {
      for (const id of ['999999', 'abc', '1.5', '-1', '%20']) {
        const reply = await api().get(`/api/v1/reports/${id}`);
        assert.equal(reply.status, 404, id);
        assert.deepEqual(reply.json, { message: 'Resource not found.', status: 404 });
      }
    });
  });

  describe('update', () => {
    let id: number;
    beforeEach(async () => {
      const reply = await api().post('/api/v1/reports', { form: { url: page('mediocre.html', 'blog.localhost') } });
      id = reply.json.data.id;
    });

    for (const method of ['put', 'patch'] as const) {
      it(`${method.toUpperCase()} changes privacy and answers 200 with the report`, async () => {
        const reply = await api()[method](`/api/v1/reports/${id}`, { form: { privacy: 1 } });
        assert.equal(reply.status, 200, reply.text);
        assert.deepEqual(Object.keys(reply.json), ['data']);
        assert.equal(reply.json.data.privacy, 1);
        assert.equal(reply.json.data.id, id);
        const again = await api()[method](`/api/v1/reports/${id}`, { json: { privacy: 2, password: 'pw' } });
        assert.equal(again.json.data.privacy, 2);
        assert.ok(!again.text.includes('"password"'));
      });

      it(`${method.toUpperCase()} with update=1 analyzes again: new generated_at, same created_at`, async () => {
        const before = (await api().get(`/api/v1/reports/${id}`)).json.data;
        const reply = await api()[method](`/api/v1/reports/${id}`, { form: { update: 1 } });
        assert.equal(reply.status, 200, reply.text);
        const after = reply.json.data;
        assert.notEqual(after.generated_at, before.generated_at);
        assert.ok(after.generated_at > before.generated_at);
        assert.equal(after.created_at, before.created_at);
        assert.ok(after.updated_at >= after.generated_at);
        assert.equal(after.url, before.url);
        assert.equal(after.result, 'decent');
        assert.deepEqual(Object.keys(after.results), Object.keys(before.results));
      });
    }

    it('update=0 and an empty body change nothing', async () => {
      const before = (await api().get(`/api/v1/reports/${id}`)).json.data;
      for (const options of [{ form: { update: 0 } }, { form: {} }, { json: {} }] as CallOptions[]) {
        const reply = await api().patch(`/api/v1/reports/${id}`, options);
        assert.equal(reply.status, 200);
        assert.deepEqual(reply.json.data, before);
      }
    });

    it('update takes 0 or 1 only', async () => {
      for (const update of ['2', 'yes', 'true', '-1', '01']) {
        const body = assertValidation(await api().put(`/api/v1/reports/${id}`, { form: { update } }), ['update']);
        assert.equal(body.message, 'The selected update is invalid.');
      }
      assertValidation(await api().put(`/api/v1/reports/${id}`, { json: { update: true } }), ['update']);
      assert.equal((await api().put(`/api/v1/reports/${id}`, { json: { update: 1 } })).status, 200);
    });

    it('privacy 2 without a password is a 422 unless the report already has one', async () => {
      const body = assertValidation(await api().put(`/api/v1/reports/${id}`, { form: { privacy: 2 } }), ['password']);
      assert.equal(body.message, 'The password field is required when privacy is 2.');
      assert.equal((await api().put(`/api/v1/reports/${id}`, { form: { privacy: 2, password: 'first' } })).status, 200);
      // It has one now: privacy 2 alone is fine, and so is changing only the password.
      assert.equal((await api().put(`/api/v1/reports/${id}`, { form: { privacy: 2 } })).status, 200);
      assert.equal((await api().put(`/api/v1/reports/${id}`, { form: { password: 'second' } })).status, 200);
    });

    it('privacy 0 or 1 drops the stored password; a password sent with it is ignored', async () => {
      for (const privacy of [0, 1]) {
        await api().put(`/api/v1/reports/${id}`, { form: { privacy: 2, password: 'pw' } });
        assert.equal(await hasPassword(id), true);
        const reply = await api().put(`/api/v1/reports/${id}`, { form: { privacy, password: 'ignored' } });
        assert.equal(reply.json.data.privacy, privacy);
        assert.equal(await hasPassword(id), false);
      }
    });

    it('a password alone on a public report is ignored', async () => {
      const reply = await api().patch(`/api/v1/reports/${id}`, { form: { password: 'pw' } });
      assert.equal(reply.json.data.privacy, 0);
      assert.equal(await hasPassword(id), false);
    });

    it('update=1 answers 422 on url when the page cannot be fetched any more, and changes nothing', async () => {
      const gone = await insertReport(ctx.service, {
        url: page('missing.html'),
        result: 'good',
        score: 90,
        generated_at: '2026-01-01T00:00:00.000000Z',
      });
      const body = assertValidation(await api().put(`/api/v1/reports/${gone}`, { form: { update: 1, privacy: 1 } }), [
        'url',
      ]);
      assert.match(body.message, /^The url could not be fetched: the page answered 404/);
      const after = (await api().get(`/api/v1/reports/${gone}`)).json.data;
      assert.equal(after.generated_at, '2026-01-01T00:00:00.000000Z');
      assert.equal(after.privacy, 0);
    });

    it('answers 404 for an unknown id, before validating', async () => {
      const reply = await api().put('/api/v1/reports/999999', { form: { privacy: 9 } });
      assert.equal(reply.status, 404);
      assert.deepEqual(reply.json, { message: 'Resource not found.', status: 404 });
    });
  });

  describe('delete', () => {
    it('answers 200 with { id, object, deleted } and the report is gone', async () => {
      const id = (await api().post('/api/v1/reports', { form: { url: page('good.html', 'docs.localhost') } })).json.data
        .id;
      const reply = await api().delete(`/api/v1/reports/${id}`);
      assert.equal(reply.status, 200);
      assert.deepEqual(reply.json, { id, object: 'report', deleted: true });
      assert.equal((await api().get(`/api/v1/reports/${id}`)).status, 404);
      assert.equal((await api().put(`/api/v1/reports/${id}`, { form: { update: 1 } })).status, 404);
      const again = await api().delete(`/api/v1/reports/${id}`);
      assert.equal(again.status, 404);
      assert.deepEqual(again.json, { message: 'Resource not found.', status: 404 });
    });

    it('never reuses an id', async () => {
      const first = (await api().post('/api/v1/reports', { form: { url: page('good.html') } })).json.data.id;
      await api().delete(`/api/v1/reports/${first}`);
      await adminReply(ctx.service, 'POST', '/__admin/reset');
      const next = (await api().post('/api/v1/reports', { form: { url: page('good.html') } })).json.data.id;
      assert.ok(next > first);
    });
  });
});
