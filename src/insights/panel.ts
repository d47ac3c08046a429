/**
 * The host side of the insights panels: one `WebviewPanel` per project (or for all projects)
 * that loads its reports, aggregates them and sends the page the result. The page is
 * untrusted: it may open only reports of the data it was sent.
 */
import * as vscode from 'vscode';
import * as l10n from '@vscode/l10n';
import { isApiError, messageOf } from '../api/errors';
import { describeError } from '../api/messages';
import type { ReportId } from '../api/types';
import type { Log } from '../log';
import { renderShell } from '../panels/html';
import { formatAbsolute } from '../text/dates';
import { escapeMarkdown, singleLine } from '../text/text';
import { countText } from '../ui/notify';
import { runAction, wayForward } from '../ui/errorReporter';
import { createPagePanel, pageShell, keepWhileOpen, notConnectedMessage, pageWebviewOptions, PanelLifetime, TabIcon } from '../panels/lifetime';
import type { ConnectionApi, ErrorReporter, InsightsPanelsApi, ReportPanelsApi } from '../parts';
import { aggregate, summaryMarkdown, type InsightsModel } from '../presentation/insightsAggregate';
import { emptyProgress, insightsLimit, loadReports, ProjectGoneError, type LoadProgress } from './load';
import {
  parseInsightsPageMessage,
  parseSavedInsightsState,
  type InsightsHostMessage,
  type InsightsPhase,
  type InsightsState,
} from '../protocols/insightsProtocol';
import { insightsStrings, insightsTitle, summaryWords } from './strings';
import { Setting, TestHook, WebviewType } from '../ids';

export interface InsightsDeps {
  readonly context: vscode.ExtensionContext;
  readonly log: Log;
  readonly connection: ConnectionApi;
  readonly errors: ErrorReporter;
  readonly panels: ReportPanelsApi;
}

function key(project: string | null): string {
  return project === null ? '*' : `project:${project}`;
}

/** What the figures show: a result, when it was made, and what it covers. */
interface Shown {
  readonly model: InsightsModel;
  /** When it was computed (epoch ms). */
  readonly atMs: number;
  /** The service its reports came from: their ids are not opened on another service. */
  readonly serviceUrl: string | undefined;
  /** The connection (count of changes) its load ran on. */
  readonly connection: number;
  /** The server's total when it was loaded, and whether the cap cut the data. */
  readonly total: number | undefined;
  readonly capped: boolean;
  /** Every report up to the cap was loaded: not cut short by a failure or a cancel. */
  readonly complete: boolean;
}

/**
 * How old the figures must be for Show Insights… on their open panel to load them again: a
 * minute, the service's rate-limit window (60 requests; a load at the 20,000 cap takes 200).
 */
const RELOAD_ON_REVEAL_MS = 60_000;

/** One project's insights panel: loads, aggregates, posts; acts on the page's validated requests. */
class InsightsPanel implements vscode.Disposable {
  #progress: LoadProgress = emptyProgress();
  /** The cap of the load running or last run (`Setting.insightsLimit`). */
  #limit = insightsLimit(undefined);
  /** Seconds the load waits because the service rate limits, or null. */
  #rateLimitWaitS: number | null = null;
  /**
   * The result shown: the last complete one, which a Refresh that fails or is cancelled
   * keeps; a partial one only when there was no complete one on this connection.
   */
  #shown: Shown | undefined;
  /** The service the load running or last run asks: their ids are not opened on another service. */
  #dataServiceUrl: string | undefined;
  /**
   * Connection changes seen, and how many there were when the loaded reports' load began:
   * Retry continues only on the same connection, as a new key may be another account.
   */
  #connectionChanges = 0;
  #dataConnection = 0;
  #state: InsightsState;
  /** The way forward the last failure offers beside Retry (`errorAction` of the state). */
  #errorAction: vscode.Command | undefined;
  /** The `modelAt` of the model the page last received: progress messages do not send it again. */
  #pageModelAt: number | null = null;
  #loading: AbortController | undefined;
  #pageReady = false;
  #seq = 0;
  #openedAt = performance.now();
  #shownSinceOpen = false;
  /** The last state posted to the page (integration tests read it through the test hook). */
  lastPosted: InsightsState | undefined;
  readonly #life: PanelLifetime;
  /** The tab's icon, given once the page has drawn. */
  readonly #icon: TabIcon;
  /** Fires once, when the panel closes (by the user or by `dispose`). */
  readonly onDidDispose: vscode.Event<void>;

  constructor(
    private readonly deps: InsightsDeps,
    readonly panel: vscode.WebviewPanel,
    readonly project: string | null,
  ) {
    this.#life = new PanelLifetime(panel, () => this.#loading?.abort());
    this.onDidDispose = this.#life.onDidEnd;
    this.#state = this.#stateOf('loading');
    panel.webview.options = pageWebviewOptions(deps.context);
    this.#icon = new TabIcon(panel, this.#life, deps.context, 'insights');
    panel.title = insightsTitle(project);
    const webview = panel.webview;
    webview.html = renderShell(
      pageShell(webview, deps.context, 'insights', {
        title: insightsTitle(project),
        noscript: l10n.t('This panel needs scripts enabled to show the insights.'),
      }),
    );
    this.#life.own(
      webview.onDidReceiveMessage((message: unknown) => this.#onMessage(message)),
      // A service switched while loading: what comes next would mix two services' data.
      deps.connection.onDidChange(() => this.#onConnectionChange()),
      // Hidden, the page is gone (no retained context): the next one gets the whole model.
      panel.onDidChangeViewState(() => {
        if (!panel.visible) this.#pageModelAt = null;
      }),
    );
  }

  /**
   * Show Insights… on the open panel: brought forward, and loaded again when its figures are
   * another key's or service's or {@link RELOAD_ON_REVEAL_MS} old; not while a load runs, nor
   * over a failed or cancelled one, whose Retry goes on from where it stopped.
   */
  reveal(): void {
    this.#openedAt = performance.now();
    this.#shownSinceOpen = false;
    this.panel.reveal(undefined, false);
    const shown = this.#shown;
    if (this.#loading !== undefined || shown === undefined) return;
    const otherConnection = shown.connection !== this.#connectionChanges;
    if (otherConnection || (this.#state.phase === 'ready' && Date.now() - shown.atMs >= RELOAD_ON_REVEAL_MS))
      void this.load(true);
  }

  /** Makes the figures shown `ms` older (tests of {@link reveal}). */
  backdate(ms: number): void {
    if (this.#shown) this.#shown = { ...this.#shown, atMs: this.#shown.atMs - ms };
  }

  /**
   * Loads from scratch (`fresh`) or continues where a failed load stopped. Shows progress,
   * then the result; a failure shows the error with Retry and keeps what was loaded. Never rejects.
   */
  async load(fresh = true): Promise<void> {
    this.#loading?.abort();
    const controller = new AbortController();
    this.#loading = controller;
    /** Whether this load no longer counts: a newer one or a cancel took over, or the panel closed. */
    const stale = (): boolean => controller.signal.aborted || this.#life.ended;
    // Right after a switch the new service's key is still being read: not missing, not known yet.
    await this.deps.connection.ready;
    if (stale()) return;
    // Continuing a load on another service or account would mix their reports.
    if (fresh || this.#dataConnection !== this.#connectionChanges) {
      this.#progress = emptyProgress();
      this.#dataServiceUrl = this.deps.connection.serviceUrl;
      this.#dataConnection = this.#connectionChanges;
    }
    // Another service's or account's figures do not stay on screen while this one's load
    // (nor under its error, when it cannot start).
    if (this.#shown !== undefined && this.#shown.connection !== this.#dataConnection) this.#shown = undefined;
    const api = this.deps.connection.api;
    if (!api) {
      this.#fail(notConnectedMessage());
      return;
    }
    const limit = insightsLimit(vscode.workspace.getConfiguration().get<unknown>(Setting.insightsLimit));
    this.#limit = limit;
    this.#rateLimitWaitS = null;
    const progress = this.#progress;
    this.#setState(this.#stateOf('loading'));
    try {
      await loadReports(api, progress, {
        project: this.project,
        limit,
        signal: controller.signal,
        onPage: () => {
          if (!stale()) this.#setState(this.#stateOf('loading'));
        },
        onWait: (seconds) => {
          if (stale()) return;
          this.#rateLimitWaitS = seconds;
          this.#setState(this.#stateOf('loading'));
        },
      });
      if (stale()) return;
      this.#show(true);
      this.#log('info', `aggregated ${progress.items.length} reports${progress.capped ? ' (capped)' : ''}.`);
      this.#setState(this.#stateOf('ready'));
    } catch (error) {
      if (stale() || isApiError(error, 'cancelled')) return;
      if (error instanceof ProjectGoneError) {
        this.#fail(l10n.t('The project {0} was deleted while its reports were loading.', singleLine(error.project)));
        return;
      }
      this.#log('warn', `could not load the reports: ${messageOf(error)}`);
      if (isApiError(error, 'unauthorized')) this.deps.errors.report(error);
      // What the user reads: the same words, in the display language, as a notification would say.
      const { message, actions } = describeError(error);
      this.#fail(message, wayForward(actions));
    } finally {
      if (this.#loading === controller) {
        this.#loading = undefined;
        this.#rateLimitWaitS = null;
      }
    }
  }

  /** Shows the reports loaded, unless they are partial and a complete result of this connection is shown. */
  #show(complete: boolean): void {
    const kept = this.#showsCompleteOf(this.#dataConnection);
    if (!complete && (kept || this.#progress.items.length === 0)) return;
    this.#shown = {
      model: aggregate(this.#progress.items, this.project),
      atMs: Date.now(),
      serviceUrl: this.#dataServiceUrl,
      connection: this.#dataConnection,
      total: this.#progress.total,
      capped: this.#progress.capped,
      complete,
    };
  }

  /** Whether the figures shown are a complete result loaded on `connection` (a count of changes). */
  #showsCompleteOf(connection: number): boolean {
    return this.#shown?.complete === true && this.#shown.connection === connection;
  }

  /**
   * Shows the error state with what was loaded so far (or the figures a Refresh kept), Retry,
   * and `action` beside it where retrying alone would fail the same way.
   */
  #fail(message: string, action?: vscode.Command): void {
    this.#errorAction = action;
    // Only figures of the connection in use now were being refreshed.
    const refreshing = this.#loading !== undefined && this.#showsCompleteOf(this.#connectionChanges);
    this.#loading?.abort();
    this.#loading = undefined;
    this.#show(false);
    const notice = refreshing ? l10n.t('The figures below are those from before this refresh.') : null;
    this.#setState({ ...this.#stateOf('error'), error: message, errorAction: action?.title ?? null, notice });
  }

  #cancel(): void {
    if (!this.#loading) return;
    this.#loading.abort();
    this.#loading = undefined;
    this.#log('info', `loading cancelled after ${this.#progress.items.length} reports.`);
    const refreshing = this.#showsCompleteOf(this.#dataConnection);
    this.#show(false);
    // A Refresh cancelled: the figures it was refreshing stay, as they were, and the banner says
    // so. Cancelled before the first page: there are no figures to speak of.
    const notice = refreshing
      ? l10n.t('Refresh cancelled: the figures below are those from before it.')
      : this.#shown === undefined
        ? l10n.t('Loading was cancelled before any report arrived. Refresh loads the reports.')
        : null;
    const state = { ...this.#stateOf('cancelled'), canContinue: this.#progress.items.length > 0 && !this.#progress.done };
    this.#setState(notice === null ? state : { ...state, progressText: null, notice });
  }

  #onConnectionChange(): void {
    this.#connectionChanges++;
    if (this.#loading) {
      this.#fail(
        this.#fromOtherService()
          ? l10n.t('The service changed while the reports were loading. Refresh to load them from the current service.')
          : this.deps.connection.state === 'noKey'
            ? l10n.t('The API key was removed while the reports were loading.')
            : l10n.t('The API key changed while the reports were loading. Refresh to load them with the current key.'),
      );
      return;
    }
    if (this.#shown === undefined) return;
    // Figures of another service or key stay in view under a notice (nothing failed) that
    // says why to Refresh.
    this.#setState({
      ...this.#stateOf('cancelled'),
      progressText: null,
      notice: this.#staleNotice(),
    });
  }

  /** Why the figures shown are not the current connection's: the page's notice, and a refused link's message. */
  #staleNotice(): string {
    return this.#shown?.serviceUrl !== this.deps.connection.serviceUrl
      ? l10n.t("These insights are from another service than the current one. Refresh to load the current service's reports.")
      : l10n.t('The connection changed since these insights were loaded (the API key, or a switch of service). Refresh to load them again.');
  }

  /** Whether the reports shown came from another service than the current one. */
  #fromOtherService(): boolean {
    return this.#dataServiceUrl !== this.deps.connection.serviceUrl;
  }

  /** "Showing the newest 2,000 of 5,310 reports" when the cap cut the figures shown, else null. */
  #capText(): string | null {
    const shown = this.#shown;
    if (shown?.capped !== true) return null;
    return shown.total !== undefined
      ? l10n.t('Showing the newest {0} of {1} reports', countText(shown.model.total), countText(shown.total))
      : l10n.t('Showing the newest {0} reports', countText(shown.model.total));
  }

  #stateOf(phase: InsightsPhase): InsightsState {
    const locale = vscode.env.language;
    const progress = this.#progress;
    const loaded = progress.items.length;
    const total = progress.total ?? null;
    // What this load will fetch: the service's total, or the cap when that is less.
    const target = total === null ? null : Math.min(total, this.#limit);
    const showProgress = phase !== 'ready' && (phase !== 'loading' || loaded > 0 || total !== null);
    const counted = !showProgress
      ? null
      : total === null
        ? l10n.t('Loaded {0} reports', countText(loaded))
        : total > this.#limit
          ? l10n.t('Loaded {0} of {1} reports (the newest {1} of {2})', countText(loaded), countText(this.#limit), countText(total))
          : l10n.t('Loaded {0} of {1} reports', countText(loaded), countText(total));
    const waiting = phase === 'loading' ? this.#rateLimitWaitS : null;
    const progressText =
      waiting === null ? counted : l10n.t('{0} (rate limited: waiting {1} s)', counted ?? l10n.t('Loading reports…'), waiting);
    const shown = this.#shown;
    const capText = this.#capText();
    return {
      phase,
      project: this.project,
      model: shown?.model ?? null,
      progressText,
      loaded,
      total: target,
      capText,
      asOf: shown === undefined ? null : l10n.t('As of {0}', formatAbsolute(shown.atMs, locale) ?? ''),
      modelAt: shown?.atMs ?? null,
      error: null,
      errorAction: null,
      notice: null,
      canContinue: false,
    };
  }

  #setState(state: InsightsState): void {
    this.#state = state;
    this.#postState();
  }

  #postState(): void {
    if (!this.#pageReady || this.#life.ended) return;
    this.#seq += 1;
    this.lastPosted = this.#state;
    // The page keeps the model it has: progress messages do not send it again at every page.
    const state = this.#state;
    const kept = state.model !== null && state.modelAt === this.#pageModelAt;
    this.#pageModelAt = state.modelAt;
    this.#post({ type: 'state', state: kept ? { ...state, model: null, modelKept: true } : state, seq: this.#seq });
  }

  #post(message: InsightsHostMessage): void {
    this.panel.webview.postMessage(message).then(undefined, (error: unknown) => {
      if (!this.#life.ended) this.#log('warn', `could not post to the page: ${String(error)}`);
    });
  }

  /** A message as from the page (the test hook's `receive`). */
  receive(raw: unknown): void {
    this.#onMessage(raw);
  }

  #onMessage(raw: unknown): void {
    const message = parseInsightsPageMessage(raw);
    if (!message) {
      this.#log('warn', 'ignored a malformed message from the page.');
      return;
    }
    switch (message.type) {
      case 'ready':
        // A new page (the panel's first, or after it was hidden): it has no model yet.
        this.#pageReady = true;
        this.#pageModelAt = null;
        this.#post({ type: 'init', strings: insightsStrings(), locale: vscode.env.language });
        this.#postState();
        return;
      case 'refresh':
        void this.load(true);
        return;
      case 'retry':
        // Continues at the page that failed: what was loaded stays.
        void this.load(this.#progress.done);
        return;
      case 'cancel':
        this.#cancel();
        return;
      case 'copySummary':
        this.#copySummary();
        return;
      case 'errorAction': {
        // Only the command the last failure named: the page cannot choose one.
        if (this.#state.phase === 'error' && this.#state.errorAction !== null && this.#errorAction)
          void runAction(this.#errorAction);
        return;
      }
      case 'openReport':
        this.#openReport(message.id);
        return;
      case 'rendered':
        this.#icon.show();
        if (message.phase === 'ready' && !this.#shownSinceOpen && message.seq === this.#seq) {
          this.#shownSinceOpen = true;
          this.#log('info', `shown ${Math.round(performance.now() - this.#openedAt)} ms after opening.`);
        }
        return;
    }
  }

  /** Opens a report's panel, only for a report of the data this page was sent. */
  #openReport(id: ReportId): void {
    // Not with another service's or key's reports: there the same id is another report, or none.
    const shown = this.#shown;
    if (shown?.serviceUrl !== this.deps.connection.serviceUrl || shown?.connection !== this.#connectionChanges) {
      this.#log('warn', 'refused to open a report loaded from another service or with another key.');
      // The link looked live: say why it did nothing (the page's notice, as a message).
      void vscode.window.showInformationMessage(this.#staleNotice());
      return;
    }
    const known = shown?.model.reports.find((r) => r.id === id);
    if (!known) {
      this.#log('warn', 'refused to open a report that is not in the insights data.');
      return;
    }
    this.deps.panels
      .open(known.id)
      .then(undefined, (error: unknown) => this.#log('error', `could not open a report: ${String(error)}`));
  }

  /**
   * Copy Summary as Markdown: the figures shown, saying when the cap cut them and when they
   * cover only the reports loaded before a failure or a cancel.
   */
  #copySummary(): void {
    const shown = this.#shown;
    if (!shown) return;
    const locale = vscode.env.language;
    // In UTC, saying so: the summary is read in other time zones. (dateStyle and timeStyle
    // cannot be combined with timeZoneName: Intl throws.)
    const asOf = new Intl.DateTimeFormat(locale, {
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      timeZone: 'UTC',
      timeZoneName: 'short',
    }).format(shown.atMs);
    // The service the figures came from, where the reader could take them for another's:
    // several services are known, or they are not the current service's.
    const { connection } = this.deps;
    const named = shown.serviceUrl !== connection.serviceUrl || connection.distinguishingLabel !== undefined;
    const notes = [
      named && shown.serviceUrl !== undefined
        ? l10n.t('From {0}.', escapeMarkdown(connection.labelOf(shown.serviceUrl)))
        : null,
      this.#capText(),
      shown.complete
        ? null
        : shown.total !== undefined
          ? l10n.t('Partial: loading stopped after {0} of {1} reports; the numbers cover only those.', countText(shown.model.total), countText(shown.total))
          : l10n.t('Partial: loading stopped after {0} reports; the numbers cover only those.', countText(shown.model.total)),
    ].filter((note): note is string => note !== null);
    const markdown = summaryMarkdown(shown.model, asOf, summaryWords(), locale, notes);
    vscode.env.clipboard.writeText(markdown).then(
      () => {
        const copied = l10n.t('Insights summary copied as Markdown.');
        vscode.window.setStatusBarMessage(copied, 3000);
        this.#post({ type: 'copied', text: copied });
      },
      (error: unknown) => this.#log('error', `could not copy the summary: ${String(error)}`),
    );
  }

  #log(level: 'info' | 'warn' | 'error', text: string): void {
    this.deps.log[level](`Insights ${this.project === null ? '(all projects)' : 'panel'}: ${text}`);
  }

  dispose(): void {
    this.panel.dispose();
  }
}

/** A symbol integration tests read the panels through (set only in the extension's test mode). */

/** What the test hook gives: the last state posted to the page of a project's panel, and that panel. */
export interface InsightsTestHook {
  lastPosted(project: string | null): InsightsState | undefined;
  webviewPanel(project: string | null): vscode.WebviewPanel | undefined;
  /** Hands the panel a message as if its page had sent it (validated the same way). */
  receive(project: string | null, message: unknown): void;
  /** Makes the panel's figures `ms` older, as if loaded that long ago. */
  backdate(project: string | null, ms: number): void;
}

/** Every open insights panel, one per project; restores them after a window reload. */
export class InsightsPanels implements InsightsPanelsApi, vscode.Disposable {
  readonly #panels = new Map<string, InsightsPanel>();
  readonly #disposables: vscode.Disposable[] = [];

  constructor(private readonly deps: InsightsDeps) {
    if (deps.context.extensionMode === vscode.ExtensionMode.Test) {
      const hook: Record<symbol, unknown> = globalThis;
      const panel = (project: string | null): InsightsPanel | undefined => this.#panels.get(key(project));
      const value: InsightsTestHook = {
        lastPosted: (project) => panel(project)?.lastPosted,
        webviewPanel: (project) => panel(project)?.panel,
        receive: (project, message) => panel(project)?.receive(message),
        backdate: (project, ms) => panel(project)?.backdate(ms),
      };
      Object.defineProperty(hook, TestHook.insights, { configurable: true, value });
      this.#disposables.push({ dispose: () => delete hook[TestHook.insights] });
    }
  }

  async open(project: string | null): Promise<void> {
    const existing = this.#panels.get(key(project));
    if (existing) {
      existing.reveal();
      return;
    }
    const webviewPanel = createPagePanel(this.deps.context, WebviewType.insights, insightsTitle(project));
    // The command returns once the panel is open; the load (many pages) goes on in it.
    void this.#track(new InsightsPanel(this.deps, webviewPanel, project)).load();
  }

  /** Restores a panel VS Code kept across a reload, from the project its page saved. */
  async revive(webviewPanel: vscode.WebviewPanel, saved: unknown): Promise<void> {
    const state = parseSavedInsightsState(saved);
    if (!state || this.#panels.has(key(state.project))) {
      webviewPanel.dispose();
      return;
    }
    const panel = this.#track(new InsightsPanel(this.deps, webviewPanel, state.project));
    await this.deps.connection.ready;
    await panel.load();
  }

  #track(panel: InsightsPanel): InsightsPanel {
    return keepWhileOpen(this.#panels, key(panel.project), panel);
  }

  dispose(): void {
    for (const panel of [...this.#panels.values()]) panel.dispose();
    for (const d of this.#disposables) d.dispose();
  }
}
