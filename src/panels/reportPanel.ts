import * as vscode from 'vscode';
import { l10n } from 'vscode';
import { isApiError } from '../api/errors';
import type { Report, ReportId } from '../api/types';
import type { Log } from '../log';
import type { ConnectionApi, ErrorReporter } from '../parts';
import { reportTitle } from './format';
import { renderShell } from './html';
import {
  openableUrl,
  parsePageMessage,
  toReportData,
  type HostMessage,
  type PanelCommand,
  type PanelState,
  type PanelStateKind,
} from './protocol';

import { REPORT_PANEL_VIEW_TYPE } from './viewType';

export { REPORT_PANEL_VIEW_TYPE };

/** The extension command each toolbar button runs, with `{ id }` as its argument. */
export const PANEL_COMMAND_IDS: Readonly<Record<PanelCommand, string>> = {
  reanalyze: 'pageReports.reanalyzeReport',
  changePrivacy: 'pageReports.changeReportPrivacy',
  openOnService: 'pageReports.openReportOnService',
  copyUrl: 'pageReports.copyReportUrl',
  delete: 'pageReports.deleteReport',
};
export const SHOW_PROJECT_COMMAND = 'pageReports.showProjectInReports';

export interface PanelDeps {
  readonly context: vscode.ExtensionContext;
  readonly log: Log;
  readonly connection: ConnectionApi;
  readonly errors: ErrorReporter;
}

/** Whether a report id from the API and one from elsewhere name the same report. */
export function panelKey(id: ReportId): string {
  return String(id);
}

/**
 * One report's panel: owns its `WebviewPanel`, loads the report, holds the state the page
 * shows, and acts on the page's (validated) requests. Retains no page context when hidden:
 * the page asks again with `ready` and is drawn from `state`.
 */
export class ReportPanel implements vscode.Disposable {
  #report: Report | undefined;
  #state: PanelState = { kind: 'loading' };
  #busy = false;
  #refreshing = false;
  #refreshError: string | undefined;
  #pageReady = false;
  #seq = 0;
  /** Seq numbers of states posted and not yet drawn: a `rendered` for anything else is ignored. */
  readonly #pending = new Set<number>();
  #openedAt = performance.now();
  /** Whether the report was drawn since the last open (the first draw is logged with its time). */
  #shownSinceOpen = false;
  #loading: AbortController | undefined;
  #disposed = false;
  readonly #disposables: vscode.Disposable[] = [];
  readonly #disposeEmitter = new vscode.EventEmitter<void>();
  /** Fires once, when the panel closes (by the user or by `dispose`). */
  readonly onDidDispose = this.#disposeEmitter.event;

  /** Opens a new panel for the report, beside nothing: in the active editor group. */
  static create(deps: PanelDeps, id: ReportId, initial?: Report): ReportPanel {
    const panel = vscode.window.createWebviewPanel(
      REPORT_PANEL_VIEW_TYPE,
      initial ? reportTitle(initial.url, initial.id) : l10n.t('Report {0}', String(id)),
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      { ...ReportPanel.#webviewOptions(deps.context), retainContextWhenHidden: false, enableFindWidget: true },
    );
    return new ReportPanel(deps, panel, id, initial);
  }

  /** Takes over a panel VS Code restored after a reload (see the serializer). */
  static revive(deps: PanelDeps, panel: vscode.WebviewPanel, id: ReportId): ReportPanel {
    panel.webview.options = ReportPanel.#webviewOptions(deps.context);
    return new ReportPanel(deps, panel, id, undefined);
  }

  /** Scripts on; forms and command links off; local files only from dist/ and media/. */
  static #webviewOptions(context: vscode.ExtensionContext): vscode.WebviewOptions {
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

  private constructor(
    private readonly deps: PanelDeps,
    readonly panel: vscode.WebviewPanel,
    readonly id: ReportId,
    initial: Report | undefined,
  ) {
    const { extensionUri } = deps.context;
    const file = (...segments: string[]): vscode.Uri => vscode.Uri.joinPath(extensionUri, ...segments);
    panel.iconPath = { light: file('media', 'panel-light.svg'), dark: file('media', 'panel-dark.svg') };
    const webview = panel.webview;
    const asset = (...segments: string[]): string => webview.asWebviewUri(file(...segments)).toString();
    webview.html = renderShell({
      cspSource: webview.cspSource,
      scriptUri: asset('dist', 'webview', 'panel.js'),
      styleUri: asset('media', 'panel.css'),
      codiconUri: asset('dist', 'codicons', 'codicon.css'),
      lang: vscode.env.language,
      title: l10n.t('Report'),
      noscript: l10n.t('This panel needs scripts enabled to show the report.'),
    });
    this.#disposables.push(
      webview.onDidReceiveMessage((message: unknown) => this.#onMessage(message)),
      panel.onDidDispose(() => this.#onPanelDisposed()),
      this.#disposeEmitter,
    );
    if (initial) this.showReport(initial);
  }

  /** The report's project, once loaded (for `closeProject`). */
  get project(): string | undefined {
    return this.#report?.project;
  }

  /** Brings the panel to the front and restarts the command → content clock. */
  reveal(): void {
    this.#openedAt = performance.now();
    this.#shownSinceOpen = false;
    this.panel.reveal(undefined, false);
  }

  /**
   * Fetches the report and shows it. Without data yet it shows the loading state, then the
   * report or the error with Retry. With data it refreshes in place; if that fails it keeps
   * the data and says so, with Retry. A 404 shows the deleted state. Never rejects.
   */
  async load(): Promise<void> {
    this.#loading?.abort();
    const controller = new AbortController();
    this.#loading = controller;
    const api = this.deps.connection.api;
    if (!api) {
      this.#setState({
        kind: 'error',
        message: l10n.t('Page Reports is not connected: set the service URL and API key, then retry.'),
        canRetry: true,
      });
      return;
    }
    const hadReport = this.#report !== undefined;
    if (hadReport) {
      this.#refreshing = true;
      this.#postReportState();
    } else this.#setState({ kind: 'loading' });
    try {
      const report = await api.getReport(this.id, controller.signal);
      if (controller.signal.aborted || this.#disposed) return;
      this.#refreshing = false;
      this.#refreshError = undefined;
      this.showReport(report);
    } catch (error) {
      if (controller.signal.aborted || this.#disposed) return;
      this.#refreshing = false;
      this.#onLoadError(error);
    } finally {
      if (this.#loading === controller) this.#loading = undefined;
    }
  }

  #onLoadError(error: unknown): void {
    if (isApiError(error) && error.kind === 'cancelled') {
      this.#postReportState();
      return;
    }
    if (isApiError(error) && error.kind === 'notFound') {
      this.#report = undefined;
      this.#busy = false;
      this.#setState({
        kind: 'deleted',
        id: this.id,
        message: l10n.t('Report {0} no longer exists.', String(this.id)),
      });
      return;
    }
    const message = error instanceof Error ? error.message : String(error);
    this.#log('warn', `could not load the report: ${message}`);
    // A rejected key needs the one "Set API Key" prompt the error reporter gives.
    if (isApiError(error) && error.kind === 'unauthorized') this.deps.errors.report(error);
    if (this.#report) {
      // Keep showing the data we have, marked as possibly stale.
      this.#refreshError = message;
      this.#postReportState();
      return;
    }
    this.#setState({ kind: 'error', message, canRetry: true });
  }

  /** Shows this report (fresh data from a load, a write or the caller). */
  showReport(report: Report): void {
    this.#report = report;
    this.panel.title = reportTitle(report.url, report.id);
    this.#postReportState();
  }

  /** Shows or clears the busy state (a write on this report is in flight). */
  setBusy(busy: boolean): void {
    this.#busy = busy;
    if (this.#state.kind === 'report') this.#postReportState();
  }

  #postReportState(): void {
    if (!this.#report) return;
    // The page formats the report (format.ts runs in the webview, not in the extension host).
    this.#setState({
      kind: 'report',
      report: toReportData(this.#report),
      busy: this.#busy,
      refreshing: this.#refreshing,
      refreshError: this.#refreshError ?? null,
    });
  }

  #setState(state: PanelState): void {
    this.#state = state;
    this.#postState();
  }

  #postState(): void {
    if (!this.#pageReady || this.#disposed) return;
    this.#seq += 1;
    this.#pending.add(this.#seq);
    this.#post({ type: 'state', reportId: this.id, state: this.#state, seq: this.#seq });
  }

  #post(message: HostMessage): void {
    // A hidden page cannot receive; it sends `ready` again when shown and is drawn then.
    this.panel.webview.postMessage(message).then(undefined, (error: unknown) => {
      if (!this.#disposed)
        this.#log('warn', `could not post to the page: ${String(error)}`);
    });
  }

  #onMessage(raw: unknown): void {
    const message = parsePageMessage(raw);
    if (!message) {
      this.#log('warn', `ignored a malformed message from the page.`);
      return;
    }
    switch (message.type) {
      case 'ready':
        this.#pageReady = true;
        this.#post({ type: 'init', bundle: vscode.l10n.bundle ?? {}, locale: vscode.env.language });
        this.#postState();
        return;
      case 'retry':
        void this.load();
        return;
      case 'openUrl':
        this.#openUrl(message.url);
        return;
      case 'command':
        this.#runCommand(PANEL_COMMAND_IDS[message.name], { id: this.id });
        return;
      case 'filterProject':
        // Only the project this report belongs to: the page cannot pick another.
        if (this.#report?.project === undefined || this.#report.project !== message.project) {
          this.#log('warn', `refused to filter by a project that is not the report's.`);
          return;
        }
        this.#runCommand(SHOW_PROJECT_COMMAND, this.#report.project);
        return;
      case 'rendered':
        this.#onRendered(message.kind, message.seq);
        return;
    }
  }

  /** Opens only absolute http(s) URLs; anything else (javascript:, command:, file:) is refused. */
  #openUrl(url: string): void {
    const safe = openableUrl(url);
    if (safe === undefined) {
      const scheme = /^\s*([A-Za-z][A-Za-z0-9+.-]*):/.exec(url)?.[1] ?? 'none';
      this.#log('warn', `refused to open a URL with scheme "${scheme.slice(0, 20)}" (only http and https open).`);
      void vscode.window.showWarningMessage(l10n.t('Only http and https addresses can be opened.'));
      return;
    }
    let uri: vscode.Uri;
    try {
      uri = vscode.Uri.parse(safe, true);
    } catch {
      this.#log('warn', `refused to open a URL that does not parse.`);
      return;
    }
    vscode.env
      .openExternal(uri)
      .then(undefined, (error: unknown) =>
        this.#log('warn', `could not open the URL: ${String(error)}`),
      );
  }

  /** Logs `text` as this panel's (`Report panel 42: …`). */
  #log(level: 'info' | 'warn' | 'error', text: string): void {
    this.deps.log[level](`Report panel ${String(this.id)}: ${text}`);
  }

  #runCommand(command: string, arg: unknown): void {
    // The commands report their own failures; this only keeps a rejection from going unhandled.
    vscode.commands.executeCommand(command, arg).then(undefined, (error: unknown) => {
      this.#log('error', `${command} failed: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  #onRendered(kind: PanelStateKind, seq: number): void {
    if (!this.#pending.has(seq)) return;
    for (const key of this.#pending) if (key <= seq) this.#pending.delete(key);
    // The first draw of the report after an open is logged with its time (command → content,
    // which the benchmark reads from the log).
    if (kind === 'report' && !this.#shownSinceOpen) {
      this.#shownSinceOpen = true;
      const ms = Math.round(performance.now() - this.#openedAt);
      this.#log('info', `shown ${ms} ms after opening.`);
    }
  }

  #onPanelDisposed(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#loading?.abort();
    this.#disposeEmitter.fire();
    for (const d of this.#disposables) d.dispose();
  }

  /** Closes the panel. */
  dispose(): void {
    this.panel.dispose();
  }
}
