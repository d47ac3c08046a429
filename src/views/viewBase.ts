/**
 * What both tree views share: the change event, busy report ids, loading progress in the view,
 * reacting to the connection and the page size setting, storing the query, and what a failed
 * list tells the user.
 */
import * as vscode from 'vscode';
import * as l10n from '@vscode/l10n';
import { isApiError, messageOf } from '../api/errors';
import { describeError } from '../api/messages';
import { holdOffUntil } from '../api/rateLimit';
import type { Page, Report, ReportId, ReportQuery, ReportsApi, PerPage } from '../api/types';
import type { RecentReports } from '../stores/recentReports';
import type { Log } from '../log';
import type { ConnectionApi, ErrorReporter } from '../parts';
import { resolveTooltip, type EmptyNode, type ViewNode } from './items';
import type { ListNodes } from './listNodes';
import type { FetchPage, ListHandle, PagedList } from './listState';
import { toPerPage } from './query';
import { listedPage } from './summary';
import { Setting } from '../ids';
import { singleLine } from '../text/text';

/** What `registerViews` is given by `main.ts`. */
export interface ViewDeps {
  readonly context: vscode.ExtensionContext;
  readonly log: Log;
  readonly connection: ConnectionApi;
  readonly errors: ErrorReporter;
  /** Where the whole reports of list answers go before the view keeps their summaries. */
  readonly recentReports: RecentReports;
  /** Whether a page's URL is under a `pageReports.sources` prefix: its row offers Open Source. */
  readonly hasSource: (pageUrl: string) => boolean;
}

/** Thrown by a list's fetcher when the connection went away between a check and the request. */
export class NotConnectedError extends Error {
  constructor() {
    super(l10n.t('Not connected to a report service.'));
    this.name = 'NotConnectedError';
  }
}

export abstract class ViewBase implements vscode.TreeDataProvider<ViewNode>, vscode.Disposable {
  protected readonly changeEmitter = new vscode.EventEmitter<ViewNode | ViewNode[] | undefined | void>();
  readonly onDidChangeTreeData = this.changeEmitter.event;
  protected readonly disposables: vscode.Disposable[] = [this.changeEmitter];
  readonly #busy = new Set<string>();
  /** Failures already told, so re-renders of the same failed list do not repeat it. */
  readonly #told = new WeakSet<object>();
  /** Loads shown with the view's progress bar and not settled yet. */
  #inFlight = 0;
  /** Until when (epoch ms) the service asked this view's lists to wait (a 429). */
  #rateLimitedUntil = 0;
  /** Why the top list's last refresh failed, while its rows are from the load before. */
  #refreshFailure: string | undefined;

  protected constructor(
    protected readonly deps: ViewDeps,
    protected readonly viewId: string,
  ) {
    this.disposables.push(
      deps.connection.onDidChange(() => {
        // A new server or key: what was loaded belongs to the old one.
        this.#busy.clear();
        this.onConnectionChanged();
        this.showQuery();
        this.changeEmitter.fire();
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(Setting.pageSize)) this.onPageSizeChanged();
      }),
      deps.connection.onDidChangeHealth(() => this.showMessage()),
    );
  }

  /** What the view's message says of its filters (the Reports view's active filter); undefined for none. */
  protected filterMessage(): string | undefined {
    return undefined;
  }

  /** Whether this view says that the service rejected the key (the Projects view: one place says it). */
  protected get saysKeyRejected(): boolean {
    return false;
  }

  /**
   * The view's message above the rows, plain text: the active filter, and what went wrong with
   * the last load (a rejected key in the Projects view only; a failed refresh in each view).
   */
  protected showMessage(): void {
    const rejected = this.connected && this.deps.connection.health.kind === 'rejected';
    const problem = rejected
      ? this.saysKeyRejected
        ? l10n.t('The service rejected the API key. Set another with Set API Key… in the … menu.')
        : undefined
      : this.#refreshFailure;
    const parts = [this.connected ? this.filterMessage() : undefined, problem].filter(
      (p): p is string => p !== undefined,
    );
    this.treeView.message = parts.length === 0 ? undefined : parts.join(' — ');
  }

  abstract getTreeItem(node: ViewNode): vscode.TreeItem;
  /** Shows the query in the view's description and context keys. */
  protected abstract showQuery(): void;
  abstract getChildren(node?: ViewNode): Promise<ViewNode[]>;

  /** The row's tooltip, added when the user hovers it (long lists stay cheap). */
  resolveTreeItem(item: vscode.TreeItem, node: ViewNode): vscode.TreeItem {
    return resolveTooltip(item, node, Date.now());
  }

  protected abstract onConnectionChanged(): void;

  /** Whether the view lists anything (else VS Code shows the welcome content). */
  protected get connected(): boolean {
    return this.deps.connection.state === 'ready';
  }

  /** The rows that show a relative date and may be drawn again on their own ({@link redrawDates}). */
  protected abstract datedRows(): ViewNode[];

  /**
   * Draws the rows with a relative date ("now", "3 minutes ago") again while the view shows,
   * nothing fetched, so that the date ages (`dateRedraw.ts`). The rows themselves, not the
   * tree: VS Code keeps its handles of them, so a row's menu used meanwhile keeps its row.
   */
  redrawDates(): void {
    if (!this.treeView.visible || !this.connected) return;
    const rows = this.datedRows();
    if (rows.length > 0) this.changeEmitter.fire(rows);
  }

  /** Draws every row shown again, nothing fetched: what their menus offer may have changed. */
  redrawRows(): void {
    const rows = this.datedRows();
    if (rows.length > 0) this.changeEmitter.fire(rows);
  }

  /** Shows the query once the connection's first read is done (the subclass is built by then). */
  protected showQueryWhenReady(): void {
    this.deps.connection.ready.then(
      () => this.showQuery(),
      () => undefined,
    );
  }
  protected abstract onPageSizeChanged(): void;

  /** `per_page` from the `Setting.pageSize` setting (10, 25, 50 or 100; else 25). */
  protected perPage(): PerPage {
    return toPerPage(vscode.workspace.getConfiguration().get<unknown>(Setting.pageSize));
  }

  /**
   * Whether the views may load: waits for the connection's read of the key, after start-up or
   * a switch (never at activation, only when a view asks). When not ready the views return no children,
   * so VS Code shows the welcome content for the missing step.
   */
  protected async isReady(): Promise<boolean> {
    await this.deps.connection.ready;
    return this.deps.connection.state === 'ready' && this.deps.connection.api !== undefined;
  }

  protected requireApi(): ReportsApi {
    const api = this.deps.connection.api;
    if (!api) throw new NotConnectedError();
    return api;
  }

  /**
   * Pages of reports for one of the view's lists: the view keeps each report's summary, and
   * the whole reports go to the recent-reports cache, for a panel opened from their rows.
   */
  protected reportPages(query: ReportQuery): FetchPage<Report> {
    return async (page, signal): Promise<Page<Report>> => {
      const serviceUrl = this.deps.connection.serviceUrl;
      const answer = await this.requireApi().listReports(query, page, signal);
      // An answer its list has dropped (a newer load, another connection) fills nothing.
      return listedPage(answer, this.deps.recentReports, signal?.aborted === true ? undefined : serviceUrl);
    };
  }

  /**
   * Refresh of the view's top list: page 1 again (`keepPages`: the pages loaded so far) when it has loaded and the view shows;
   * hidden, it loads fresh when next shown; never loaded, nothing to do.
   */
  protected async reloadList(
    list: ListHandle & { reset(): void; refresh(keepPages: boolean): Promise<void> },
    keepPages = false,
  ): Promise<void> {
    if (list.status === 'idle') return;
    if (!this.treeView.visible) {
      list.reset();
      return;
    }
    await this.track(list.refresh(keepPages));
  }

  /**
   * The rows of `list` as `nodes` renders them. While its first page is not in, waits for it,
   * so the view shows its progress bar, not a blank.
   */
  protected async rowsOf<T, N extends ViewNode>(
    nodes: ListNodes<T, N>,
    list: PagedList<T>,
    empty: () => EmptyNode,
  ): Promise<ViewNode[]> {
    const rows = nodes.render(list, empty);
    if (rows !== undefined) return rows;
    await this.track(list.ensureLoaded());
    return nodes.render(list, empty) ?? [];
  }

  /** Starts `list` over with `fetcher` (a new query): now if the view shows it, else when it is next shown. */
  protected async restartList<T>(list: PagedList<T>, fetcher: FetchPage<T>): Promise<void> {
    if (this.treeView.visible && list.status !== 'idle') await this.track(list.load(fetcher));
    else list.reset(fetcher);
  }

  /** The reports whose rows are selected (a keybinding passes no item). */
  selectedReports(): Report[] {
    return this.treeView.selection.flatMap((node) => (node.kind === 'report' ? [node.report] : []));
  }

  /** Shows the view's progress bar while a load runs. */
  protected track(load: Promise<void>): Promise<void> {
    this.#inFlight += 1;
    const settled = load.finally(() => (this.#inFlight -= 1));
    void vscode.window.withProgress({ location: { viewId: this.viewId } }, () => settled);
    return settled;
  }

  abstract readonly treeView: vscode.TreeView<ViewNode>;

  /**
   * Whether a refresh may start now (auto-refresh): nothing in flight, and no rate limit of
   * the service still running.
   */
  get idle(): boolean {
    return this.#inFlight === 0 && Date.now() >= this.#rateLimitedUntil;
  }

  protected isBusy(id: ReportId): boolean {
    return this.#busy.has(String(id));
  }

  /** Records a busy state; returns whether it changed. */
  protected markBusy(id: ReportId, busy: boolean): boolean {
    const key = String(id);
    if (this.#busy.has(key) === busy) return false;
    if (busy) this.#busy.add(key);
    else this.#busy.delete(key);
    return true;
  }

  protected setContext(key: string, value: unknown): void {
    void vscode.commands.executeCommand('setContext', key, value);
  }

  /** Stores a query; a storage failure is logged, never shown (the view still works). */
  protected persist(key: string, value: unknown): void {
    this.deps.context.workspaceState.update(key, value).then(undefined, (error: unknown) => {
      this.deps.log.warn(`Could not store the view's query: ${messageOf(error)}`);
    });
  }

  /**
   * After a list changed: re-render (the whole view, or one project's children), and when it
   * failed, tell once, as `action` failing ("Loading reports", in the display language). The error row in the list is the message with its Retry; a rejected key
   * also goes to the error reporter, which offers Set API Key (one prompt for a burst).
   */
  protected listChanged(list: ListHandle, action: string, node?: ViewNode): void {
    this.changeEmitter.fire(node);
    const error = list.status === 'error' ? list.error : undefined;
    if (typeof error !== 'object' || error === null || this.#told.has(error)) return;
    this.#told.add(error);
    if (isApiError(error, 'rateLimited')) {
      this.#rateLimitedUntil = holdOffUntil(error);
    }
    const described = describeError(error);
    if (described.actions.includes('setApiKey')) this.deps.errors.report(error, { action });
    else this.logFailure(action, error);
  }

  /**
   * {@link listChanged} for the view's own top list. A failed refresh keeps the rows of the
   * last load, its error row after them, out of sight below a long list: the view's message
   * says so at the top (a rejected key only in the Projects view, {@link showMessage}).
   */
  protected topListChanged(list: ListHandle, action: string): void {
    this.#refreshFailure =
      list.refreshFailed && !isApiError(list.error, 'unauthorized')
        ? l10n.t(
            'Could not refresh: {0} The rows are from the last load.',
            singleLine(describeError(list.error).message),
          )
        : undefined;
    this.showMessage();
    this.listChanged(list, action);
  }

  /** One log line: the user's sentence, plus the request for API errors or the error text for bugs. */
  protected logFailure(action: string, error: unknown): void {
    let detail: string;
    if (isApiError(error))
      detail = `${error.kind}${error.status === undefined ? '' : ` ${error.status}`}, ${error.method} ${error.path}`;
    else detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    const message = `${action} failed (${detail}): ${describeError(error).message}`;
    this.deps.log.warn(message.replace(/\s+/g, ' '));
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
