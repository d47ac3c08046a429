/**
 * The report page's own script and stylesheet as text, put into each panel's HTML
 * (src/panels/html.ts, `inline`): the page then starts without fetching them through the
 * webview's resource loader (figures in the commit that added it). Read on every open, so a
 * rebuilt script (`npm run watch`) shows in the next panel; the read is a local file in the
 * Node host and the extension's own URL in the browser's.
 */
import * as vscode from 'vscode';
import type { InlineAssets } from './html';

/** The report page's script (dist/webview/panel.js) and stylesheet (media/panel.css). */
export async function reportPageAssets(extensionUri: vscode.Uri): Promise<InlineAssets> {
  const [script, style] = await Promise.all([
    readText(vscode.Uri.joinPath(extensionUri, 'dist', 'webview', 'panel.js')),
    readText(vscode.Uri.joinPath(extensionUri, 'media', 'panel.css')),
  ]);
  return { script, style };
}

async function readText(uri: vscode.Uri): Promise<string> {
  return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
}
