/**
 * What the report panel and the insights panel share about being a webview panel: the options
 * their pages run with, and the end of their life.
 */
import * as vscode from 'vscode';

/** Scripts on; forms and command links off; local files only from dist/ and media/. */
export function pageWebviewOptions(context: vscode.ExtensionContext): vscode.WebviewOptions {
  return {
    enableScripts: true,
    enableForms: false,
    enableCommandUris: false,
    localResourceRoots: [
      vscode.Uri.joinPath(context.extensionUri, 'dist'),
      vscode.Uri.joinPath(context.extensionUri, 'media'),
    ],
  };
}

/**
 * A panel's life: the disposables it owns, ended once when the webview panel closes (by the
 * user, or by the panel's `dispose()`). Ending runs `beforeEnd` (the panel aborts its load),
 * fires `onDidEnd`, then disposes everything owned.
 */
export class PanelLifetime {
  #ended = false;
  readonly #owned: vscode.Disposable[] = [];
  readonly #endEmitter = new vscode.EventEmitter<void>();
  /** Fires once, when the panel closes. */
  readonly onDidEnd = this.#endEmitter.event;

  constructor(panel: vscode.WebviewPanel, beforeEnd: () => void) {
    this.#owned.push(
      panel.onDidDispose(() => {
        if (this.#ended) return;
        this.#ended = true;
        beforeEnd();
        this.#endEmitter.fire();
        for (const d of this.#owned) d.dispose();
      }),
      this.#endEmitter,
    );
  }

  /** Whether the panel has closed. */
  get ended(): boolean {
    return this.#ended;
  }

  /** Disposed when the panel closes. */
  own(...disposables: vscode.Disposable[]): void {
    this.#owned.push(...disposables);
  }
}
