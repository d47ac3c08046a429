/**
 * The developer workflow (issue #18) in the real extension host against the reference
 * service: Re-analyze keeps the previous analysis and a bulk Re-analyze counts what changed;
 * Copy Link to Report, Copy as Markdown, Export Report as JSON…, Export List as CSV…
 * (all pages, empty list, server failure, write failure), Analyze Page, the Delete key on the
 * view's selection, auto-refresh's rules, and the URI handler (called through its test hook:
 * the web workbench has no handler for vscode:// links from outside), including the refused
 * unknown service, which is never contacted.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ReportsView } from '../../src/views/reportsView';
import { autoRefreshMs, autoRefreshTick } from '../../src/views/autoRefresh';
import { startService, type ServiceOptions } from '../service/server';
import { admin, configure, keys, pageReportsLogWith, resetService, serviceUrl, waitFor } from './harness';
import type { RawReport } from '../service/types';
import type { RecordedRequest } from '../service/types';
import { TestHook } from '../../src/ids';

type UriOutcome = 'opened' | 'prefilled' | 'refused' | 'cancelled';
type HandleUri = (uri: vscode.Uri, options?: { confirmed?: boolean }) => Promise<UriOutcome>;

/**
 * What a link resolves once the key box it opened is closed (no test can type into it): the
 * box is closed until the link settles, however long a switch of service before it takes.
 */
async function withKeyBoxClosed<T>(outcome: Promise<T>): Promise<T> {
  let settled = false;
  void outcome.finally(() => (settled = true));
  await waitFor(
    async () => {
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      await new Promise((resolve) => setTimeout(resolve, 250));
      return settled;
    },
    { message: 'the link settled after its key box closed', timeoutMs: 30_000 },
  );
  return outcome;
}

function handleUri(): HandleUri {
  const hook = (globalThis as Record<symbol, unknown>)[TestHook.handleUri];
  if (typeof hook !== 'function') throw new Error('the URI handler test hook is not set');
  return hook as HandleUri;
}

function reportsView(): ReportsView {
  const hook = (globalThis as Record<symbol, unknown>)[TestHook.views] as { reportsView: ReportsView };
  return hook.reportsView;
}

const run = <T>(command: string, ...args: unknown[]): Thenable<T> =>
  vscode.commands.executeCommand<T>(command, ...args);
const link = (pathAndQuery: string): vscode.Uri =>
  vscode.Uri.parse(`${vscode.env.uriScheme}://page-reports.page-reports${pathAndQuery}`, true);

async function api<T>(pathAndQuery: string): Promise<T> {
  const answer = await fetch(`${serviceUrl()}${pathAndQuery}`, {
    headers: { Authorization: `Bearer ${keys().main}`, Accept: 'application/json' },
  });
  assert.equal(answer.status, 200, `GET ${pathAndQuery}`);
  return (await answer.json()) as T;
}

function demoPage(host: string, page = 'good.html'): string {
  return `http://${host}:${new URL(serviceUrl()).port}/demo-site/${page}`;
}

/** A report whose stored analysis is poor, of a page that analyzes well: a re-analysis improves it. */
async function insertStale(host: string): Promise<RawReport> {
  const answer = await admin<{ data: RawReport }>('reports', {
    key: keys().main,
    report: {
      url: demoPage(host),
      result: 'bad',
      score: 12.5,
      generated_at: '2024-01-01T00:00:00.000000Z',
      results: {
        title: { passed: false, importance: 'high', value: null },
        made_up_check: { passed: false, importance: 'low', value: 1 },
      },
    },
  });
  return answer.data;
}

async function requestsOf(method: string): Promise<RecordedRequest[]> {
  return (await admin<RecordedRequest[]>('requests')).filter((r) => r.method === method);
}

async function closeInput(): Promise<void> {
  await run('workbench.action.closeQuickOpen');
}

describe('developer workflow', function () {
  this.timeout(60_000);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'page-reports-export-'));

  before(async () => {
    await configure();
  });

  beforeEach(async () => {
    await resetService();
  });

  after(() => {
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('Re-analyze: one report answers the new analysis; a bulk run counts improved / worse / unchanged from the service’s values', async () => {
    const a = await insertStale('diff-a.localhost');
    const b = await insertStale('diff-b.localhost');
    const single = await run<{ score?: number; result?: string }>('pageReports.reanalyzeReport', { id: a.id });
    const fresh = await api<{ data: RawReport }>(`/api/v1/reports/${a.id}`);
    assert.equal(single?.score, fresh.data.score);
    assert.ok(fresh.data.score! > 12.5, 'the demo page analyzes better than the stale values');

    // What the extension has of each: a as the first re-analysis left it, b as inserted.
    const nodes = [fresh.data, b].map((r) => ({ kind: 'report', report: { ...r, raw: r } }));
    const outcome = await run<{ succeeded: unknown[]; changes: { id: number; trend: string; delta: number }[] }>(
      'pageReports.reanalyzeReport',
      nodes[0],
      nodes,
      { confirmed: true },
    );
    assert.equal(outcome.succeeded.length, 2);
    // a was re-analyzed already: same page, same analysis; b improves by the service's numbers.
    const byId = new Map(outcome.changes.map((c) => [String(c.id), c]));
    assert.equal(byId.get(String(a.id))?.trend, 'unchanged');
    const after = await api<{ data: RawReport }>(`/api/v1/reports/${b.id}`);
    assert.deepEqual(byId.get(String(b.id)), {
      id: b.id,
      trend: 'improved',
      delta: Math.round((after.data.score! - 12.5) * 10) / 10,
    });
    assert.equal(
      (await requestsOf('PATCH')).length + (await requestsOf('PUT')).length,
      3,
      'one update=1 per report and run',
    );
  });

  it('Copy Link to Report: the extension’s own URI with id and service, on the clipboard', async () => {
    const [report] = (await api<{ data: RawReport[] }>('/api/v1/reports?per_page=10')).data;
    assert.ok(report);
    const text = await run<string>('pageReports.copyReportLink', { id: report.id });
    assert.equal(await vscode.env.clipboard.readText(), text);
    const origin = new URL(serviceUrl()).origin;
    const query = `id=${report.id}&service=${encodeURIComponent(origin)}`;
    // asExternalUri: the desktop keeps `${uriScheme}://page-reports.page-reports/report?…`; the web
    // workbench answers its callback URL, which carries the same authority, path and query.
    const external = new URL(text);
    if (external.protocol === 'http:' || external.protocol === 'https:') {
      assert.equal(external.searchParams.get('vscode-scheme'), vscode.env.uriScheme);
      assert.equal(external.searchParams.get('vscode-authority'), 'page-reports.page-reports');
      assert.equal(external.searchParams.get('vscode-path'), '/report');
      const carried = new URLSearchParams(external.searchParams.get('vscode-query') ?? '');
      assert.deepEqual([carried.get('id'), carried.get('service')], [String(report.id), origin]);
    } else {
      assert.equal(text, `${vscode.env.uriScheme}://page-reports.page-reports/report?${query}`);
    }
    assert.ok(!text.includes(keys().main) && !decodeURIComponent(text).includes(keys().main), 'the link holds no key');
    assert.equal(await handleUri()(link(`/report?${query}`)), 'opened', 'the link opens the report');
  });

  it('Copy Link to Report copies no link its own handler would refuse (an id a link cannot carry)', async () => {
    const [report] = (await api<{ data: RawReport[] }>('/api/v1/reports?per_page=10')).data;
    assert.ok(report);
    const row = (r: Omit<RawReport, 'id'> & { id: number | string }) => ({ kind: 'report', report: { ...r, raw: r } });
    const odd = { ...report, id: '12345678901234567890' };
    const text = await run<string>('pageReports.copyReportLink', row(report), [row(report), row(odd)]);
    assert.equal(text.split('\n').length, 1, 'one link: the other id says why instead');
    assert.ok(text.includes(`id%3D${report.id}%26`) || text.includes(`id=${report.id}&`), text);
    assert.equal(await run('pageReports.copyReportLink', row(odd), [row(odd)]), undefined);
    assert.equal(await vscode.env.clipboard.readText(), text, 'the clipboard keeps the last link copied');
  });

  it('the report panel’s title bar: its commands act on the active panel’s report (VS Code passes no report there)', async () => {
    const [report] = (await api<{ data: RawReport[] }>('/api/v1/reports?per_page=10')).data;
    assert.ok(report);
    // Other suites leave panels open: start from none, so this report's panel is the active one.
    await run('workbench.action.closeAllEditors');
    await run('pageReports.openReport', { id: report.id });
    const panelResource = vscode.Uri.from({ scheme: 'webview-panel', path: '/webview-panel/webview-1' });
    for (const args of [[], [panelResource, { groupId: 1 }]]) {
      // The panel's `active` follows its view state, which VS Code sends a moment after opening.
      await waitFor(
        async () => (await run<string>('pageReports.copyReportMarkdown', ...args)).includes(`\\#${report.id}\n`),
        {
          message: 'Copy as Markdown acting on the active panel',
        },
      );
    }
    await run('workbench.action.closeActiveEditor');
  });

  it('a bulk summary reads "3 improved, 1 got worse, 2 unchanged"', async () => {
    const { trendSummary } = await import('../../src/commands/changes');
    const { diffAnalyses } = await import('../../src/presentation/diff');
    const change = (from: number, to: number) => ({
      report: { id: 1, url: 'https://x.test/' } as never,
      diff: diffAnalyses({ score: from, result: 'bad', checks: [] }, { score: to, result: 'bad', checks: [] }),
    });
    const changes = [change(1, 2), change(1, 5), change(3, 4), change(5, 1), change(2, 2), change(7, 7)];
    assert.equal(trendSummary(changes), '3 improved, 1 got worse, 2 unchanged');
  });

  it('Copy as Markdown: URL, result, score and failed checks, server text escaped', async () => {
    const hostile = await admin<{ data: RawReport }>('reports', {
      key: keys().main,
      report: {
        url: 'https://md.localhost/<img src=x>',
        result: 'bad',
        score: 40,
        results: { '[click](https://evil.test)': { passed: false, importance: 'high', value: null } },
      },
    });
    const text = await run<string>('pageReports.copyReportMarkdown', { id: hostile.data.id });
    // A URL with a space is not one a browser may open as shown: a heading, no link.
    assert.match(text, /^### https\\:\\\/\\\/md\\\.localhost\\\/\\<img src\\=x\\>\n/);
    assert.match(text, /- \*\*Result:\*\* Bad\n- \*\*Score:\*\* 40 \\\/ 100/);
    assert.match(text, /#### High importance \(1\)\n\n- \\\[click\\\]\\\(https\\:\\\/\\\/evil\\\.test\\\)/);
    assert.equal(await vscode.env.clipboard.readText(), text);
  });

  it('Copy as Markdown of several list rows: each loaded once, copied in order; one that is gone is named, the rest copied', async () => {
    const made: RawReport[] = [];
    for (const score of [11, 22, 33]) {
      const answer = await admin<{ data: RawReport }>('reports', {
        key: keys().main,
        report: { url: `https://md-many.localhost/${score}`, result: 'bad', score },
      });
      made.push(answer.data);
    }
    // List rows hold summaries (no analysis): each report is asked of the service.
    const row = (r: RawReport) => ({ kind: 'report', report: { ...r, raw: r, summary: { checks: 0, failed: 0 } } });
    const [first, gone, last] = made;
    assert.ok(first && gone && last);
    await admin('faults', { method: 'GET', path: `/api/v1/reports/${gone.id}`, status: 404, times: 5 });
    await admin('requests', undefined, 'DELETE');
    try {
      const text = await run<string>('pageReports.copyReportMarkdown', row(first), made.map(row));
      assert.equal(await vscode.env.clipboard.readText(), text);
      assert.ok(text.includes('**Score:** 11 ') && text.includes('**Score:** 33 '), text);
      assert.ok(text.indexOf('**Score:** 11 ') < text.indexOf('**Score:** 33 '), 'in the order of the selection');
      assert.ok(!text.includes('**Score:** 22 '), 'the report that is gone is not in it');
      const gets = (await requestsOf('GET')).filter((r) => r.path.startsWith('/api/v1/reports/')).map((r) => r.path);
      // A few load at once (commands/batch.ts), so the requests may arrive in any order.
      assert.deepEqual(
        [...gets].sort(),
        made.map((r) => `/api/v1/reports/${r.id}`).sort(),
        'one request a report',
      );
    } finally {
      await admin('faults', undefined, 'DELETE');
    }
  });

  it('Export Report as JSON…: every field the service sent, to the chosen file', async () => {
    const [report] = (await api<{ data: RawReport[] }>('/api/v1/reports?per_page=10')).data;
    assert.ok(report);
    const target = vscode.Uri.file(path.join(tmp, 'report.json'));
    const written = await run<vscode.Uri | undefined>('pageReports.exportReportJson', { id: report.id }, { target });
    assert.equal(written?.fsPath, target.fsPath);
    const fresh = await api<{ data: RawReport }>(`/api/v1/reports/${report.id}`);
    assert.deepEqual(JSON.parse(fs.readFileSync(target.fsPath, 'utf8')), fresh.data);
  });

  it('Export Report as JSON… never writes a report password, even one the service echoes', async () => {
    const [report] = (await api<{ data: RawReport[] }>('/api/v1/reports?per_page=10')).data;
    assert.ok(report);
    const secret = 'echoed-report-password-7f3a';
    await admin('faults', {
      method: 'GET',
      path: `/api/v1/reports/${report.id}`,
      status: 200,
      body: { data: { ...report, privacy: 2, password: secret } },
      times: 1,
    });
    const target = vscode.Uri.file(path.join(tmp, 'echoed.json'));
    assert.equal(
      (await run<vscode.Uri | undefined>('pageReports.exportReportJson', { id: report.id }, { target }))?.fsPath,
      target.fsPath,
    );
    const written = fs.readFileSync(target.fsPath, 'utf8');
    assert.ok(!written.includes(secret), 'no password in the file');
    assert.equal((JSON.parse(written) as RawReport).url, report.url, 'the rest of the report is there');
  });

  it('Export List as CSV…: every page of the view’s query; an empty list is a header row; failures write nothing', async () => {
    const project = 'csv.localhost';
    for (let i = 0; i < 27; i++) {
      await admin('reports', {
        key: keys().main,
        report: { url: `https://${project}/p${i}?a=1,b=2`, result: 'good', score: i },
      });
    }
    await run('pageReports.filterReports', { project });
    try {
      const target = vscode.Uri.file(path.join(tmp, 'list.csv'));
      assert.equal(
        (await run<vscode.Uri | undefined>('pageReports.exportReportsCsv', { target }))?.fsPath,
        target.fsPath,
      );
      const bytes = fs.readFileSync(target.fsPath);
      assert.deepEqual(
        [...bytes.subarray(0, 3)],
        [0xef, 0xbb, 0xbf],
        'a UTF-8 byte-order mark: spreadsheets read it as UTF-8',
      );
      const lines = bytes.subarray(3).toString('utf8').split('\r\n');
      assert.equal(lines[0], 'id,url,project,result,score,privacy,generated_at,created_at');
      assert.equal(lines.length, 1 + 27 + 1, 'header, 27 records, the final CRLF');
      assert.ok(
        lines.slice(1, -1).every((l) => l.includes(`"https://${project}/p`) && l.includes(`,${project},good,`)),
      );
      const gets = (await requestsOf('GET')).filter((r) => r.path === '/api/v1/reports' && r.query.per_page === '100');
      assert.deepEqual(
        gets.map((r) => r.query.page),
        ['1'],
        'per_page 100: one page holds them',
      );

      // A server failure: a message, and nothing written.
      await admin('faults', { method: 'GET', path: '/api/v1/reports', status: 502, body: 'html', times: 10 });
      const failed = vscode.Uri.file(path.join(tmp, 'failed.csv'));
      assert.equal(await run('pageReports.exportReportsCsv', { target: failed }), undefined);
      assert.equal(fs.existsSync(failed.fsPath), false);
      await admin('faults', undefined, 'DELETE');

      // A write that fails (the target is a folder): nothing lost, nothing half-written.
      assert.equal(await run('pageReports.exportReportsCsv', { target: vscode.Uri.file(tmp) }), undefined);

      await run('pageReports.filterReports', { project: 'nothing-here.localhost' });
      const empty = vscode.Uri.file(path.join(tmp, 'empty.csv'));
      await run('pageReports.exportReportsCsv', { target: empty });
      assert.equal(
        fs.readFileSync(empty.fsPath, 'utf8'),
        '\ufeffid,url,project,result,score,privacy,generated_at,created_at\r\n',
      );
    } finally {
      await run('pageReports.clearReportFilters');
    }
  });

  it('the save dialog opens where the last export went while that folder is there in this window’s file system; a target argument does not move it', async () => {
    const { exportFolder } = await import('../../src/commands/exports');
    const state = ((globalThis as Record<symbol, unknown>)[TestHook.accounts] as { globalState: vscode.Memento })
      .globalState;
    const key = 'pageReports.lastExportFolder';
    const chosen = fs.mkdtempSync(path.join(tmp, 'chosen-'));
    const remote = vscode.env.remoteName ?? '';
    try {
      // As saveAs records a folder chosen in the dialog.
      await state.update(key, { folder: vscode.Uri.file(chosen).toString(), remote });
      assert.equal((await exportFolder(state))?.fsPath, chosen);
      // An export to a target given as an argument (automation) leaves it.
      const [report] = (await api<{ data: RawReport[] }>('/api/v1/reports?per_page=10')).data;
      assert.ok(report);
      const elsewhere = fs.mkdtempSync(path.join(tmp, 'elsewhere-'));
      await run(
        'pageReports.exportReportJson',
        { id: report.id },
        { target: vscode.Uri.file(path.join(elsewhere, 'r.json')) },
      );
      assert.equal((await exportFolder(state))?.fsPath, chosen);
      // A folder another window recorded on another remote is not offered here.
      await state.update(key, { folder: vscode.Uri.file(chosen).toString(), remote: `${remote}other-remote` });
      assert.notEqual((await exportFolder(state))?.fsPath, chosen);
      // Nor one deleted since (or missing on this host of the same kind of remote), nor a file.
      const gone = fs.mkdtempSync(path.join(tmp, 'gone-'));
      fs.rmSync(gone, { recursive: true });
      await state.update(key, { folder: vscode.Uri.file(gone).toString(), remote });
      assert.notEqual((await exportFolder(state))?.fsPath, gone);
      const file = path.join(chosen, 'not-a-folder.csv');
      fs.writeFileSync(file, '');
      await state.update(key, { folder: vscode.Uri.file(file).toString(), remote });
      assert.notEqual((await exportFolder(state))?.fsPath, file);
    } finally {
      await state.update(key, undefined);
    }
  });

  it('Export List as CSV… ends when a page brings nothing new (a service that ignores page=)', async () => {
    const first = await api<{ data: RawReport[] }>('/api/v1/reports?per_page=100&page=1');
    await admin('faults', {
      method: 'GET',
      path: '/api/v1/reports',
      status: 200,
      body: { data: first.data.slice(0, 5), meta: { current_page: 1, last_page: 9, per_page: 5, total: 45 } },
      times: 100,
    });
    try {
      const target = vscode.Uri.file(path.join(tmp, 'repeating.csv'));
      assert.equal(
        (await run<vscode.Uri | undefined>('pageReports.exportReportsCsv', { target }))?.fsPath,
        target.fsPath,
      );
      const lines = fs.readFileSync(target.fsPath, 'utf8').split('\r\n');
      assert.equal(lines.length, 1 + 5 + 1, 'header, the five reports once, the final CRLF');
    } finally {
      await admin('faults', undefined, 'DELETE');
    }
  });

  it('Export List as CSV…: all pages of an unfiltered list, capped by pageReports.insightsLimit', async () => {
    await run('pageReports.clearReportFilters');
    await admin('seed', { count: 120, key: keys().main });
    const total = (await api<{ meta: { total: number } }>('/api/v1/reports?per_page=10')).meta.total;
    assert.ok(total > 100, `${total} reports`);
    await admin('requests', undefined, 'DELETE');
    const all = vscode.Uri.file(path.join(tmp, 'all.csv'));
    await run('pageReports.exportReportsCsv', { target: all });
    assert.equal(fs.readFileSync(all.fsPath, 'utf8').split('\r\n').length, total + 2);
    const pages = (await requestsOf('GET'))
      .filter((r) => r.path === '/api/v1/reports' && r.query.per_page === '100')
      .map((r) => r.query.page);
    assert.deepEqual(
      pages,
      Array.from({ length: Math.ceil(total / 100) }, (_, i) => String(i + 1)),
    );

    const settings = vscode.workspace.getConfiguration('pageReports');
    await settings.update('insightsLimit', 100, vscode.ConfigurationTarget.Global);
    try {
      const capped = vscode.Uri.file(path.join(tmp, 'capped.csv'));
      await run('pageReports.exportReportsCsv', { target: capped });
      assert.equal(fs.readFileSync(capped.fsPath, 'utf8').split('\r\n').length, 100 + 2);
    } finally {
      await settings.update('insightsLimit', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('Analyze Page: the URL under the cursor or the selection starts New Report… filled in; nothing is sent', async () => {
    const document = await vscode.workspace.openTextDocument({
      content: 'See https://example.com/pricing, then fix it.\nno url here',
    });
    const editor = await vscode.window.showTextDocument(document);
    editor.selection = new vscode.Selection(0, 10, 0, 10);
    assert.equal(await run('pageReports.analyzeUrl'), 'https://example.com/pricing');
    await new Promise((r) => setTimeout(r, 300));
    await closeInput();
    editor.selection = new vscode.Selection(1, 3, 1, 3);
    assert.equal(await run('pageReports.analyzeUrl'), undefined, 'no URL there: says so');
    editor.selection = new vscode.Selection(0, 4, 0, 31);
    assert.equal(await run('pageReports.analyzeUrl'), 'https://example.com/pricing');
    await new Promise((r) => setTimeout(r, 300));
    await closeInput();
    // Parentheses: one the URL opens stays, one around it goes.
    for (const [line, expected] of [
      ['Read https://en.wikipedia.org/wiki/Foo_(bar).', 'https://en.wikipedia.org/wiki/Foo_(bar)'],
      ['(see https://example.com/a), then', 'https://example.com/a'],
    ] as const) {
      const prose = await vscode.workspace.openTextDocument({ content: line });
      const proseEditor = await vscode.window.showTextDocument(prose);
      const at = line.indexOf('https://') + 10;
      proseEditor.selection = new vscode.Selection(0, at, 0, at);
      assert.equal(await run('pageReports.analyzeUrl'), expected, line);
      await new Promise((r) => setTimeout(r, 300));
      await closeInput();
      await run('workbench.action.closeActiveEditor');
    }
    assert.deepEqual(await requestsOf('POST'), [], 'nothing was sent');
    await run('workbench.action.closeActiveEditor');
  });

  it('Delete key: deletes the reports selected in the Reports view (a keybinding passes no item)', async () => {
    const victim = await admin<{ data: RawReport }>('reports', {
      key: keys().main,
      report: { url: 'https://zz-delete-key.localhost/', result: 'bad', score: 1 },
    });
    await run('pageReports.reports.focus');
    await run('pageReports.filterReports', { project: 'zz-delete-key.localhost' });
    try {
      const view = reportsView();
      const [node] = await view.getChildren();
      assert.ok(node?.kind === 'report');
      await view.reveal(node.report);
      await waitFor(() => view.selectedReports().length === 1, { message: 'the report is selected' });
      assert.equal(await run('pageReports.deleteReport', { selection: true, confirmed: true }), true);
      const gone = await fetch(`${serviceUrl()}/api/v1/reports/${victim.data.id}`, {
        headers: { Authorization: `Bearer ${keys().main}` },
      });
      assert.equal(gone.status, 404);
    } finally {
      await run('pageReports.clearReportFilters');
    }
  });

  it('auto-refresh: only visible, idle views, only with the window focused, the connection ready and the service not holding it off', async () => {
    let refreshed = 0;
    const view = (visible: boolean, idle: boolean) => ({
      treeView: { visible },
      idle,
      refreshLoaded: async () => void (refreshed += 1),
    });
    const ready = { state: 'ready', health: { kind: 'connected' } } as const;
    assert.equal(await autoRefreshTick([view(true, true)], ready, false), 0, 'not while unfocused');
    assert.equal(
      await autoRefreshTick([view(true, true)], { ...ready, state: 'noKey' }, true),
      0,
      'not without a connection',
    );
    assert.equal(
      await autoRefreshTick([view(true, true)], { ...ready, health: { kind: 'rejected' } }, true),
      0,
      'not while the service rejects the key (each tick would be rejected again)',
    );
    const now = Date.now();
    const limited = { ...ready, health: { kind: 'rateLimited', until: now + 30_000 } } as const;
    assert.equal(
      await autoRefreshTick([view(true, true)], limited, true, now),
      0,
      'not while a 429 to any request says wait',
    );
    assert.equal(await autoRefreshTick([view(true, true)], limited, true, now + 31_000), 1, 'after the wait');
    assert.equal(
      await autoRefreshTick([view(true, true)], { ...ready, health: { kind: 'rateLimited', until: undefined } }, true),
      0,
      'not while a 429 without a Retry-After it can read holds (a browser hides it from a service without CORS exposure)',
    );
    refreshed = 0;
    assert.equal(await autoRefreshTick([view(false, true), view(true, false), view(true, true)], ready, true), 1);
    assert.equal(refreshed, 1);
  });

  it('auto-refresh interval: whole minutes, at least one (a workspace may set the setting), at most a day', () => {
    assert.equal(autoRefreshMs(0), 0);
    assert.equal(autoRefreshMs(-5), 0);
    assert.equal(autoRefreshMs('10'), 0);
    assert.equal(autoRefreshMs(0.0001), 60_000, 'a fraction does not refresh back to back');
    assert.equal(autoRefreshMs(2.9), 120_000);
    assert.equal(autoRefreshMs(100_000), 1440 * 60_000);
  });

  describe('URI handler', () => {
    /** Another reference service on a free port, with its own key and seed (stopped by the test). */
    const otherService = (key: string, seed: number, options: Partial<ServiceOptions> = {}) =>
      startService({ port: 0, keys: [key], seed, faults: true, quiet: true, rateLimit: 0, ...options });

    it('opens a report by id on the current service, and refuses what is not a report id', async () => {
      const [report] = (await api<{ data: RawReport[] }>('/api/v1/reports?per_page=10')).data;
      assert.ok(report);
      const origin = encodeURIComponent(new URL(serviceUrl()).origin);
      assert.equal(await handleUri()(link(`/report?id=${report.id}&service=${origin}`)), 'opened');
      for (const id of ['', '..%2F..%2Fx', '1%20OR%201', '-1', '%3Cscript%3E']) {
        assert.equal(await handleUri()(link(`/report?id=${id}&service=${origin}`)), 'refused', `id "${id}"`);
      }
      assert.equal(await handleUri()(link('/elsewhere?id=1')), 'refused');
    });

    it('starts New Report… with an http(s) URL filled in, sends nothing; refuses other schemes', async () => {
      assert.equal(await handleUri()(link(`/new?url=${encodeURIComponent('https://example.com/')}`)), 'prefilled');
      await new Promise((r) => setTimeout(r, 300));
      await closeInput();
      // A URL with its own query: its `+` and `&` survive VS Code's decoding of the link.
      const withQuery = `https://example.com/search?q=a+b&lang=de`;
      assert.equal(await handleUri()(link(`/new?url=${encodeURIComponent(withQuery)}`)), 'prefilled');
      await new Promise((r) => setTimeout(r, 300));
      await closeInput();
      for (const url of ['javascript:alert(1)', 'file:///etc/passwd', 'example.com', '']) {
        assert.equal(await handleUri()(link(`/new?url=${encodeURIComponent(url)}`)), 'refused', url);
      }
      assert.deepEqual(await requestsOf('POST'), []);
    });

    it('refuses an unknown service with a message and never contacts it', async () => {
      const unknown = await otherService('unknown-key', 1);
      try {
        const outcome = await handleUri()(link(`/report?id=1&service=${encodeURIComponent(unknown.url)}`), {
          confirmed: true,
        });
        assert.equal(outcome, 'refused');
        const seen = (await (await fetch(`${unknown.url}/__admin/requests`)).json()) as unknown[];
        assert.deepEqual(seen, [], 'the unknown service saw no request');
        assert.equal(
          vscode.workspace.getConfiguration('pageReports').get('serviceUrl'),
          serviceUrl(),
          'the service did not change',
        );
        // This run's line (the service's port is its own): the lines after it are this test's.
        const marker = `(${new URL(unknown.url).origin}; not contacted)`;
        await pageReportsLogWith(marker);
        assert.equal(await handleUri()(link('/report?id=1&service=javascript%3Aalert(1)')), 'refused');
        // Not a URL: nothing of its text is shown or logged (any web page can write a link's prose).
        const prose = 'Your API key expired - paste it at evil.example/renew';
        assert.equal(await handleUri()(link(`/report?id=1&service=${encodeURIComponent(prose)}`)), 'refused');
        const log = await pageReportsLogWith(
          /not a service URL; not contacted\)[\s\S]*not a service URL; not contacted\)/,
          10_000,
          marker,
        );
        assert.ok(!log.includes('Your API key expired'), "the link's prose is not in the log");
        // A host has no length limit: at most 100 characters of the origin are shown and logged.
        const long = `https://${'renew-your-key-'.repeat(20)}at.evil.example`;
        assert.equal(await handleUri()(link(`/report?id=1&service=${encodeURIComponent(long)}`)), 'refused');
        await pageReportsLogWith(`(${long.slice(0, 100)}…; not contacted)`, 10_000, marker);
      } finally {
        await unknown.stop();
      }
    });

    it('switches to another known service (one with a stored key) after the confirmation, then opens the report', async () => {
      const second = await otherService('second-key', 2);
      try {
        await configure(second.url, 'second-key');
        await configure();
        const answer = await fetch(`${second.url}/api/v1/reports?per_page=10`, {
          headers: { Authorization: 'Bearer second-key', Accept: 'application/json' },
        });
        const [report] = ((await answer.json()) as { data: RawReport[] }).data;
        assert.ok(report);
        const outcome = await handleUri()(
          link(`/report?id=${report.id}&service=${encodeURIComponent(new URL(second.url).origin)}`),
          { confirmed: true },
        );
        assert.equal(outcome, 'opened');
        assert.equal(
          new URL(String(vscode.workspace.getConfiguration('pageReports').get('serviceUrl'))).origin,
          new URL(second.url).origin,
        );
      } finally {
        await configure();
        await second.stop();
      }
    });

    it('a link to a known service without a key switches after the confirmation and asks for the key before going on', async () => {
      const keyless = await otherService('keyless-key', 2);
      const origin = new URL(keyless.url).origin;
      try {
        await configure(keyless.url, 'keyless-key');
        assert.equal(await run('pageReports.removeApiKey', { origin, confirmed: true }), true);
        await configure();
        // The key box opens after the switch: closed, nothing goes on.
        const outcome = await withKeyBoxClosed(
          handleUri()(link(`/report?id=1&service=${encodeURIComponent(origin)}`), { confirmed: true }),
        );
        assert.equal(outcome, 'refused', 'the link does not go on without the key');
        assert.equal(vscode.workspace.getConfiguration('pageReports').get('serviceUrl'), keyless.url, 'switched');
        const seen = (await (await fetch(`${keyless.url}/__admin/requests`)).json()) as { path: string }[];
        assert.ok(!seen.some((r) => r.path === '/api/v1/reports/1'), 'the report was not asked for without a key');
      } finally {
        await configure();
        await keyless.stop();
      }
    });

    it('a link for the current service while it has no key asks for the key before going on (it only said to set one, and the link was lost)', async () => {
      const origin = new URL(serviceUrl()).origin;
      try {
        assert.equal(await run('pageReports.removeApiKey', { origin, confirmed: true }), true);
        await admin('requests', undefined, 'DELETE');
        for (const path of ['/report?id=1', `/report?id=1&service=${encodeURIComponent(serviceUrl())}`]) {
          // 'refused' after the key box; 'cancelled' was the notification that left the link behind.
          assert.equal(await withKeyBoxClosed(handleUri()(link(path), { confirmed: true })), 'refused', path);
        }
        const asked = (await admin<RecordedRequest[]>('requests')).map((r) => `${r.method} ${r.path}`);
        assert.deepEqual(asked, [], 'nothing was asked without a key');
      } finally {
        await configure();
      }
    });

    it('links to a service under a path carry the path, and an origin-only link opens on the known service there', async () => {
      const mounted = await otherService('team-key', 2, { basePath: '/team' });
      const setting = () => vscode.workspace.getConfiguration('pageReports').get('serviceUrl');
      try {
        const origin = new URL(mounted.url).origin;
        assert.equal(mounted.url, `${origin}/team`);
        assert.equal((await fetch(`${origin}/api/v1/reports`)).status, 404, 'nothing at the root');
        await configure(mounted.url, 'team-key');
        const answer = await fetch(`${mounted.url}/api/v1/reports?per_page=10`, {
          headers: { Authorization: 'Bearer team-key', Accept: 'application/json' },
        });
        const [report] = ((await answer.json()) as { data: RawReport[] }).data;
        assert.ok(report);
        const text = await run<string>('pageReports.copyReportLink', { id: report.id });
        const carried = new URL(text).searchParams;
        const service = carried.get('vscode-query')
          ? new URLSearchParams(carried.get('vscode-query') ?? '').get('service')
          : carried.get('service');
        assert.equal(service, mounted.url, 'the link names the service with its path');

        await configure();
        const outcome = await handleUri()(link(`/report?id=${report.id}&service=${encodeURIComponent(mounted.url)}`), {
          confirmed: true,
        });
        assert.equal(outcome, 'opened');
        assert.equal(setting(), mounted.url);

        // A link written with the origin only: the known service there, not the bare origin.
        await configure();
        await fetch(`${origin}/__admin/requests`, { method: 'DELETE' });
        const older = await handleUri()(link(`/report?id=${report.id}&service=${encodeURIComponent(origin)}`), {
          confirmed: true,
        });
        assert.equal(older, 'opened');
        assert.equal(setting(), mounted.url);
        await waitFor(
          async () =>
            ((await (await fetch(`${origin}/__admin/requests`)).json()) as RecordedRequest[]).some(
              (r) => r.path === `/api/v1/reports/${report.id}` && r.hasAuthorization,
            ),
          { message: 'the report read under the path, with its key' },
        );
      } finally {
        await configure();
        await mounted.stop();
      }
    });
  });
});
