/**
 * The report page's own script and stylesheet as text, put into each panel's HTML
 * (src/panels/html.ts, `inline`): the page then starts without fetching them through the
 * webview's resource loader (figures in the commit that added it). The read is a local file
 * in the Node host and the extension's own URL in the browser's.
 */
import * as vscode from 'vscode';
import type { InlineAssets } from './html';

/**
 * The report page's script (dist/webview/panel.js) and stylesheet (media/panel.css), read once
 * and kept (about 50 KB) for every panel of this extension host. Read on each open, they cost a
 * later open 48–156 ms before its webview had any HTML: that is how long
 * `vscode.workspace.fs.readFile` of the two files took in code-server (`npm run bench`, host
 * section, timing marks in the panel and its page). The first read starts when the panels part
 * is built, which is when main.ts loads: usually at startup, as a view asks for its items, so
 * the first panel of a window usually finds the text read. When opening or restoring a panel
 * is the first use, that panel waits for the read once.
 *
 * In an Extension Development Host (F5, `npm run watch`) the files are read on every open, so a
 * rebuilt page script shows in the next panel.
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
