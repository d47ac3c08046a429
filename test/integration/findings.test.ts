/**
 * Findings in the code (issue #49) in the real extension host against the reference service:
 * `pageReports.sources` maps the test workspace's `site/` folder to pages of
 * `http://findings.localhost:PORT/`; the failed checks of each page's latest report show as
 * diagnostics on its file (severities, codes, lines, hostile values as text), with quick
 * fixes; they follow a Re-analyze and go on a service switch; hovers ask the service only for
 * URLs under the prefix (the request log says so).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RawReport, RecordedRequest } from '../service/types';
import * as os from 'node:os';
import { admin, configure, keys, pageReportsLogWith, panelTabs, resetService, serviceUrl, waitFor } from './harness';
import { TestHook } from '../../src/ids';
import type { ReportsView } from '../../src/views/reportsView';
import type { ViewNode } from '../../src/views/items';

/** Waits are long: the machines that run these are often busy, and a lookup waits its turn. */
const LONG = 20_000;

const HOSTILE = '<img src=x onerror=alert(1)> **bold** [link](command:workbench.action.quit)\nsecond line';

const PRICING_HTML = [
  '<!DOCTYPE html>', // 0
  '<html>', // 1
  '<head>', // 2
  '  <title>Pricing</title>', // 3
  '  <meta name="viewport" content="width=device-width">', // 4
  '</head>', // 5
  '<body>', // 6
  '  <h1>Pricing</h1>', // 7
  '  <img src="chart.png">', // 8
  '</body>', // 9
  '</html>', // 10
].join('\n');

const DOCS_MD = ['---', 'title: Docs', 'description: x', '---', '', '# Docs', ''].join('\n');

function site(): string {
  return `http://findings.localhost:${new URL(serviceUrl()).port}/`;
}

function folder(): vscode.Uri {
  const first = vscode.workspace.workspaceFolders?.[0];
  if (!first) throw new Error('the integration tests need a workspace folder');
  return first.uri;
}

function write(relative: string, text: string): vscode.Uri {
  const file = path.join(folder().fsPath, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return vscode.Uri.file(file);
}

async function insert(
  url: string,
  results: Record<string, unknown>,
  generatedAt = new Date().toISOString(),
): Promise<RawReport> {
  const answer = await admin<{ data: RawReport }>('reports', {
    key: keys().main,
    report: { url, result: 'bad', score: 20, generated_at: generatedAt, results },
  });
  return answer.data;
}

async function open(uri: vscode.Uri): Promise<vscode.TextDocument> {
  const document = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(document, { preview: false });
  return document;
}

function ours(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'Page Reports');
}

function codeOf(d: vscode.Diagnostic): string {
  return typeof d.code === 'object' ? String(d.code.value) : String(d.code);
}

async function lookupsOf(url: string): Promise<RecordedRequest[]> {
  const requests = await admin<RecordedRequest[]>('requests');
  return requests.filter((r) => r.method === 'GET' && r.path === '/api/v1/reports' && r.query.search === url);
}

async function hoverAt(document: vscode.TextDocument, text: string): Promise<string> {
  const offset = document.getText().indexOf(text);
  assert.ok(offset >= 0, `the document holds ${text}`);
  const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
    'vscode.executeHoverProvider',
    document.uri,
    document.positionAt(offset + 10),
  );
  return hovers
    .flatMap((hover) => hover.contents)
    .map((content) => (typeof content === 'string' ? content : content.value))
    .join('\n');
}

describe('findings in the code', function () {
  this.timeout(60_000);
  let pricing: vscode.Uri;
  let docs: vscode.Uri;
  let demo: vscode.Uri;
  let none: vscode.Uri;
  let demoReport: RawReport;

  before(async () => {
    await resetService();
    await configure();
    pricing = write('site/pricing.html', PRICING_HTML);
    docs = write('site/docs/index.md', DOCS_MD);
    demo = write('site/demo-site/good.html', PRICING_HTML);
    none = write('site/none.html', PRICING_HTML);
    // An older report of the same page must not be the one shown.
    await insert(
      `${site()}pricing.html`,
      { title: { passed: false, importance: 'high', value: 'old' } },
      '2024-01-01T00:00:00.000000Z',
    );
    await insert(`${site()}pricing.html`, {
      title: { passed: false, importance: 'high', value: HOSTILE },
      viewport: { passed: false, importance: 'medium', value: null },
      image_alt: { passed: false, importance: 'high', value: { missing: 1 } },
      favicon: { passed: false, importance: 'low', value: null },
      response_time: { passed: false, importance: 'medium', value: 1200 },
      h1: { passed: true, importance: 'high', value: ['Pricing'] },
    });
    // A longer URL that holds the page's as a substring is another page.
    await insert(`${site()}pricing.html.bak`, { doctype: { passed: false, importance: 'low', value: null } });
    await insert(`${site()}docs/`, { title: { passed: false, importance: 'high', value: 'Docs' } });
    demoReport = await insert(
      `${site()}demo-site/good.html`,
      {
        title: { passed: false, importance: 'high', value: null },
        made_up_check: { passed: false, importance: 'low', value: 1 },
      },
      '2024-01-01T00:00:00.000000Z',
    );
    await vscode.workspace
      .getConfiguration('pageReports')
      .update(
        'sources',
        [{ url: site(), files: ['site/{path}', 'site/{path}/index.md'] }],
        vscode.ConfigurationTarget.Workspace,
      );
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace
      .getConfiguration('pageReports')
      .update('sources', undefined, vscode.ConfigurationTarget.Workspace);
    fs.rmSync(path.join(folder().fsPath, 'site'), { recursive: true, force: true });
    await configure();
  });

  it('shows the failed checks of the latest report on the file: severities, codes, lines, values as text', async () => {
    await open(pricing);
    const diagnostics = await waitFor(() => (ours(pricing).length === 5 ? ours(pricing) : undefined), {
      message: 'the five findings of pricing.html',
      timeoutMs: LONG,
    });
    const byCode = new Map(diagnostics.map((d) => [codeOf(d), d]));
    assert.deepEqual([...byCode.keys()].sort(), ['favicon', 'image_alt', 'response_time', 'title', 'viewport']);
    const expect: [string, vscode.DiagnosticSeverity, number][] = [
      ['title', vscode.DiagnosticSeverity.Error, 3],
      ['image_alt', vscode.DiagnosticSeverity.Error, 8],
      ['viewport', vscode.DiagnosticSeverity.Warning, 4],
      ['response_time', vscode.DiagnosticSeverity.Warning, 0],
      ['favicon', vscode.DiagnosticSeverity.Information, 0],
    ];
    for (const [code, severity, line] of expect) {
      const d = byCode.get(code);
      assert.ok(d, code);
      assert.equal(d.severity, severity, `${code}'s severity`);
      assert.equal(d.range.start.line, line, `${code}'s line`);
      assert.equal(typeof d.code === 'object' && d.code.target.path, '/report', `${code} links to its report`);
    }
    const title = byCode.get('title');
    assert.ok(title?.message.startsWith('Title: '), title?.message);
    // The value is plain text: as sent, its line break made one line.
    assert.ok(
      title?.message.includes('<img src=x onerror=alert(1)> **bold** [link](command:workbench.action.quit)'),
      title?.message,
    );
    assert.ok(!title?.message.includes('\n'));
    assert.equal(
      typeof title?.code === 'object' && new URLSearchParams(title.code.target.query).get('service'),
      serviceUrl(),
    );
  });

  it('maps a Markdown file by index, the report’s trailing slash ignored, onto its front matter', async () => {
    await open(docs);
    const [title] = await waitFor(() => (ours(docs).length > 0 ? ours(docs) : undefined), {
      message: 'the findings of docs/index.md',
      timeoutMs: LONG,
    }).catch(async (e: unknown) => {
      const requests = await admin<RecordedRequest[]>('requests');
      throw new Error(`${String(e)}; lookups: ${requests.map((r) => r.rawQuery).join(' | ')}`);
    });
    assert.equal(title && codeOf(title), 'title');
    assert.equal(title?.range.start.line, 1);
  });

  it('gives a file without a report of its page no diagnostics', async () => {
    await open(none);
    await waitFor(async () => (await lookupsOf(`${site()}none.html`)).length > 0, {
      message: 'the lookup of none.html',
      timeoutMs: LONG,
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(ours(none), []);
  });

  it('offers Open Report, Re-analyze Page and Copy as Markdown, and Open Report opens the report', async () => {
    const [first] = await waitFor(() => (ours(pricing).length > 0 ? ours(pricing) : undefined), {
      message: 'findings',
      timeoutMs: LONG,
    });
    assert.ok(first);
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      pricing,
      first.range,
      vscode.CodeActionKind.QuickFix.value,
    );
    const titles = actions.map((a) => a.title);
    for (const title of ['Open Report', 'Re-analyze Page', 'Copy as Markdown', 'Ask Agent to Fix'])
      assert.ok(titles.includes(title), titles.join(', '));
    const askAgent = actions.find((a) => a.title === 'Ask Agent to Fix');
    assert.equal(askAgent?.command?.command, 'pageReports.askAgentToFix');
    const openReport = actions.find((a) => a.title === 'Open Report');
    assert.ok(openReport?.command);
    const before = panelTabs().length;
    await vscode.commands.executeCommand(openReport.command.command, ...(openReport.command.arguments ?? []));
    await waitFor(() => panelTabs().length > before, { message: 'the report panel', timeoutMs: LONG });
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('offers Open Source on a report row only when its page maps to a file', async () => {
    const { reportsView } = (globalThis as Record<symbol, unknown>)[TestHook.views] as { reportsView: ReportsView };
    await vscode.commands.executeCommand('pageReports.refreshReports');
    const rows = await waitFor(
      async () => {
        const nodes = await reportsView.getChildren();
        return nodes.some((n) => n.kind === 'report' && n.report.url === `${site()}pricing.html`) ? nodes : undefined;
      },
      { message: 'the mapped report in the Reports view', timeoutMs: LONG },
    );
    const contextOf = (node: ViewNode): string => String(reportsView.getTreeItem(node).contextValue);
    const reports = rows.filter((n) => n.kind === 'report');
    const mapped = reports.filter((n) => n.report.url.startsWith(site()));
    const elsewhere = reports.filter((n) => !n.report.url.startsWith(site()));
    assert.ok(mapped.length > 0 && elsewhere.length > 0, 'rows under the prefix and elsewhere');
    for (const node of mapped) assert.match(contextOf(node), /^report(\.busy)?\.source$/, node.report.url);
    for (const node of elsewhere) assert.doesNotMatch(contextOf(node), /\.source$/, node.report.url);
  });

  it('updates after Re-analyze', async () => {
    await open(demo);
    await waitFor(() => ours(demo).some((d) => codeOf(d) === 'made_up_check'), {
      message: 'the stale findings',
      timeoutMs: LONG,
    });
    await vscode.commands.executeCommand('pageReports.reanalyzeReport', { id: demoReport.id });
    // The demo page's own analysis has no such check, and a title.
    await waitFor(() => !ours(demo).some((d) => codeOf(d) === 'made_up_check' || codeOf(d) === 'title'), {
      message: 'the findings of the new analysis',
      timeoutMs: LONG,
    });
  });

  it('hovers: a known URL shows its report; an unknown one asks the service only under a sources prefix', async () => {
    const elsewhere = 'https://elsewhere.example/private-page';
    const underPrefix = `${site()}not-analyzed-yet`;
    const document = await vscode.workspace.openTextDocument({
      language: 'plaintext',
      content: `known ${site()}pricing.html\nmine ${underPrefix}\nother ${elsewhere}\n`,
    });
    await admin('requests', undefined, 'DELETE');
    const known = await hoverAt(document, `${site()}pricing.html`);
    assert.match(known, /Open Report/);
    // The hover's Markdown escapes its punctuation.
    assert.match(known.replace(/\\(.)/g, '$1'), /Failed checks: 2 high, 2 medium, 1 low/);
    const mine = await hoverAt(document, underPrefix);
    assert.match(mine, /Analyze Page/);
    assert.equal((await lookupsOf(underPrefix)).length, 1, 'one lookup of the URL under the prefix');
    const other = await hoverAt(document, elsewhere);
    assert.match(other, /Analyze Page/);
    const requests = await admin<RecordedRequest[]>('requests');
    assert.ok(!requests.some((r) => r.rawQuery.includes('elsewhere')), 'no request names the URL outside the prefixes');
  });

  it('refuses a pattern that leaves the folder and a file reached through a symbolic link, saying so in the log', async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'page-reports-outside-'));
    fs.writeFileSync(path.join(outside, 'secret.html'), PRICING_HTML);
    const linked = path.join(folder().fsPath, 'site', 'linked.html');
    fs.symlinkSync(path.join(outside, 'secret.html'), linked);
    await insert(`${site()}linked.html`, { title: { passed: false, importance: 'high', value: 'through a link' } });
    await vscode.workspace
      .getConfiguration('pageReports')
      .update(
        'sources',
        [{ url: site(), files: ['../{path}', 'site/{path}', 'site/{path}/index.md'] }],
        vscode.ConfigurationTarget.Workspace,
      );
    await pageReportsLogWith('the pattern "../{path}" is refused', LONG);
    await open(vscode.Uri.file(linked));
    await pageReportsLogWith('site/linked.html is a symbolic link', LONG);
    assert.deepEqual(ours(vscode.Uri.file(linked)), []);
    fs.rmSync(linked);
    fs.rmSync(outside, { recursive: true, force: true });
  });

  it('clears the diagnostics on a service switch', async () => {
    await waitFor(() => ours(pricing).length > 0, { message: 'findings before the switch', timeoutMs: LONG });
    await configure(serviceUrl(), keys().other);
    await waitFor(() => ours(pricing).length === 0 && ours(docs).length === 0, {
      message: 'no findings after the switch',
      timeoutMs: LONG,
    });
    await configure();
  });
});
