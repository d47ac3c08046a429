/** `dataFile`: everything survives a restart; the file is replaced atomically. */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startService } from '../service/server';
import { adminReply, client, insertReport } from './helpers';

describe('persistence (dataFile)', function () {
  this.timeout(30_000);
  let folder: string;
  before(() => {
    folder = mkdtempSync(path.join(tmpdir(), 'page-reports-service-'));
  });
  after(() => {
    rmSync(folder, { recursive: true, force: true });
  });

  it('keeps reports, passwords and the id counter across restarts, and does not seed again', async () => {
    const dataFile = path.join(folder, 'data.json');
    const first = await startService({
      dataFile,
      seed: 12,
      keys: ['demo-key', 'second-key'],
      faults: true,
      rateLimit: 0,
    });
    const api = client(first);
    const stored = await api.post('/api/v1/reports', {
      form: { url: `http://blog.localhost:${first.port}/demo-site/good.html`, privacy: 2, password: 'kept' },
    });
    assert.equal(stored.status, 201);
    const other = await insertReport(first, { url: 'https://second.test/' }, 'second-key');
    await api.delete('/api/v1/reports/1');
    const before = await api.get('/api/v1/reports?per_page=100');
    const projects = await api.get('/api/v1/projects?per_page=100');
    await first.stop();

    const text = readFileSync(dataFile, 'utf8');
    assert.ok(!text.includes('demo-key'), 'no API key in the data file');
    assert.ok(!text.includes('"kept"'), 'no password in the data file');
    assert.deepEqual(readdirSync(folder), ['data.json'], 'no temp file left behind');

    const second = await startService({
      dataFile,
      seed: 12,
      keys: ['demo-key', 'second-key'],
      faults: true,
      rateLimit: 0,
    });
    try {
      const again = client(second);
      const after = await again.get('/api/v1/reports?per_page=100');
      assert.deepEqual(after.json.data, before.json.data);
      assert.equal(after.json.meta.total, 12, '11 seeded + 1 stored, no second seed');
      assert.deepEqual((await again.get('/api/v1/projects?per_page=100')).json.data, projects.json.data);
      assert.equal((await client(second, 'second-key').get(`/api/v1/reports/${other}`)).status, 200);
      // The stored password came back: privacy 2 alone is accepted.
      assert.equal((await again.patch(`/api/v1/reports/${stored.json.data.id}`, { form: { privacy: 2 } })).status, 200);
      const next = await again.post('/api/v1/reports', {
        form: { url: `http://blog.localhost:${second.port}/demo-site/bad.html` },
      });
      assert.ok(next.json.data.id > other, 'ids continue after the last one');
      await adminReply(second, 'POST', '/__admin/reset');
    } finally {
      await second.stop();
    }
    const third = await startService({ dataFile, rateLimit: 0 });
    try {
      assert.equal((await client(third).get('/api/v1/reports')).json.meta.total, 0, 'a reset is kept too');
    } finally {
      await third.stop();
    }
  });

  it('refuses a file that is not its data file', async () => {
    const dataFile = path.join(folder, 'other.json');
    writeFileSync(dataFile, '{"hello": 1}');
    await assert.rejects(startService({ dataFile }), /not a data file/);
  });
});
