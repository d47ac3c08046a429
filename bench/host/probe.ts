/**
 * The extension the benchmark's tests entry belongs to (the smoke-test driver needs an
 * `extensionDevelopmentPath`), bundled by bench/host.ts. Activated only when one of its
 * commands runs, in the floor launches:
 * - the floor: the smallest webview panel that draws something, saying so after the next
 *   frame as the report panel's page does. That is the floor for the report panel's
 *   command → rendered time: what any webview costs in this workbench.
 * - the report page alone: the installed Page Reports extension's page (its HTML shell with
 *   the page script and stylesheet put in, its words and a report's state posted at once, as
 *   src/panels/reportPanel.ts does) in a panel made as the floor's: no find widget, the
 *   floor's title, no title actions, no extension behind it. Against the floor it is what
 *   the page costs; against the real panel, what the rest of an open costs.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { parseReport } from '../../src/api/schemas';
import { toReportData, type HostMessage } from '../../src/protocols/panelProtocol';
import { renderShell, type InlineAssets } from '../../src/panels/html';
import { OPEN_BARE_REPORT_PAGE, OPEN_FLOOR_WEBVIEW } from './protocol';

const PAGE_REPORTS_ID = 'page-reports.page-reports';

const RENDER_TIMEOUT_MS = 15_000;

function html(nonce: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'nonce-${nonce}'">
<title>Floor</title>
</head>
<body>
<p>Floor</p>
<script nonce="${nonce}">
const api = acquireVsCodeApi();
requestAnimationFrame(() => api.postMessage({ type: 'rendered' }));
</script>
</body>
</html>`;
}

/**
 * Opens a panel as the floor's and gives it its HTML and then `messages`; resolves once its
 * page says it has drawn (rejects after 15 s).
 */
function openPanel(
  pageHtml: (webview: vscode.Webview) => string,
  messages: readonly HostMessage[] = [],
): Promise<void> {
  return new Promise((resolve, reject) => {
    const panel = vscode.window.createWebviewPanel('pageReportsBench.floor', 'Floor', vscode.ViewColumn.Active, {
      enableScripts: true,
    });
    const timer = setTimeout(() => {
      listener.dispose();
      reject(new Error(`the probe's webview did not render within ${RENDER_TIMEOUT_MS} ms`));
    }, RENDER_TIMEOUT_MS);
    const listener = panel.webview.onDidReceiveMessage((message: { type?: unknown }) => {
      if (message.type !== 'rendered') return;
      clearTimeout(timer);
      listener.dispose();
      resolve();
    });
    panel.webview.html = pageHtml(panel.webview);
    for (const message of messages) void panel.webview.postMessage(message);
  });
}

/** The report page's script and stylesheet, read once from the installed extension. */
let pageAssets: InlineAssets | undefined;

function readPageAssets(): InlineAssets {
  const extension = vscode.extensions.getExtension(PAGE_REPORTS_ID);
  if (!extension) throw new Error(`${PAGE_REPORTS_ID} is not installed in this host`);
  const file = (...segments: string[]) =>
    fs.readFileSync(vscode.Uri.joinPath(extension.extensionUri, ...segments).fsPath, 'utf8');
  return { script: file('dist', 'webview', 'panel.js'), style: file('media', 'panel.css') };
}

/** Opens the report page alone with `raw` (a report as the service sends it). */
function openBareReportPage(raw: unknown): Promise<void> {
  pageAssets ??= readPageAssets();
  const inline = pageAssets;
  const report = parseReport(raw);
  const messages: HostMessage[] = [
    { type: 'init', bundle: {}, locale: 'en' },
    {
      type: 'state',
      reportId: report.id,
      seq: 1,
      state: {
        kind: 'report',
        report: toReportData(report),
        busy: false,
        refreshing: false,
        refreshError: null,
        previous: null,
        foreign: null,
      },
    },
  ];
  // The URIs are unused: the script and stylesheet are put into the HTML.
  return openPanel(
    (webview) =>
      renderShell({
        cspSource: webview.cspSource,
        scriptUri: '',
        styleUri: '',
        inline,
        lang: 'en',
        title: 'Report',
        noscript: '',
      }),
    messages,
  );
}

export function activate(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(OPEN_FLOOR_WEBVIEW, () =>
      openPanel(() => html(randomBytes(16).toString('base64'))),
    ),
    vscode.commands.registerCommand(OPEN_BARE_REPORT_PAGE, openBareReportPage),
  );
}
