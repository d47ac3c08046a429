/**
 * The extension the benchmark's tests entry belongs to (the smoke-test driver needs an
 * `extensionDevelopmentPath`), bundled by bench/host.ts. Activated only when its one command
 * runs, in the floor launches: it opens the smallest webview panel that draws something and
 * says so after the next frame, as the report panel's page does. That is the floor for the
 * report panel's command → rendered time: what any webview costs in this workbench.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { OPEN_FLOOR_WEBVIEW } from './protocol';

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

/** Opens the panel; resolves once its page has drawn (rejects after 15 s). */
function openFloorWebview(): Promise<void> {
  return new Promise((resolve, reject) => {
    const panel = vscode.window.createWebviewPanel('pageReportsBench.floor', 'Floor', vscode.ViewColumn.Active, {
      enableScripts: true,
    });
    const timer = setTimeout(() => {
      listener.dispose();
      reject(new Error(`the floor webview did not render within ${RENDER_TIMEOUT_MS} ms`));
    }, RENDER_TIMEOUT_MS);
    const listener = panel.webview.onDidReceiveMessage((message: { type?: unknown }) => {
      if (message.type !== 'rendered') return;
      clearTimeout(timer);
      listener.dispose();
      resolve();
    });
    panel.webview.html = html(randomBytes(16).toString('base64'));
  });
}

export function activate(context: vscode.ExtensionContext): void {
  context.subscriptions.push(vscode.commands.registerCommand(OPEN_FLOOR_WEBVIEW, openFloorWebview));
}
