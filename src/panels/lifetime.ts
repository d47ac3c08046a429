/**
 * What the report panel and the insights panel share about being a webview panel: the options
 * their pages run with, what they say without a connection, the end of their life and their
 * registries' hold on them.
 */
import * as vscode from 'vscode';
import * as l10n from '@vscode/l10n';
import type { ShellOptions } from './html';

/** What a panel says when it has no client to load with. */
export function notConnectedMessage(): string {
  return l10n.t('Page Reports is not connected: set the service URL and API key, then retry.');
}

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

/** A new panel for a page, in the active editor group and focused; hidden, its page is not kept (it asks again with `ready`). */
export function createPagePanel(
  context: vscode.ExtensionContext,
  viewType: string,
  title: string,
): vscode.WebviewPanel {
  return vscode.window.createWebviewPanel(viewType, title, vscode.ViewColumn.Active, {
    ...pageWebviewOptions(context),
    retainContextWhenHidden: false,
    enableFindWidget: true,
  });
}

/** The shell of the page `name`: its script dist/webview/`name`.js and stylesheet media/`name`.css. */
export function pageShell(
  webview: vscode.Webview,
  context: vscode.ExtensionContext,
  name: string,
  text: { title: string; noscript: string },
): ShellOptions {
  const asset = (...segments: string[]): string =>
    webview.asWebviewUri(vscode.Uri.joinPath(context.extensionUri, ...segments)).toString();
  return {
    cspSource: webview.cspSource,
    scriptUri: asset('dist', 'webview', `${name}.js`),
    styleUri: asset('media', `${name}.css`),
    lang: vscode.env.language,
    ...text,
  };
}

/**
 * A panel's life: the disposables it owns, ended once when the webview panel closes (by the user,
 * or by the panel's `dispose()`).
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

/**
 * Keeps `panel` in `panels` under `key` while it is open: closed, it leaves the map, unless
 * another panel has taken its key meanwhile.
 */
export function keepWhileOpen<P extends { onDidDispose(listener: () => void): unknown }>(
  panels: Map<string, P>,
  key: string,
  panel: P,
): P {
  panels.set(key, panel);
  panel.onDidDispose(() => {
    if (panels.get(key) === panel) panels.delete(key);
  });
  return panel;
}

/**
 * A panel tab's light and dark icons, given to the tab after the page's first draw rather than
 * with the panel: set with the panel, the icon delayed the page's first paint (`npm run bench`).
 * A page that never draws (its script refused) leaves the tab without the icon.
 */
export class TabIcon {
  #icon: { light: vscode.Uri; dark: vscode.Uri } | undefined;

  /** `name`: the icons media/`name`-light.svg and media/`name`-dark.svg. */
  constructor(
    private readonly panel: vscode.WebviewPanel,
    private readonly life: PanelLifetime,
    context: vscode.ExtensionContext,
    name: string,
  ) {
    const icon = (theme: string): vscode.Uri =>
      vscode.Uri.joinPath(context.extensionUri, 'media', `${name}-${theme}.svg`);
    this.#icon = { light: icon('light'), dark: icon('dark') };
  }

  /** Gives the tab its icon, the first time only: call it when the page says it drew (anything). */
  show(): void {
    if (this.#icon === undefined || this.life.ended) return;
    this.panel.iconPath = this.#icon;
    this.#icon = undefined;
  }
}
