/**
 * The Reports view: a flat, paged list of reports for the current query (search on URL,
 * project, result, sort key × direction), with the query shown in the view's description.
 */
import * as vscode from 'vscode';
import * as l10n from '@vscode/l10n';
import type { Project, Report, ReportId, ReportQuery } from '../api/types';
import type { ReportsViewApi } from '../parts';
import { emptyReportsMessage, mixesHosts } from './format';
import { newReportAction, reportKey, treeItemFor, type EmptyNode, type ReportNode, type ViewNode } from './items';
import { ListNodes } from './listNodes';
import { PagedList, type FetchPage } from './listState';
import {
  clearReportFilters,
  describeReportQuery,
  deserializeReportQuery,
  isReportQueryFiltered,
  sameReportQuery,
  serializeReportQuery,
  toReportQuery,
  withReportFilters,
  type ReportQueryState,
} from './query';
import type { TreeShell } from './shell';
import { toListSummary } from './summary';
import { ViewBase, type ViewDeps } from './viewBase';
import { Command, ContextKey, View, WorkspaceStateKey } from '../ids';

/**
 * Where the query is kept. Workspace state, not global: a workspace is usually about one site,
 * so its filter belongs to it, and two windows on different sites keep their own filters
 * (as VS Code's own views keep their filters per workspace).
 */
const QUERY_KEY = WorkspaceStateKey.reportsQuery;

export class ReportsView extends ViewBase implements ReportsViewApi {
  readonly treeView: vscode.TreeView<ViewNode>;
  readonly #list = new PagedList<Report>(reportKey);
  readonly #nodes = new ListNodes<Report, ReportNode>(
    'reports',
    reportKey,
    (report) => ({ kind: 'report', report }),
    (node, report) => {
      node.report = report;
    },
  );
  #state: ReportQueryState;
  /** Whether the rows loaded hold more than one host, so each row names its own. */
  #mixesHosts = false;
  readonly #queryEmitter = new vscode.EventEmitter<ReportQueryState>();
  /** Fires after the query changed (filters or sort); the Projects view follows the sort. */
  readonly onDidChangeQuery = this.#queryEmitter.event;

  constructor(deps: ViewDeps, shell: TreeShell) {
    super(deps, View.reports);
    this.#state = deserializeReportQuery(deps.context.workspaceState.get(QUERY_KEY));
    // The TreeView itself belongs to activation (src/views/shell.ts); this view answers for it.
    this.treeView = shell.treeView as vscode.TreeView<ViewNode>;
    this.disposables.push(shell.attach(this), this.#queryEmitter, this.#list);
    this.#list.reset(this.#fetcher());
    this.disposables.push(this.#list.onDidChange(() => this.topListChanged(this.#list, l10n.t('Loading reports'))));
    this.showQuery();
    this.showQueryWhenReady();
  }

  get query(): ReportQueryState {
    return this.#state;
  }

  // ---- TreeDataProvider ----

  getTreeItem(node: ViewNode): vscode.TreeItem {
    return treeItemFor(node, {
      busy: (id) => this.isBusy(id),
      search: this.#state.search,
      now: Date.now(),
      showHost: () => this.#mixesHosts,
      hasSource: (report) => this.deps.hasSource(report.report.url),
    });
  }

  protected datedRows(): ViewNode[] {
    return this.#nodes.rendered;
  }

  async getChildren(node?: ViewNode): Promise<ViewNode[]> {
    if (node) return [];
    if (!(await this.isReady())) return [];
    const rows = await this.rowsOf(this.#nodes, this.#list, () => this.#emptyNode());
    // Once per render, not per row: VS Code asks for every row's item after the children.
    this.#mixesHosts = mixesHosts(this.#list.items);
    return rows;
  }

  getParent(): undefined {
    // A flat list: every element is a root.
    return undefined;
  }

  // ---- ReportsViewApi ----

  /** Reloads page 1 (`keepPages`: the pages loaded so far) when the view has loaded; otherwise it loads fresh when next shown. */
  refresh(keepPages = false): Promise<void> {
    return this.reloadList(this.#list, keepPages);
  }

  /** Auto-refresh: the pages loaded so far again, the rows the user paged to kept. */
  async refreshLoaded(): Promise<void> {
    await this.track(this.#list.refreshLoaded());
  }

  async setProjectFilter(project: string | undefined): Promise<void> {
    await this.setQuery(withReportFilters(this.#state, { project }));
  }

  /** Reveals, selects and focuses the report's row; loads page 1 first when nothing is loaded. */
  async reveal(report: Report): Promise<void> {
    if (!(await this.isReady())) return;
    await this.track(this.#list.ensureLoaded());
    const loaded = this.#list.get(reportKey(report));
    if (!loaded) return;
    await this.treeView.reveal(this.#nodes.nodeFor(loaded), { select: true, focus: true });
  }

  setBusy(id: ReportId, busy: boolean): void {
    if (!this.markBusy(id, busy)) return;
    const node = this.#nodes.get(String(id));
    if (node) this.changeEmitter.fire(node);
  }

  update(report: Report): void {
    const summary = toListSummary(report);
    if (!this.#list.replace(summary)) return;
    this.changeEmitter.fire(this.#nodes.nodeFor(summary));
  }

  /** Drops a deleted report's row at once (the refresh after the delete may fail). */
  remove(id: ReportId): void {
    this.#list.remove(String(id));
  }

  listQuery(): ReportQuery {
    const { perPage: _perPage, ...query } = toReportQuery(this.#state, this.perPage());
    return query;
  }

  // ---- Query ----

  async setQuery(next: ReportQueryState): Promise<void> {
    if (sameReportQuery(this.#state, next)) return;
    this.#state = next;
    this.persist(QUERY_KEY, serializeReportQuery(next));
    this.showQuery();
    this.#queryEmitter.fire(next);
    await this.#reload();
  }

  async clearFilters(): Promise<void> {
    await this.setQuery(clearReportFilters(this.#state));
  }

  async loadMore(): Promise<void> {
    await this.track(this.#list.loadMore());
  }

  async retry(): Promise<void> {
    if (this.#list.status === 'error') await this.track(this.#list.retry());
  }

  /**
   * Project names for the filter pick: those containing `search` (all without), the first page by
   * name, searched on the service as the projects are paged there.
   */
  async projectNames(signal?: AbortSignal, search?: string): Promise<string[]> {
    const api = this.deps.connection.api;
    if (!api) return [];
    try {
      const page = await api.listProjects({ search, sortBy: 'project', sort: 'asc', perPage: 100 }, 1, signal);
      return page.items.map((p: Project) => p.name);
    } catch (error) {
      if (!signal?.aborted) this.logFailure('Loading project names for the filter', error);
      return [];
    }
  }

  // ---- internals ----

  protected override onConnectionChanged(): void {
    this.#list.reset(this.#fetcher());
  }

  protected override onPageSizeChanged(): void {
    void this.#reload();
  }

  /** Starts over from page 1 with the current query: now if the view is showing, else when it is next shown. */
  #reload(): Promise<void> {
    return this.restartList(this.#list, this.#fetcher());
  }

  #fetcher(): FetchPage<Report> {
    return this.reportPages(toReportQuery(this.#state, this.perPage()));
  }

  /** The query in the view's description (only while connected: the welcome content has none). */
  protected showQuery(): void {
    // Filtered, the whole query shows above the rows (the message); otherwise the sort in the title.
    const filtered = isReportQueryFiltered(this.#state);
    this.treeView.description = !this.connected || filtered ? undefined : describeReportQuery(this.#state);
    this.showMessage();
    this.setContext(ContextKey.reportsFiltered, this.connected && filtered);
  }

  protected override filterMessage(): string | undefined {
    return isReportQueryFiltered(this.#state) ? describeReportQuery(this.#state) : undefined;
  }

  #emptyNode(): EmptyNode {
    const filtered = isReportQueryFiltered(this.#state);
    return {
      kind: 'empty',
      listKey: 'reports',
      message: emptyReportsMessage(this.#state),
      action: filtered ? { command: Command.clearReportFilters, title: l10n.t('Clear Filters') } : newReportAction(),
    };
  }
}
