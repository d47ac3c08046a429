import * as vscode from 'vscode';
import * as l10n from '@vscode/l10n';
import { isApiError, messageOf } from '../api/errors';
import { describeError } from '../api/messages';
import { parseReport } from '../api/schemas';
import type { Report, ReportId } from '../api/types';
import type { RecentAnalyses } from '../stores/recentAnalyses';
import type { RecentReports } from '../stores/recentReports';
import type { Log } from '../log';
import type { ConnectionApi, ErrorReporter } from '../parts';
import { isListSummary } from '../views/summary';
import { reportTitle } from '../presentation/format';
import { renderShell } from './html';
import { openInBrowser } from '../ui/notify';
import { runAction, wayForward } from '../ui/errorReporter';
import type { ReportPageAssets } from './pageAssets';
import { createPagePanel, notConnectedMessage, pageShell, pageWebviewOptions, PanelLifetime, TabIcon } from './lifetime';
import { DEFAULT_REPORT_PAGE_URL, pinnedUrl, reportPageUrl } from '../text/urls';
import {
  parsePageMessage,
  toReportData,
  type HostMessage,
  type ReportData,
  type PanelCommand,
  runsOnOtherService,
  type PanelState,
  type PanelStateKind,
} from '../protocols/panelProtocol';

import { Command, ContextKey, Setting, WebviewType } from '../ids';

/** The extension command each toolbar button runs, with the report shown (`{ id }` before one is) as its argument. */
export const PANEL_COMMAND_IDS: Readonly<Record<PanelCommand, string>> = {
  reanalyze: Command.reanalyzeReport,
  changePrivacy: Command.changeReportPrivacy,
  openOnService: Command.openReportOnService,
  copyUrl: Command.copyReportUrl,
  delete: Command.deleteReport,
};
export const SHOW_PROJECT_COMMAND = Command.showProjectInReports;

/** How long a refresh waits for the page's first draw of a listed report before it runs anyway. */
export const REFRESH_AFTER_DRAW_FALLBACK_MS = 5000;
/**
 * Within this long of the last one, a refused URL is logged but not told again. Only a page
 * gone wrong (or forged) asks to open what it shows as text, and it may ask many times at
 * once: the workbench closes a repeated notification and drops toasts shown in a quick burst,
 * so a burst could end with no warning on screen at all.
 */
const REFUSED_URL_WARNING_GAP_MS = 2000;

export interface PanelDeps {
  readonly context: vscode.ExtensionContext;
  readonly log: Log;
  readonly connection: ConnectionApi;
  readonly errors: ErrorReporter;
  /** Where the previous analysis of a re-analyzed report is kept. */
  readonly analyses: RecentAnalyses;
  /** The whole reports of the latest list answers, for a panel opened from a tree row. */
  readonly recentReports: RecentReports;
  /** The page's script and stylesheet, for its HTML. */
  readonly pageAssets: ReportPageAssets;
}

/** Whether a report id from the API and one from elsewhere name the same report. */
export function panelKey(id: ReportId): string {
  return String(id);
}

/**
 * One report's panel: owns its `WebviewPanel`, loads the report, holds the state the page shows,
 * and acts on the page's (validated) requests.
 */
export class ReportPanel implements vscode.Disposable {
  #report: Report | undefined;
  #state: PanelState = { kind: 'loading' };
  #busy = false;
  #refreshing = false;
  #refreshError: string | undefined;
  /** The way forward the error shown offers beside Retry (its state's `action`). */
  #errorAction: vscode.Command | undefined;
  /** The last state message posted: posted again, same seq, when a (re)loaded page says `ready`. */
  #lastState: Extract<HostMessage, { type: 'state' }> | undefined;
  #seq = 0;
  /** Seq numbers of states posted and not yet drawn: a `rendered` for anything else is ignored. */
  readonly #pending = new Set<number>();
  #openedAt = performance.now();
  /** Whether the report was drawn since the last open (the first draw is logged with its time). */
  #shownSinceOpen = false;
  /** When the page first drew anything of the report since the last open (its summary, maybe). */
  #firstPaintAt: number | undefined;
  /** Seq numbers of posted states that held only the list's summary. */
  readonly #partialSeqs = new Set<number>();
  #loading: AbortController | undefined;
  /** Set while a refresh waits for the page's first draw (see {@link refreshOnceShown}): its fallback timer. */
  #refreshAfterDraw: ReturnType<typeof setTimeout> | undefined;
  /** When the last "Only http and https" warning was shown (see REFUSED_URL_WARNING_GAP_MS). */
  #refusedUrlWarnedAt = -Infinity;
  /** A project whose panels were closed while this one was still loading (see {@link closeIfProject}). */
  #closingProject: string | undefined;
  /**
   * The service the report came from (its normalized URL). A panel never fetches its id from
   * another service: report 42 there is a different report.
   */
  #serviceUrl: string | undefined;
  readonly #life: PanelLifetime;
  /** The tab's icon, given once the page has drawn. */
  readonly #icon: TabIcon;
  /** Fires once, when the panel closes (by the user or by `dispose`). */
  readonly onDidDispose: vscode.Event<void>;

  /** Opens a new panel for the report of `serviceUrl` in the active editor group. */
  static create(deps: PanelDeps, id: ReportId, initial?: Report, serviceUrl?: string): ReportPanel {
    // Without a report yet, the title its empty URL gives: `Report 42`.
    const panel = createPagePanel(deps.context, WebviewType.report, reportTitle(initial?.url ?? '', id));
    return new ReportPanel(deps, panel, id, initial, serviceUrl);
  }

  /**
   * Takes over a panel VS Code restored after a reload (see the serializer): the panel of
   * report `id` of `serviceUrl` (the service it showed; when the user has switched since, it
   * says so and never asks the current service for that id), or of the current service.
   */
  static revive(deps: PanelDeps, panel: vscode.WebviewPanel, id: ReportId, serviceUrl?: string): ReportPanel {
    panel.webview.options = pageWebviewOptions(deps.context);
    return new ReportPanel(deps, panel, id, undefined, serviceUrl);
  }

  private constructor(
    private readonly deps: PanelDeps,
    readonly panel: vscode.WebviewPanel,
    readonly id: ReportId,
    initial: Report | undefined,
    serviceUrl = deps.connection.serviceUrl,
  ) {
    this.#life = new PanelLifetime(panel, () => {
      this.#cancelRefreshAfterDraw();
      this.#loading?.abort();
    });
    this.onDidDispose = this.#life.onDidEnd;
    this.#serviceUrl = serviceUrl;
    this.#icon = new TabIcon(panel, this.#life, deps.context, 'panel');
    const webview = panel.webview;
    // No codicon font or stylesheet: the page draws its few icons as inline SVG (src/webview/icons.ts).
    const shell = pageShell(webview, deps.context, 'panel', {
      title: l10n.t('Report'),
      noscript: l10n.t('This panel needs scripts enabled to show the report.'),
    });
    // The script and stylesheet go into the HTML (./pageAssets); should they not read, or not
    // be fit to inline, the page loads them by URI as any webview does.
    void deps.pageAssets
      .get()
      .then((inline) => renderShell({ ...shell, inline }))
      .catch((error: unknown) => {
        this.#log('warn', `loads its script by URI: ${messageOf(error)}`);
        return renderShell(shell);
      })
      .then((html) => this.#setHtml(html));
    this.#life.own(webview.onDidReceiveMessage((message: unknown) => this.#onMessage(message)));
    this.#life.own(panel.onDidChangeViewState(() => this.#showTitleActions()));
    // The words and first state go now, not after the page's `ready`: VS Code holds them until
    // the page has loaded, which saves a round trip. `ready` posts them again (same seq).
    this.#postInit();
    if (initial) this.showReport(initial);
  }

  /** The URL of the service the report came from (undefined until one is known). */
  get serviceUrl(): string | undefined {
    return this.#serviceUrl;
  }

  /** The label of the panel's service when the extension now shows another service (or none), else undefined. */
  get foreignService(): string | undefined {
    const mine = this.#serviceUrl;
    if (mine === undefined || mine === this.deps.connection.serviceUrl) return undefined;
    return this.deps.connection.labelOf(mine);
  }

  /**
   * The service URL or the key changed: a panel of the current service loads
   * again; one of another service keeps its content and says where it came from.
   */
  onConnectionChanged(): void {
    if (this.foreignService !== undefined) {
      this.#loading?.abort();
      this.#refreshing = false;
      if (this.#report) this.#postReportState();
      else this.#setState(this.#foreignErrorState());
      return;
    }
    void this.load();
  }

  #foreignErrorState(): PanelState {
    const service = this.foreignService ?? '';
    return {
      kind: 'error',
      message: l10n.t(
        'Switch back to {0} to see this report again. It is not loaded from the service shown now, where report {1} may be another page.',
        service,
        String(this.id),
      ),
      canRetry: false,
      foreign: service,
    };
  }

  /**
   * Closes the panel now when its report is in `project`; while it is still loading (the
   * project not known yet), closes it as soon as the report arrives in that project or
   * turns out to be gone.
   */
  closeIfProject(project: string): void {
    if (this.#report !== undefined) {
      if (this.#report.project === project) this.dispose();
      return;
    }
    this.#closingProject = project;
  }

  /** Brings the panel to the front and restarts the command → content clock. */
  reveal(): void {
    this.#openedAt = performance.now();
    this.#shownSinceOpen = false;
    this.#firstPaintAt = undefined;
    this.panel.reveal(undefined, false);
  }

  /**
   * Fetches the report and shows it; a refresh that fails keeps the data shown and says so,
   * with Retry. A 404 shows the deleted state. Never rejects.
   */
  async load(): Promise<void> {
    this.#cancelRefreshAfterDraw();
    this.#loading?.abort();
    // A panel opened while no service was set belongs to the first one it loads from.
    this.#serviceUrl ??= this.deps.connection.serviceUrl;
    if (this.foreignService !== undefined) {
      this.onConnectionChanged();
      return;
    }
    const controller = new AbortController();
    this.#loading = controller;
    // Right after a switch the new service's key is still being read: not missing, not known yet.
    await this.deps.connection.ready;
    if (controller.signal.aborted) return;
    const api = this.deps.connection.api;
    if (!api) {
      this.#showError(notConnectedMessage());
      return;
    }
    const hadReport = this.#report !== undefined;
    if (hadReport) {
      this.#refreshing = true;
      this.#postReportState();
    } else this.#setState({ kind: 'loading' });
    try {
      const report = await api.getReport(this.id, controller.signal);
      if (controller.signal.aborted || this.#life.ended || this.foreignService !== undefined) return;
      this.#refreshing = false;
      this.#refreshError = undefined;
      if (this.#closingProject !== undefined && report.project === this.#closingProject) {
        this.dispose();
        return;
      }
      this.#closingProject = undefined;
      this.showReport(report);
    } catch (error) {
      if (controller.signal.aborted || this.#life.ended) return;
      this.#refreshing = false;
      this.#onLoadError(error);
    } finally {
      if (this.#loading === controller) this.#loading = undefined;
    }
  }

  #onLoadError(error: unknown): void {
    if (isApiError(error, 'cancelled')) {
      this.#postReportState();
      return;
    }
    if (isApiError(error, 'notFound')) {
      if (this.#closingProject !== undefined) {
        // Gone with the project that was closed while this panel was loading.
        this.dispose();
        return;
      }
      this.showDeleted();
      // The lists drop its row too (product spec: "no longer exists" and the lists refresh).
      this.deps.errors.gone({ reportId: this.id });
      return;
    }
    this.#log('warn', `could not load the report: ${messageOf(error)}`);
    // The user reads the translated sentence the notifications give, not the log's.
    const { message, actions } = describeError(error);
    // A rejected key needs the one "Set API Key" prompt the error reporter gives.
    if (isApiError(error, 'unauthorized')) this.deps.errors.report(error);
    if (this.#report) {
      // Keep showing the data we have, marked as possibly stale.
      this.#refreshError = message;
      this.#postReportState();
      return;
    }
    this.#showError(message, wayForward(actions));
  }

  /** The error state, with Retry, and `action` beside it where retrying alone would fail the same way. */
  #showError(message: string, action?: vscode.Command): void {
    this.#errorAction = action;
    this.#setState({ kind: 'error', message, canRetry: true, action: action?.title ?? null });
  }

  /** The service says the report no longer exists (a load or a write on it answered 404). */
  showDeleted(): void {
    this.#report = undefined;
    this.#busy = false;
    this.#setState({
      kind: 'deleted',
      id: this.id,
      message: l10n.t('Report {0} no longer exists.', String(this.id)),
    });
  }

  /**
   * Shows this report (fresh data from a load, a write or the caller). A list's summary (the
   * tree's row, without the analysis) fills only an empty panel: it never replaces data.
   */
  showReport(report: Report): void {
    if (isListSummary(report) && (this.#report !== undefined || this.#state.kind !== 'loading')) return;
    this.#report = report;
    // A whole report just from the service (a write's answer): no longer possibly stale.
    if (!isListSummary(report)) this.#refreshError = undefined;
    this.panel.title = reportTitle(report.url, report.id);
    this.#postReportState();
  }

  /**
   * Refreshes the report once the page has drawn it, not now. For a panel that opens with the whole
   * report from a list answer (src/stores/recentReports.ts): the page shows that at once, so
   * nothing waits for the fetch, and a fetch running while the webview starts delays its page.
   */
  refreshOnceShown(): void {
    this.#cancelRefreshAfterDraw();
    this.#refreshAfterDraw = setTimeout(() => this.#refreshIfWaiting(), REFRESH_AFTER_DRAW_FALLBACK_MS);
  }

  #refreshIfWaiting(): void {
    if (this.#refreshAfterDraw === undefined || this.#life.ended) return;
    void this.load();
  }

  #cancelRefreshAfterDraw(): void {
    clearTimeout(this.#refreshAfterDraw);
    this.#refreshAfterDraw = undefined;
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
      previous: this.#previous(),
      ...(isListSummary(this.#report) ? { partial: true } : {}),
      foreign: this.foreignService ?? null,
    });
  }

  /** The analysis before this report's last re-analysis, when the store has one for it (on the panel's own service). */
  #previous(): ReportData | null {
    const service = this.#serviceUrl ?? this.deps.connection.serviceUrl;
    const raw = service === undefined ? undefined : this.deps.analyses.previous(service, this.id);
    if (raw === undefined) return null;
    try {
      const previous = parseReport(raw);
      // A re-analysis keeps a report's URL: another URL is another report that had this id (a service that reuses ids).
      return previous.url === this.#report?.url ? toReportData(previous) : null;
    } catch {
      this.#log('warn', 'ignored a stored previous analysis of an unexpected shape.');
      return null;
    }
  }

  /** The report shown, when loaded (what the extension has of it). */
  get report(): Report | undefined {
    return this.#report;
  }

  /** What the page was last given to show. */
  get state(): PanelState {
    return this.#state;
  }

  #setState(state: PanelState): void {
    this.#state = state;
    this.#postState();
  }

  /** What the context key says now: set only when it changes (every panel's state passes here). */
  static #actionsOffShown: boolean | undefined;

  /** While the panel is the active editor, its title bar offers its actions only when it can act. */
  #showTitleActions(): void {
    if (!this.panel.active) return;
    const actionsOff = this.#state.kind === 'deleted' || this.foreignService !== undefined;
    if (actionsOff === ReportPanel.#actionsOffShown) return;
    ReportPanel.#actionsOffShown = actionsOff;
    void vscode.commands.executeCommand('setContext', ContextKey.reportActionsOff, actionsOff);
  }

  #postState(): void {
    if (this.#life.ended) return;
    this.#showTitleActions();
    this.#seq += 1;
    this.#pending.add(this.#seq);
    if (this.#state.kind === 'report' && this.#state.partial) this.#partialSeqs.add(this.#seq);
    this.#lastState = { type: 'state', reportId: this.id, serviceUrl: this.#serviceUrl, state: this.#state, seq: this.#seq };
    this.#post(this.#lastState);
  }

  #setHtml(html: string): void {
    if (!this.#life.ended) this.panel.webview.html = html;
  }

  #postInit(): void {
    this.#post({ type: 'init', bundle: vscode.l10n.bundle ?? {}, locale: vscode.env.language });
  }

  #post(message: HostMessage): void {
    // A hidden page cannot receive; it sends `ready` again when shown and is drawn then.
    let sent: Thenable<boolean>;
    try {
      sent = this.panel.webview.postMessage(message);
    } catch (error) {
      sent = Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    sent.then(undefined, (error: unknown) => {
      if (this.#life.ended) return;
      this.#log('warn', `could not post to the page: ${String(error)}`);
      // A report that cannot be sent (the page's view model cannot be built from it) must
      // not leave the panel on "loading": the error state, with Retry, is small and safe.
      if (message.type === 'state' && message.state.kind === 'report' && this.#state === message.state) {
        this.#showError(l10n.t('The report arrived but could not be shown.'));
      }
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
        this.#postInit();
        if (this.#lastState) this.#post(this.#lastState);
        else this.#postState();
        return;
      case 'retry':
        void this.load();
        return;
      case 'switchBack':
        if (this.#serviceUrl !== undefined) this.#runCommand(Command.switchService, { switchBack: this.#serviceUrl });
        return;
      case 'close':
        this.dispose();
        return;
      case 'errorAction':
        // Only the command the error shown named: the page cannot choose one.
        if (this.#state.kind === 'error' && typeof this.#state.action === 'string' && this.#errorAction)
          void runAction(this.#errorAction);
        return;
      case 'openUrl':
        this.#openUrl(message.url);
        return;
      case 'command':
        // The toolbar acts on the current service: not on a report from another one, whose
        // URL alone (shown in the page, no request) may be copied.
        if (this.foreignService !== undefined && !runsOnOtherService(message.name)) return;
        // With the report shown, so Copy URL and the confirmations need no request.
        this.#runCommand(PANEL_COMMAND_IDS[message.name], this.#report ?? { id: this.id });
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

  /**
   * Opens only the report's own URL or the service's page of the report, and only when it
   * is an openable http(s) URL; anything else the page sends (another host, javascript:,
   * command:, file:) is refused.
   */
  #openUrl(url: string): void {
    const baseUrl = this.deps.connection.serviceUrl;
    const template = vscode.workspace.getConfiguration().get<string>(Setting.reportPageUrl) || DEFAULT_REPORT_PAGE_URL;
    const servicePage = baseUrl === undefined ? undefined : reportPageUrl(template, baseUrl, this.id);
    const safe = pinnedUrl(url, [this.#report?.url, servicePage]);
    if (safe === undefined) {
      const scheme = /^\s*([A-Za-z][A-Za-z0-9+.-]*):/.exec(url)?.[1] ?? 'none';
      this.#log('warn', `refused to open a URL with scheme "${scheme.slice(0, 20)}" (only http and https open).`);
      const now = performance.now();
      if (now - this.#refusedUrlWarnedAt >= REFUSED_URL_WARNING_GAP_MS) {
        this.#refusedUrlWarnedAt = now;
        void vscode.window.showWarningMessage(l10n.t('Only http and https addresses can be opened.'));
      }
      return;
    }
    openInBrowser(safe).then(undefined, (error: unknown) => this.#log('warn', `could not open the URL: ${String(error)}`));
  }

  /** Logs `text` as this panel's (`Report panel 42: …`). */
  #log(level: 'info' | 'warn' | 'error', text: string): void {
    this.deps.log[level](`Report panel ${String(this.id)}: ${text}`);
  }

  #runCommand(command: string, arg: unknown): void {
    // The commands report their own failures; this only keeps a rejection from going unhandled.
    vscode.commands.executeCommand(command, arg).then(undefined, (error: unknown) => {
      this.#log('error', `${command} failed: ${messageOf(error)}`);
    });
  }

  #onRendered(kind: PanelStateKind, seq: number): void {
    this.#icon.show();
    if (!this.#pending.has(seq)) return;
    for (const key of this.#pending) if (key <= seq) this.#pending.delete(key);
    if (kind === 'error') this.#log('info', 'shows an error with Retry.');
    const partial = this.#partialSeqs.has(seq);
    for (const key of this.#partialSeqs) if (key <= seq) this.#partialSeqs.delete(key);
    if (kind !== 'report' || this.#shownSinceOpen) return;
    const now = performance.now();
    this.#firstPaintAt ??= now;
    if (partial) return;
    // The panel's one render event: the first draw of the whole report after an open, logged with
    // its time and that of the first paint (the summary, when the tree had it).
    this.#shownSinceOpen = true;
    const ms = Math.round(now - this.#openedAt);
    const firstPaint = Math.round(this.#firstPaintAt - this.#openedAt);
    this.#log('info', `shown ${ms} ms after opening (first paint ${firstPaint} ms).`);
    this.#refreshIfWaiting();
  }

  /** Closes the panel. */
  dispose(): void {
    this.panel.dispose();
  }
}
