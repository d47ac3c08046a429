/**
 * Long work at a service's latency, in the real extension host: Export List as CSV… loads
 * its pages a few at a time and writes what a sequential load of the service gives. With
 * PAGE_REPORTS_BENCH_OUT set (`npm run bench`), it also times a bulk Re-analyze for the bench.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { maxInFlight } from '../service/adminClient';
import type { RawReport, RecordedRequest } from '../service/types';
import { admin, configure, keys, resetService, serviceUrl } from './harness';

const run = <T>(command: string, ...args: unknown[]): Thenable<T> =>
  vscode.commands.executeCommand<T>(command, ...args);

/** Every report of `key`'s account, newest first, one page after another (no extension code). */
async function sequentialReports(key: string): Promise<RawReport[]> {
  const all: RawReport[] = [];
  for (let page = 1; ; page++) {
    const response = await fetch(`${serviceUrl()}/api/v1/reports?sort_by=id&sort=desc&per_page=100&page=${page}`, {
      headers: { Authorization: `Bearer ${key}`, Accept: 'application/json' },
    });
    const body = (await response.json()) as { data: RawReport[]; meta: { last_page: number } };
    all.push(...body.data);
    if (page >= body.meta.last_page) return all;
  }
}

describe('long work at a service latency', function () {
  this.timeout(90_000);
  let tmp: string;

  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'page-reports-speed-'));
    // The second account: the main account's seeded reports stay as other suites expect.
    await admin('seed', { count: 380, key: keys().other });
    await configure(serviceUrl(), keys().other);
    // The export takes the Reports view's query: every report, newest first.
    await run('pageReports.clearReportFilters');
    await resetService();
  });

  after(async () => {
    await admin('speed', { latencyMs: 0, analysisDelayMs: 0 });
    const headers = { Authorization: `Bearer ${keys().other}`, Accept: 'application/json' };
    for (;;) {
      const list = await fetch(`${serviceUrl()}/api/v1/projects?per_page=100`, { headers });
      const projects = ((await list.json()) as { data: { project: string }[] }).data;
      if (projects.length === 0) break;
      for (const { project } of projects)
        await fetch(`${serviceUrl()}/api/v1/projects/${encodeURIComponent(project)}`, { method: 'DELETE', headers });
    }
    await configure();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('Export List as CSV… loads pages a few at a time and writes what a sequential load gives', async () => {
    const want = await sequentialReports(keys().other);
    await admin('requests', undefined, 'DELETE');
    await admin('speed', { latencyMs: 100 });
    const target = vscode.Uri.file(path.join(tmp, 'all.csv'));
    assert.equal(
      (await run<vscode.Uri | undefined>('pageReports.exportReportsCsv', { target }))?.fsPath,
      target.fsPath,
    );
    await admin('speed', { latencyMs: 0 });
    const lines = fs.readFileSync(target.fsPath, 'utf8').split('\r\n').slice(1, -1);
    assert.deepEqual(
      lines.map((line) => line.split(',')[0]),
      want.map((report) => String(report.id)),
      'every report once, in the list order',
    );
    const pages = (await admin<RecordedRequest[]>('requests')).filter(
      (r) => r.path === '/api/v1/reports' && r.query.per_page === '100',
    );
    assert.deepEqual(pages.map((r) => r.query.page).sort(), ['1', '2', '3', '4']);
    assert.equal(pages[0]?.query.page, '1', 'page 1 first');
    assert.equal(maxInFlight(pages), 3, 'pages 2-4 at once');
  });

  it('bench: bulk Re-analyze of 30 reports at 300 ms an analysis', async function () {
    const out = process.env.PAGE_REPORTS_BENCH_OUT;
    if (!out) this.skip();
    const reports = (await sequentialReports(keys().other)).slice(0, 30);
    const nodes = reports.map((report) => ({ kind: 'report', report: { ...report, raw: report } }));
    await admin('speed', { analysisDelayMs: 300 });
    const started = performance.now();
    const outcome = await run<{ succeeded: unknown[] } | undefined>('pageReports.reanalyzeReport', nodes[0], nodes, {
      confirmed: true,
    });
    const ms = performance.now() - started;
    await admin('speed', { analysisDelayMs: 0 });
    assert.equal(outcome?.succeeded.length, 30);
    fs.writeFileSync(out, JSON.stringify({ reports: 30, analysisDelayMs: 300, ms }));
  });
});
