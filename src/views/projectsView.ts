/**
 * The Projects view: projects (server-side search and sort), each expanding to its reports,
 * sorted as the Reports view sorts, paged with their own Load more.
 */
import * as vscode from 'vscode';
import * as l10n from '@vscode/l10n';
import type { Project, Report, ReportId } from '../api/types';
import type { ProjectsViewApi } from '../parts';
import { emptyProjectsMessage, projectLabel, reportHost } from './format';
import {
  projectListKey,
  newReportAction,
  projectOfListKey,
  reportKey,
  treeItemFor,
  type EmptyNode,
  type ProjectNode,
  type ReportNode,
  type ViewNode,
} from './items';
import { ListNodes } from './listNodes';
import { PagedList, type FetchPage, type ListHandle } from './listState';
import {
  describeProjectQuery,
  deserializeProjectQuery,
  isProjectQuerySearching,
  sameProjectQuery,
  serializeProjectQuery,
  toProjectQuery,
  toProjectReportsQuery,
  withProjectSearch,
  type ProjectQueryState,
  type ReportQueryState,
} from './query';
import type { ReportsView } from './reportsView';
import type { TreeShell } from './shell';
import { toListSummary } from './summary';
import { ViewBase, type ViewDeps } from './viewBase';
import { Command, ContextKey, View, WorkspaceStateKey } from '../ids';

/** Workspace state, like the Reports view's query (see there for why). */
const QUERY_KEY = WorkspaceStateKey.projectsQuery;

/** One expanded project's reports. */
interface ProjectChildren {
  readonly list: PagedList<Report>;
  readonly nodes: ListNodes<Report, ReportNode>;
  readonly subscription: { dispose(): void };
}

const projectKey = (project: Project): string => project.name;

export class ProjectsView extends ViewBase implements ProjectsViewApi {
  readonly treeView: vscode.TreeView<ViewNode>;
  readonly #list = new PagedList<Project>(projectKey);
  readonly #nodes = new ListNodes<Project, ProjectNode>(
    'projects',
    projectKey,
    (project) => ({ kind: 'project', project }),
    (node, project) => {
      node.project = project;
    },
  );
  /** Reports of the projects that were expanded, by project name. */
  readonly #children = new Map<string, ProjectChildren>();
  /** Projects the user collapsed again (their lists stay, but auto-refresh leaves them). */
  readonly #collapsed = new Set<string>();
  #state: ProjectQueryState;

  constructor(
    deps: ViewDeps,
    private readonly reportsView: ReportsView,
    shell: TreeShell,
  ) {
    super(deps, View.projects);
    this.#state = deserializeProjectQuery(deps.context.workspaceState.get(QUERY_KEY));
    // The TreeView itself belongs to activation (src/views/shell.ts); this view answers for it.
    this.treeView = shell.treeView as vscode.TreeView<ViewNode>;
    this.disposables.push(shell.attach(this), this.#list);
    this.#list.reset(this.#fetcher());
    // Expanded projects list their reports in the Reports view's sort, not its filters: a sort
    // changed reloads them, a filter changed leaves their pages, selection and scroll.
    const sortOf = (query: ReportQueryState): string => `${query.sortBy} ${query.sort}`;
    let childSort = sortOf(reportsView.query);
    this.disposables.push(
      this.#list.onDidChange(() => this.topListChanged(this.#list, l10n.t('Loading projects'))),
      reportsView.onDidChangeQuery((query) => {
        if (sortOf(query) === childSort) return;
        childSort = sortOf(query);
        this.#resetChildren();
      }),
      // Removing the only other service takes the service's label out of the description.
      deps.connection.onDidChangeServices(() => this.showQuery()),
      { dispose: () => this.#dropChildren() },
      this.treeView.onDidCollapseElement(({ element }) => {
        if (element.kind === 'project') this.#collapsed.add(element.project.name);
      }),
      this.treeView.onDidExpandElement(({ element }) => {
        if (element.kind === 'project') this.#collapsed.delete(element.project.name);
      }),
    );
    this.showQuery();
    this.showQueryWhenReady();
  }

  get query(): ProjectQueryState {
    return this.#state;
  }

  // ---- TreeDataProvider ----

  getTreeItem(node: ViewNode): vscode.TreeItem {
    return treeItemFor(node, {
      busy: (id) => this.isBusy(id),
      search: node.kind === 'project' ? this.#state.search : undefined,
      now: Date.now(),
      // Under its project a row's host only repeats the project's name; a report the service filed elsewhere says where it is.
      showHost: (report) =>
        report.parentProject !== undefined && reportHost(report.report) !== projectLabel(report.parentProject),
      hasSource: (report) => this.deps.hasSource(report.report.url),
    });
  }

  async getChildren(node?: ViewNode): Promise<ViewNode[]> {
    if (!(await this.isReady())) return [];
    if (node === undefined) return this.#rootChildren();
    if (node.kind === 'project') return this.#projectChildren(node.project.name);
    return [];
  }

  getParent(node: ViewNode): ViewNode | undefined {
    const project =
      node.kind === 'report'
        ? node.parentProject
        : node.kind === 'project'
          ? undefined
          : projectOfListKey(node.listKey);
    return project === undefined ? undefined : this.#nodes.get(project);
  }

  // ---- ProjectsViewApi ----

  /**
   * Reloads the projects from page 1 (VS Code keeps expansion); expanded projects load their
   * reports again from page 1 when VS Code asks for them. With `keepPages` (after a write), the
   * projects and each expanded project's reports reload the pages loaded so far instead.
   */
  async refresh(keepPages = false): Promise<void> {
    const kept = keepPages && this.treeView.visible ? this.#expandedLists() : [];
    for (const [name, child] of this.#children) {
      if (!kept.includes(child.list)) child.list.reset(this.#childFetcher(name));
    }
    await this.reloadList(this.#list, keepPages);
    // One list after another (the service's rate limit is shared); a project deleted meanwhile has no list left to load.
    for (const list of kept) await this.track(list.refresh(true));
  }

  /**
   * Auto-refresh: the projects, then each expanded project's reports, one list after another
   * (the service's rate limit is shared), the pages loaded so far again; expansion, the rows
   * the user paged to and the selection kept.
   */
  async refreshLoaded(): Promise<void> {
    const expanded = this.#expandedLists();
    await this.track(
      (async () => {
        for (const list of [this.#list, ...expanded]) await list.refreshLoaded();
      })(),
    );
  }

  #expandedLists(): PagedList<Report>[] {
    return this.#expanded().map(([, child]) => child.list);
  }

  /** The reports of the projects expanded now, by project name. */
  #expanded(): [string, ProjectChildren][] {
    return [...this.#children].filter(([name]) => !this.#collapsed.has(name));
  }

  /**
   * The projects' rows and the rows of expanded projects' reports. An expanded project's own
   * row is left as drawn: drawn again, VS Code would ask for its reports again and register
   * their rows anew, and a row's menu used in that moment would come without its row.
   */
  protected datedRows(): ViewNode[] {
    const expanded = new Map(this.#expanded());
    return [
      ...this.#nodes.rendered.filter((node) => !expanded.has(node.project.name)),
      ...[...expanded.values()].flatMap((child) => child.nodes.rendered),
    ];
  }

  update(report: Report): void {
    const summary = toListSummary(report);
    for (const child of this.#children.values()) {
      if (child.list.replace(summary)) this.changeEmitter.fire(child.nodes.nodeFor(summary));
    }
  }

  /** Drops a deleted report's row under its project at once (the refresh after the delete may fail). */
  remove(id: ReportId): void {
    for (const child of this.#children.values()) child.list.remove(String(id));
  }

  selectedProject(): string | undefined {
    const [node] = this.treeView.selection;
    return node?.kind === 'project' ? node.project.name : undefined;
  }

  setBusy(id: ReportId, busy: boolean): void {
    if (!this.markBusy(id, busy)) return;
    for (const child of this.#children.values()) {
      const node = child.nodes.get(String(id));
      if (node) this.changeEmitter.fire(node);
    }
  }

  // ---- Query ----

  async setQuery(next: ProjectQueryState): Promise<void> {
    if (sameProjectQuery(this.#state, next)) return;
    this.#state = next;
    this.persist(QUERY_KEY, serializeProjectQuery(next));
    this.showQuery();
    await this.#reload();
  }

  async clearSearch(): Promise<void> {
    await this.setQuery(withProjectSearch(this.#state, undefined));
  }

  async loadMore(listKey: string): Promise<void> {
    const list = this.#listFor(listKey);
    if (list) await this.track(list.loadMore());
  }

  async retry(listKey: string): Promise<void> {
    const list = this.#listFor(listKey);
    if (list?.status === 'error') await this.track(list.retry());
  }

  // ---- internals ----

  async #rootChildren(): Promise<ViewNode[]> {
    const children = await this.rowsOf(this.#nodes, this.#list, () => this.#emptyNode());
    if (this.#list.status === 'loaded') this.#dropGoneProjects();
    return children;
  }

  async #projectChildren(name: string): Promise<ViewNode[]> {
    const child = this.#childrenOf(name);
    return this.rowsOf(child.nodes, child.list, () => this.#emptyChildNode(name));
  }

  #listFor(listKey: string): ListHandle | undefined {
    if (listKey === 'projects') return this.#list;
    const project = projectOfListKey(listKey);
    return project === undefined ? undefined : this.#children.get(project)?.list;
  }

  /** The reports list of a project, created when it is first expanded. */
  #childrenOf(name: string): ProjectChildren {
    let child = this.#children.get(name);
    if (!child) {
      const list = new PagedList<Report>(reportKey);
      list.reset(this.#childFetcher(name));
      const nodes = new ListNodes<Report, ReportNode>(
        projectListKey(name),
        reportKey,
        (report) => ({ kind: 'report', report, parentProject: name }),
        (node, report) => {
          node.report = report;
        },
      );
      const subscription = list.onDidChange(() =>
        this.listChanged(list, l10n.t('Loading the reports of a project'), this.#nodes.get(name)),
      );
      child = { list, nodes, subscription };
      this.#children.set(name, child);
    }
    return child;
  }

  /** Back to page 1 for every expanded project, loaded again when VS Code asks for its children. */
  #resetChildren(): void {
    for (const [name, child] of this.#children) child.list.reset(this.#childFetcher(name));
  }

  #dropChildren(): void {
    for (const child of this.#children.values()) {
      child.subscription.dispose();
      child.list.dispose();
    }
    this.#children.clear();
  }

  /** Forgets the reports of projects no longer listed (deleted, or filtered out by the search). */
  #dropGoneProjects(): void {
    for (const [name, child] of this.#children) {
      if (this.#list.get(name) !== undefined) continue;
      child.subscription.dispose();
      child.list.dispose();
      this.#children.delete(name);
    }
  }

  protected override onConnectionChanged(): void {
    this.#dropChildren();
    this.#list.reset(this.#fetcher());
  }

  protected override onPageSizeChanged(): void {
    this.#resetChildren();
    void this.#reload();
  }

  async #reload(): Promise<void> {
    this.#resetChildren();
    await this.restartList(this.#list, this.#fetcher());
  }

  #fetcher(): FetchPage<Project> {
    const query = toProjectQuery(this.#state, this.perPage());
    return (page, signal) => this.requireApi().listProjects(query, page, signal);
  }

  #childFetcher(name: string): FetchPage<Report> {
    return this.reportPages(toProjectReportsQuery(name, this.reportsView.query, this.perPage()));
  }

  /** The one place a rejected key is said in the views (besides its notification and the status bar). */
  protected override get saysKeyRejected(): boolean {
    return true;
  }

  /** The query in the view's description (only while connected: the welcome content has none). */
  protected showQuery(): void {
    // With several services known, the description starts with the service's label
    // (`reports.example.com · created ↓`), so a screenshot says where the data came from.
    const service = this.deps.connection.distinguishingLabel;
    const query = describeProjectQuery(this.#state);
    // The query always names its sort, so it is never empty.
    this.treeView.description = !this.connected ? undefined : service === undefined ? query : `${service} · ${query}`;
    this.setContext(ContextKey.projectsSearching, this.connected && isProjectQuerySearching(this.#state));
    this.showMessage();
  }

  #emptyNode(): EmptyNode {
    const searching = isProjectQuerySearching(this.#state);
    return {
      kind: 'empty',
      listKey: 'projects',
      message: emptyProjectsMessage(this.#state.search),
      action: searching ? { command: Command.clearProjectSearch, title: l10n.t('Clear Search') } : newReportAction(),
    };
  }

  #emptyChildNode(name: string): EmptyNode {
    return {
      kind: 'empty',
      listKey: projectListKey(name),
      message: l10n.t('No reports in this project.'),
      action: undefined,
    };
  }
}
