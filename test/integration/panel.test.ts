import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Report } from '../../src/api/types';
import type { PanelState } from '../../src/protocols/panelProtocol';
import { TestHook } from '../../src/ids';
import { ReportPageAssets } from '../../src/panels/pageAssets';
import { REFRESH_AFTER_DRAW_FALLBACK_MS } from '../../src/panels/reportPanel';
import type { ReportNode } from '../../src/views/items';
import type { ReportsView } from '../../src/views/reportsView';
import {
  admin,
  assertInlinePage,
  configure,
  inWebHost,
  keys,
  openedPanelHtml,
  panelTabs,
  reportWebviewPanel,
  resetService,
  serviceUrl,
  waitFor,
} from './harness';

interface Inserted {
  id: number | string;
  url: string;
}

/** Inserts a report for the main key and returns it as the service shows it. */
async function insertReport(url: string): Promise<Inserted> {
  const answer = await admin<Inserted>('reports', {
    report: {
      url,
      result: 'decent',
      score: 64.5,
      privacy: 0,
      generated_at: '2026-11-20T10:15:30.000000Z',
      results: {
        title: { passed: true, importance: 'high', value: 'Cart' },
        meta_description: { passed: false, importance: 'high', value: null },
      },
    },
  });
  return answer;
}

/** The Reports view's row of report `id`, after a refresh of the view (read through the views' test hook). */
async function treeRow(id: number | string): Promise<ReportNode> {
  const { reportsView } = (globalThis as Record<symbol, unknown>)[TestHook.views] as { reportsView: ReportsView };
  await vscode.commands.executeCommand('pageReports.refreshReports');
  const rows = await reportsView.getChildren();
  const row = rows.find((node): node is ReportNode => node.kind === 'report' && String(node.report.id) === String(id));
  if (!row) throw new Error(`report ${String(id)} is not in the Reports view`);
  return row;
}

/** What report `id`'s open panel holds (through the extension's test hook). */
function panelReport(id: number | string): Report | undefined {
  const hook = (globalThis as Record<symbol, unknown>)[TestHook.accounts] as {
    panels: { openPanels(): readonly { id: unknown; report: Report | undefined }[] };
  };
  return hook.panels.openPanels().find((p) => String(p.id) === String(id))?.report;
}

/** What report `id`'s open panel last gave its page to show. */
function panelState(id: number | string): PanelState | undefined {
  const hook = (globalThis as Record<symbol, unknown>)[TestHook.accounts] as {
    panels: { openPanels(): readonly { id: unknown; state: PanelState }[] };
  };
  return hook.panels.openPanels().find((p) => String(p.id) === String(id))?.state;
}

/** Report `id`'s panel once it shows its error state (a load that failed). */
function errorState(id: number | string): Promise<Extract<PanelState, { kind: 'error' }>> {
  return waitFor(
    () => {
      const shown = panelState(id);
      return shown?.kind === 'error' ? shown : undefined;
    },
    { message: 'the error state', timeoutMs: 20_000 },
  );
}

interface RecordedRequest {
  method: string;
  path: string;
  /** When the request arrived (ISO). */
  at: string;
}

/** When (epoch ms) the service was first asked for report `id` since its request log was last cleared; 0 if not. */
async function fetchedReport(id: number | string): Promise<number> {
  const requests = await admin<RecordedRequest[]>('requests');
  const first = requests.find((r) => r.method === 'GET' && r.path === `/api/v1/reports/${String(id)}`);
  return first === undefined ? 0 : Date.parse(first.at);
}

async function closeAllEditors(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await waitFor(() => panelTabs().length === 0, { message: 'all panels closed' });
}

describe('report panel', () => {
  let cart: Inserted;
  let checkout: Inserted;

  before(async () => {
    await configure();
    await resetService();
    cart = await insertReport('https://shop.localhost/cart');
    checkout = await insertReport('http://shop.localhost/checkout/step-2?x=1');
  });

  afterEach(closeAllEditors);

  it('opens by command as a panel titled by its page and host (issue 45)', async () => {
    await vscode.commands.executeCommand('pageReports.openReport', { id: cart.id });
    const tab = await waitFor(() => panelTabs().find((t) => t.label === '/cart — shop.localhost'), {
      message: 'a panel titled /cart — shop.localhost',
      timeoutMs: 10_000,
    });
    assert.equal(tab.isActive, true, 'the new panel is the active editor');
    assert.equal(panelTabs().length, 1);
  });

  it('opens at most ten panels for a larger selection', async () => {
    const many: Inserted[] = [];
    for (let i = 0; i < 12; i++) many.push(await insertReport(`https://many.localhost/page-${i}`));
    const refs = many.map((r) => ({ id: r.id }));
    await vscode.commands.executeCommand('pageReports.openReport', refs[0], refs);
    await waitFor(() => panelTabs().length >= 10, { message: 'ten panels', timeoutMs: 20_000 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(panelTabs().length, 10, 'no eleventh');
    assert.deepEqual(
      panelTabs()
        .map((t) => t.label)
        .sort(),
      many
        .slice(0, 10)
        .map((r) => `${new URL(r.url).pathname} — many.localhost`)
        .sort(),
    );
  });

  it('reveals the open panel when the same report is opened again, and never opens a second one', async () => {
    await vscode.commands.executeCommand('pageReports.openReport', { id: cart.id });
    await waitFor(() => panelTabs().some((t) => t.label === '/cart — shop.localhost'), { message: 'first panel' });
    await vscode.commands.executeCommand('pageReports.openReport', { id: checkout.id });
    await waitFor(() => panelTabs().some((t) => t.label === '/checkout/step-2?x=1 — shop.localhost' && t.isActive), {
      message: 'second report in front',
    });
    assert.equal(panelTabs().length, 2);

    // Again, by id as a number and as text: the same panel comes to the front.
    await vscode.commands.executeCommand('pageReports.openReport', { id: cart.id });
    await waitFor(() => panelTabs().find((t) => t.label === '/cart — shop.localhost')?.isActive, {
      message: 'the first panel revealed',
    });
    await vscode.commands.executeCommand('pageReports.openReport', { id: String(cart.id) });
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(
      panelTabs()
        .map((t) => t.label)
        .sort(),
      ['/cart — shop.localhost', '/checkout/step-2?x=1 — shop.localhost'],
      'still one panel per report',
    );
  });

  it('closes its panel when the report is deleted through the extension', async () => {
    const doomed = await insertReport('https://blog.localhost/doomed-post');
    await vscode.commands.executeCommand('pageReports.openReport', { id: doomed.id });
    await waitFor(() => panelTabs().some((t) => t.label === '/doomed-post — blog.localhost'), { message: 'panel open' });
    // `confirmed` skips the modal only in the extension's test mode (VS Code refuses modals there).
    await vscode.commands.executeCommand('pageReports.deleteReport', { id: doomed.id }, { confirmed: true });
    await waitFor(() => !panelTabs().some((t) => t.label === '/doomed-post — blog.localhost'), {
      message: 'the panel closed after the delete',
    });
  });

  it('opens from a tree row with the whole report of the list answer, and asks the service again once drawn', async () => {
    const row = await treeRow(cart.id);
    assert.equal(row.report.checks.length, 0, 'the row holds the summary');
    await admin('requests', undefined, 'DELETE');
    await vscode.commands.executeCommand('pageReports.openReport', row);
    const shown = panelReport(cart.id);
    assert.equal(shown?.summary, undefined, 'the panel has the whole report at once');
    assert.deepEqual(shown?.checks.map((c) => c.name).sort(), ['meta_description', 'title']);
    assert.equal(await fetchedReport(cart.id), 0, 'no fetch while the page starts');
    // The refresh follows the page's first draw (the tab gets its icon then), not the
    // fallback timer: it comes well within REFRESH_AFTER_DRAW_FALLBACK_MS of the draw.
    await waitFor(() => reportWebviewPanel(cart.id)?.iconPath, { message: 'the page drawn', timeoutMs: 10_000 });
    const drawnAt = Date.now();
    const askedAt = await waitFor(() => fetchedReport(cart.id), { message: 'the panel asking the service again' });
    assert.ok(
      askedAt - drawnAt < REFRESH_AFTER_DRAW_FALLBACK_MS / 2,
      `asked ${askedAt - drawnAt} ms after the draw was seen (the fallback waits ${REFRESH_AFTER_DRAW_FALLBACK_MS} ms)`,
    );
  });

  it('opens a row that a write changed since the list answer with its summary, then the report from the service', async () => {
    const row = await treeRow(checkout.id);
    // What a row holds after a write through the extension (here: a new privacy) that no list has brought yet.
    const changed: ReportNode = { ...row, report: { ...row.report, privacy: 1, updatedAt: new Date() } };
    await admin('requests', undefined, 'DELETE');
    await admin('faults', { method: 'GET', path: `/api/v1/reports/${String(checkout.id)}`, delayMs: 1500, times: 1 });
    const opening = vscode.commands.executeCommand('pageReports.openReport', changed);
    await waitFor(() => panelReport(checkout.id), { message: 'the panel' });
    assert.notEqual(panelReport(checkout.id)?.summary, undefined, "the row's summary first");
    await opening;
    await waitFor(() => (panelReport(checkout.id)?.summary === undefined ? true : undefined), {
      message: 'the whole report from the service',
      timeoutMs: 10_000,
    });
  });

  it('lends Re-analyze the analysis it shows as the previous one: the report is not fetched again', async () => {
    const port = new URL(serviceUrl()).port;
    const page = await insertReport(`http://panel.localhost:${port}/demo-site/good.html`);
    await vscode.commands.executeCommand('pageReports.openReport', { id: page.id });
    await waitFor(() => panelReport(page.id)?.checks.length, { message: 'the panel with the report' });
    await admin('requests', undefined, 'DELETE');
    assert.ok(await vscode.commands.executeCommand('pageReports.reanalyzeReport', { id: page.id }));
    const requests = await admin<RecordedRequest[]>('requests');
    const ofReport = requests.filter((r) => r.path === `/api/v1/reports/${String(page.id)}`).map((r) => r.method);
    assert.deepEqual(ofReport.slice(0, 1), ['PATCH'], `requests: ${ofReport.join(', ')}`);
  });

  it('says why it could not load in the words the notifications use (not the log’s), with Retry', async () => {
    const page = await insertReport('https://shop.localhost/panel/fails-to-load');
    // Every try of the read fails (reads are retried: more than the client tries).
    await admin('faults', { method: 'GET', path: `/api/v1/reports/${String(page.id)}`, status: 503, times: 10 });
    try {
      await vscode.commands.executeCommand('pageReports.openReport', { id: page.id });
      const state = await errorState(page.id);
      const host = new URL(serviceUrl()).host;
      assert.equal(state.message, `The service at ${host} answered 503.`);
      assert.equal(state.canRetry, true);
      assert.equal(state.action, null, 'a 503 may pass: Retry alone');
    } finally {
      await admin('faults', undefined, 'DELETE');
    }
  });

  it('offers Open Settings beside Retry when it cannot reach the service (the service URL may be wrong)', async () => {
    const page = await insertReport('https://shop.localhost/panel/unreachable');
    await admin('faults', { method: 'GET', path: `/api/v1/reports/${String(page.id)}`, drop: true, times: 10 });
    try {
      await vscode.commands.executeCommand('pageReports.openReport', { id: page.id });
      const state = await errorState(page.id);
      assert.equal(state.canRetry, true);
      if (inWebHost) {
        // A browser cannot tell a dropped connection from an error page it hides: Retry alone.
        assert.match(state.message, /an error page the browser hides/);
        assert.equal(state.action, null);
      } else {
        assert.match(state.message, /^Cannot reach /);
        assert.equal(state.action, 'Open Settings');
      }
    } finally {
      await admin('faults', undefined, 'DELETE');
    }
  });

  it('says the report no longer exists when a write on it finds it gone', async () => {
    const page = await insertReport('https://shop.localhost/panel/gone-meanwhile');
    await vscode.commands.executeCommand('pageReports.openReport', { id: page.id });
    await waitFor(() => panelReport(page.id)?.checks.length, { message: 'the panel with the report' });
    const gone = await fetch(`${serviceUrl()}/api/v1/reports/${String(page.id)}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${keys().main}`, Accept: 'application/json' },
    });
    assert.equal(gone.status, 200);
    assert.equal(await vscode.commands.executeCommand('pageReports.reanalyzeReport', { id: page.id }), undefined);
    const state = await waitFor(
      () => {
        const shown = panelState(page.id);
        return shown?.kind === 'deleted' ? shown : undefined;
      },
      { message: 'the deleted state', timeoutMs: 10_000 },
    );
    assert.equal(state.message, `Report ${String(page.id)} no longer exists.`);
    assert.equal(panelReport(page.id), undefined, 'the panel no longer holds the report');
  });

  it('opened from the row of a report deleted elsewhere, says it no longer exists and the Reports view drops the row', async () => {
    const page = await insertReport('https://shop.localhost/panel/deleted-behind-the-back');
    const row = await treeRow(page.id);
    const gone = await fetch(`${serviceUrl()}/api/v1/reports/${String(page.id)}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${keys().main}`, Accept: 'application/json' },
    });
    assert.equal(gone.status, 200);
    await vscode.commands.executeCommand('pageReports.openReport', row);
    await waitFor(() => panelState(page.id)?.kind === 'deleted', { message: 'the deleted state', timeoutMs: 10_000 });
    const { reportsView } = (globalThis as Record<symbol, unknown>)[TestHook.views] as { reportsView: ReportsView };
    await waitFor(
      async () =>
        !(await reportsView.getChildren()).some((n) => n.kind === 'report' && String(n.report.id) === String(page.id)),
      { message: 'the row gone from the Reports view without a manual refresh' },
    );
  });

  it('gives its tab the report icon once its page has drawn', async () => {
    await vscode.commands.executeCommand('pageReports.openReport', { id: checkout.id });
    const panel = await waitFor(() => reportWebviewPanel(checkout.id), { message: 'the panel open' });
    // Set after the page's first draw, not with the panel (src/panels/lifetime.ts, TabIcon).
    const icon = await waitFor(() => panel.iconPath as { light: vscode.Uri; dark: vscode.Uri } | undefined, {
      message: 'the tab icon set',
      timeoutMs: 10_000,
    });
    assert.match(icon.light.path, /\/media\/panel-light\.svg$/);
    assert.match(icon.dark.path, /\/media\/panel-dark\.svg$/);
  });

  it('carries its page script and stylesheet in its HTML under the nonce, loading neither by URI', async () => {
    assertInlinePage(await openedPanelHtml(cart.id));
    await closeAllEditors();
  });
});

// Node host only: the scratch extension folder is written with node:fs, which the web worker host lacks.
(inWebHost ? describe.skip : describe)('report page assets', () => {
  let dir: string;
  let root: vscode.Uri;

  /** Writes the two files the page needs under a scratch extension folder. */
  function writeAssets(script: string, style: string): void {
    fs.mkdirSync(path.join(dir, 'dist', 'webview'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'media'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'dist', 'webview', 'panel.js'), script);
    fs.writeFileSync(path.join(dir, 'media', 'panel.css'), style);
  }

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'page-reports-assets-'));
    root = vscode.Uri.file(dir);
  });

  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reads the script and stylesheet once and keeps them for every later panel', async () => {
    writeAssets('first();', '.first {}');
    const assets = new ReportPageAssets(root, false);
    assert.deepEqual(await assets.get(), { script: 'first();', style: '.first {}' });
    writeAssets('second();', '.second {}');
    assert.deepEqual(await assets.get(), { script: 'first();', style: '.first {}' });
  });

  it('reads again after a failed read instead of keeping the failure', async () => {
    const assets = new ReportPageAssets(root, false);
    await assert.rejects(assets.get());
    writeAssets('late();', '.late {}');
    assert.deepEqual(await assets.get(), { script: 'late();', style: '.late {}' });
  });

  it('reads on every open in an Extension Development Host, so a rebuilt script shows', async () => {
    writeAssets('first();', '.first {}');
    const assets = new ReportPageAssets(root, true);
    assert.equal((await assets.get()).script, 'first();');
    writeAssets('rebuilt();', '.first {}');
    assert.equal((await assets.get()).script, 'rebuilt();');
  });
});
