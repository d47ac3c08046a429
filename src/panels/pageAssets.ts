/**
 * The report page's own script and stylesheet as text, read once per window and put into each
 * panel's HTML (src/panels/html.ts, `inline`): the page then starts without fetching them
 * through the webview's resource loader.
 */
import * as vscode from 'vscode';
import type { InlineAssets } from './html';

let cached: { key: string; assets: Promise<InlineAssets> } | undefined;

/** The report page's script (dist/webview/panel.js) and stylesheet (media/panel.css). */
export function reportPageAssets(extensionUri: vscode.Uri): Promise<InlineAssets> {
  const key = extensionUri.toString();
  if (cached?.key !== key) {
    const assets = Promise.all([
      readText(vscode.Uri.joinPath(extensionUri, 'dist', 'webview', 'panel.js')),
      readText(vscode.Uri.joinPath(extensionUri, 'media', 'panel.css')),
    ]).then(([script, style]) => ({ script, style }));
    cached = { key, assets };
    // A failed read is not kept: the next panel tries again.
    assets.catch(() => {
      if (cached?.assets === assets) cached = undefined;
    });
  }
  return cached.assets;
}

async function readText(uri: vscode.Uri): Promise<string> {
  return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
}
