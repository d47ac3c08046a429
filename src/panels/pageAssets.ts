/**
 * The report page's own script and stylesheet as text, put into each panel's HTML
 * (src/panels/html.ts, `inline`), so the page starts without fetching them.
 */
import * as vscode from 'vscode';
import type { InlineAssets } from './html';

/**
 * The page's script (dist/webview/panel.js) and stylesheet (media/panel.css), read once per
 * extension host, when the panels part is built: read on each open, they held up the webview's
 * HTML. In an Extension Development Host they are read on every open, so a rebuilt script shows.
 */
export class ReportPageAssets {
  #kept: Promise<InlineAssets> | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly readEveryTime: boolean,
  ) {
    if (!readEveryTime) void this.get().catch(() => undefined);
  }

  /** The files' text; rejects when either cannot be read (the next call reads again). */
  get(): Promise<InlineAssets> {
    if (this.readEveryTime) return readAssets(this.extensionUri);
    if (this.#kept === undefined) {
      const assets = readAssets(this.extensionUri);
      this.#kept = assets;
      assets.catch(() => {
        if (this.#kept === assets) this.#kept = undefined;
      });
    }
    return this.#kept;
  }
}

async function readAssets(extensionUri: vscode.Uri): Promise<InlineAssets> {
  const [script, style] = await Promise.all([
    readText(vscode.Uri.joinPath(extensionUri, 'dist', 'webview', 'panel.js')),
    readText(vscode.Uri.joinPath(extensionUri, 'media', 'panel.css')),
  ]);
  return { script, style };
}

async function readText(uri: vscode.Uri): Promise<string> {
  return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
}
