/**
 * The Reports and Projects views in the real extension host, against a reference service of
 * their own (57 seeded reports, no rate limit): the providers' children for each filter and
 * sort are the service's own answers, Load more reaches the total with one request a page,
 * and faults and empty results give error and empty rows. The views are read through the
 * hook `registerViews` publishes in test mode (`globalThis[Symbol.for('pageReports.views')]`);
 * everything else goes through the extension's commands, as a user's clicks would.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Report } from '../../src/api/types';
import type { ErrorNode, LoadMoreNode, ProjectNode, ReportNode, ViewNode } from '../../src/views/items';
import type { ProjectsView } from '../../src/views/projectsView';
import type { ReportsView } from '../../src/views/reportsView';
import { startService } from '../service/server';
import { adminCall } from '../service/adminClient';
import { configure, waitFor } from './harness';
import type { RawReport } from '../service/types';
import { TestHook } from '../../src/ids';

const KEY = 'views-integration-key';
const EMPTY_KEY = 'views-integration-empty-key';
const SEEDED = 57;

type Service = Awaited<ReturnType<typeof startService>>;

interface RawProject {
  project: string;
}

interface Recorded {
  method: string;
  path: string;
  query: Record<string, string>;
}

function views(): { reportsView: ReportsView; projectsView: ProjectsView } {
  const hook = (globalThis as Record<symbol, unknown>)[TestHook.views];
  if (!hook) throw new Error('the views test hook is not set (is the extension in test mode?)');
  return hook as { reportsView: ReportsView; projectsView: ProjectsView };
}

describe('views', function () {
  this.timeout(60_000);
  let svc: Service;

  const admin = <T>(endpoint: string, body?: unknown, method?: string): Promise<T> =>
    adminCall<T>(svc.url, endpoint, body, method);

  /** Every item of a list, straight from the service's API, page by page. */
  async function serverList<T>(path: string, params: Record<string, string>): Promise<T[]> {
    const all: T[] = [];
    for (let page = 1; ; page++) {
      const query = new URLSearchParams({ ...params, per_page: '100', page: String(page) });
      const response = await fetch(`${svc.url}${path}?${query.toString()}`, {
        headers: { Authorization: `Bearer ${KEY}`, Accept: 'application/json' },
      });
      assert.equal(response.status, 200);
      const body = (await response.json()) as { data: T[]; meta: { last_page: number } };
      all.push(...body.data);
      if (page >= body.meta.last_page) return all;
    }
  }

  async function serverReportIds(params: Record<string, string>): Promise<string[]> {
    return (await serverList<RawReport>('/api/v1/reports', params)).map((r) => String(r.id));
  }

  async function listRequests(): Promise<Recorded[]> {
    return (await admin<Recorded[]>('requests')).filter((r) => r.method === 'GET' && r.path === '/api/v1/reports');
  }

  /** The children, after clicking every Load more until there is none. */
  async function allChildren(view: ReportsView | ProjectsView, parent?: ViewNode): Promise<ViewNode[]> {
    for (let clicks = 0; clicks < 50; clicks++) {
      const children = await view.getChildren(parent);
      const last = children.at(-1);
      if (last?.kind !== 'loadMore') return children;
      await vscode.commands.executeCommand('pageReports.loadMore', last);
    }
    throw new Error('Load more never ended');
  }

  function ids(nodes: ViewNode[]): string[] {
    return nodes.filter((n): n is ReportNode => n.kind === 'report').map((n) => String(n.report.id));
  }

  function label(item: vscode.TreeItem): string {
    return typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
  }

  async function defaults(): Promise<void> {
    await vscode.commands.executeCommand('pageReports.clearReportFilters');
    await vscode.commands.executeCommand('pageReports.sortReports', { sortBy: 'id', sort: 'desc' });
    await vscode.commands.executeCommand('pageReports.clearProjectSearch');
    await vscode.commands.executeCommand('pageReports.sortProjects', { sortBy: 'created_at', sort: 'desc' });
  }

  before(async () => {
    svc = await startService({ keys: [KEY, EMPTY_KEY], seed: SEEDED, faults: true, rateLimit: 0, quiet: true });
    await configure(svc.url, KEY);
    await vscode.workspace.getConfiguration('pageReports').update('pageSize', 10, vscode.ConfigurationTarget.Global);
    // Show the views, as a user looking at them would (a hidden view loads only when shown).
    await vscode.commands.executeCommand('pageReports.reports.focus');
    await waitFor(() => views().reportsView.treeView.visible, { message: 'the Reports view is visible' });
    await defaults();
  });

  after(async () => {
    await defaults();
    await vscode.workspace
      .getConfiguration('pageReports')
      .update('pageSize', undefined, vscode.ConfigurationTarget.Global);
    // Back to the suite's shared service for the other test files.
    await configure();
    await svc.stop();
  });

  beforeEach(async () => {
    // Each test starts from the default queries, whatever the one before left.
    await defaults();
    await admin('faults', undefined, 'DELETE');
    await admin('requests', undefined, 'DELETE');
  });

  it('lists the service’s reports, newest first, with Load more counting loaded of total', async () => {
    const { reportsView } = views();
    await vscode.commands.executeCommand('pageReports.refreshReports');
    const first = await reportsView.getChildren();
    assert.equal(first.length, 11, '10 reports and Load more');
    const more = first[10] as LoadMoreNode;
    assert.equal(more.kind, 'loadMore');
    const item = reportsView.getTreeItem(more);
    assert.equal(label(item), 'Load more (10 of 57)');
    assert.equal(item.contextValue, 'loadMore');
    assert.equal(item.command?.command, 'pageReports.loadMore');
    assert.deepEqual(ids(first), (await serverReportIds({ sort_by: 'id', sort: 'desc' })).slice(0, 10));
    assert.equal(reportsView.treeView.description, 'created ↓');
  });

  it('Load more reaches exactly the server total with one request a page', async () => {
    const { reportsView } = views();
    await admin('requests', undefined, 'DELETE');
    await vscode.commands.executeCommand('pageReports.sortReports', { sortBy: 'url', sort: 'asc' });
    const children = await allChildren(reportsView);
    const requests = await listRequests();
    assert.equal(children.length, SEEDED, 'every report and no Load more row');
    assert.deepEqual(ids(children), await serverReportIds({ sort_by: 'url', sort: 'asc' }));
    assert.deepEqual(
      requests.map((r) => r.query.page),
      ['1', '2', '3', '4', '5', '6'],
    );
    assert.ok(requests.every((r) => r.query.per_page === '10' && r.query.sort_by === 'url' && r.query.sort === 'asc'));
  });

  it("auto-refresh's reload keeps the pages loaded in both views: the rows paged to stay", async () => {
    const { reportsView, projectsView } = views();
    await vscode.commands.executeCommand('pageReports.refreshReports');
    let children = await reportsView.getChildren();
    await vscode.commands.executeCommand('pageReports.loadMore', children.at(-1));
    await vscode.commands.executeCommand('pageReports.loadMore', (await reportsView.getChildren()).at(-1));
    children = await reportsView.getChildren();
    assert.equal(ids(children).length, 30);
    const [project] = (await projectsView.getChildren()).filter((n) => n.kind === 'project');
    assert.ok(project);
    await projectsView.getChildren(project);
    const underProject = await allChildren(projectsView, project);
    await admin('requests', undefined, 'DELETE');

    await Promise.all([reportsView.refreshLoaded(), projectsView.refreshLoaded()]);
    assert.deepEqual(ids(await reportsView.getChildren()), ids(children), 'the 30 rows, in the same order');
    assert.deepEqual(ids(await projectsView.getChildren(project)), ids(underProject), "the project's rows too");
    const pages = (await listRequests()).filter((r) => r.query.project === undefined).map((r) => r.query.page);
    assert.deepEqual(pages, ['1', '2', '3'], 'the Reports view asked for the three pages it had');
    const projectName = project.kind === 'project' ? project.project.name : '';
    assert.ok(
      (await listRequests()).some((r) => r.query.project === projectName),
      "the expanded project's reports were asked for again",
    );
  });

  it("a write's refresh keeps the pages loaded in both views: after a delete the rows paged to stay", async () => {
    const { reportsView, projectsView } = views();
    await vscode.commands.executeCommand('pageReports.refreshProjects');
    const [project] = (await projectsView.getChildren()).filter((n): n is ProjectNode => n.kind === 'project');
    assert.ok(project);
    const doomed = await admin<{ id: number | string }>('reports', {
      report: {
        url: `https://${project.project.name}/doomed.html`,
        project: project.project.name,
        result: 'bad',
        score: 12,
      },
    });
    await vscode.commands.executeCommand('pageReports.refreshReports');
    await vscode.commands.executeCommand('pageReports.loadMore', (await reportsView.getChildren()).at(-1));
    await vscode.commands.executeCommand('pageReports.loadMore', (await reportsView.getChildren()).at(-1));
    assert.equal(ids(await reportsView.getChildren()).length, 30);
    assert.equal(ids(await reportsView.getChildren())[0], String(doomed.id), 'the new report is the newest row');
    const underProject = await allChildren(projectsView, project);
    assert.ok(ids(underProject).includes(String(doomed.id)));

    assert.equal(
      await vscode.commands.executeCommand('pageReports.deleteReport', { id: doomed.id }, { confirmed: true }),
      true,
    );
    assert.deepEqual(
      ids(await reportsView.getChildren()),
      (await serverReportIds({ sort_by: 'id', sort: 'desc' })).slice(0, 30),
      "three pages still loaded: 30 rows, the service's own",
    );
    assert.deepEqual(
      ids(await projectsView.getChildren(project)),
      ids(underProject).filter((id) => id !== String(doomed.id)),
      "the expanded project's rows stay too, less the deleted one",
    );
  });

  it('tree ids stay unique when a project is named "list": its Load more row and the projects list\'s differ', async () => {
    const { projectsView } = views();
    const extra = Array.from({ length: 10 }, (_, i) => `extra-${i}.localhost`);
    const insert = (project: string, path: string): Promise<unknown> =>
      admin('reports', { report: { url: `https://${project}${path}`, project, result: 'good', score: 90 } });
    try {
      for (const project of extra) await insert(project, '/');
      // Inserted last, so the newest project: on the first page of the projects, expanded there.
      for (let i = 0; i < 11; i++) await insert('list', `/p${i}.html`);
      await vscode.commands.executeCommand('pageReports.refreshProjects');
      const roots = await projectsView.getChildren();
      const list = roots.find((n): n is ProjectNode => n.kind === 'project' && n.project.name === 'list');
      assert.ok(list, 'the project named list is on the first page');
      assert.equal(roots.at(-1)?.kind, 'loadMore', 'the projects have a Load more row');
      const children = await projectsView.getChildren(list);
      assert.equal(children.at(-1)?.kind, 'loadMore', 'so do the reports of list');
      const treeIds = [...roots, ...children].map((n) => projectsView.getTreeItem(n).id);
      assert.equal(new Set(treeIds).size, treeIds.length, treeIds.join(', '));
    } finally {
      for (const project of [...extra, 'list']) {
        const response = await fetch(`${svc.url}/api/v1/projects/${encodeURIComponent(project)}`, {
          method: 'DELETE',
          headers: { Authorization: `Bearer ${KEY}`, Accept: 'application/json' },
        });
        assert.ok(response.ok, `${project}: ${response.status}`);
      }
      await vscode.commands.executeCommand('pageReports.refreshProjects');
    }
  });

  it('each filter’s children are the service’s own answer', async () => {
    const { reportsView } = views();
    const projects = await serverList<RawProject>('/api/v1/projects', {});
    const project = projects[0].project;
    const cases: { filter: Record<string, string>; params: Record<string, string>; description: string }[] = [
      { filter: { result: 'good' }, params: { result: 'good' }, description: 'good · created ↓' },
      { filter: { result: 'decent' }, params: { result: 'decent' }, description: 'decent · created ↓' },
      { filter: { result: 'bad' }, params: { result: 'bad' }, description: 'bad · created ↓' },
      {
        filter: { search: 'good.html' },
        params: { search: 'good.html', search_by: 'url' },
        description: '"good.html" · created ↓',
      },
      { filter: { project }, params: { project }, description: `${project} · created ↓` },
      {
        filter: { result: 'good', project, search: 'localhost' },
        params: { result: 'good', project, search: 'localhost' },
        description: `good · ${project} · "localhost" · created ↓`,
      },
    ];
    for (const c of cases) {
      await vscode.commands.executeCommand('pageReports.clearReportFilters');
      await vscode.commands.executeCommand('pageReports.filterReports', c.filter);
      const expected = await serverReportIds({ ...c.params, sort_by: 'id', sort: 'desc' });
      assert.ok(expected.length > 0, `the seed has matches for ${JSON.stringify(c.filter)}`);
      assert.deepEqual(ids(await allChildren(reportsView)), expected, JSON.stringify(c.filter));
      // Issue 45: the active filter shows above the rows (the view's message), not as the title's faint description.
      assert.equal(reportsView.treeView.message, c.description);
      assert.equal(reportsView.treeView.description, undefined);
    }
    await vscode.commands.executeCommand('pageReports.clearReportFilters');
    assert.equal(reportsView.query.result, undefined);
    assert.equal(reportsView.treeView.description, 'created ↓');
    assert.equal(reportsView.treeView.message, undefined);
  });

  it('each sort’s children are the service’s own answer', async () => {
    const { reportsView } = views();
    await vscode.commands.executeCommand('pageReports.filterReports', { result: 'bad' });
    for (const sortBy of ['id', 'generated_at', 'url', 'score']) {
      for (const sort of ['asc', 'desc']) {
        await vscode.commands.executeCommand('pageReports.sortReports', { sortBy, sort });
        const expected = await serverReportIds({ result: 'bad', sort_by: sortBy, sort });
        assert.deepEqual(ids(await allChildren(reportsView)), expected, `${sortBy} ${sort}`);
      }
    }
    await vscode.commands.executeCommand('pageReports.sortReports', { sortBy: 'score', sort: 'asc' });
    assert.equal(reportsView.treeView.message, 'bad · score ↑');
    await defaults();
  });

  it('an empty result says which filters matched nothing, and offers Clear Filters', async () => {
    const { reportsView } = views();
    await vscode.commands.executeCommand('pageReports.filterReports', { result: 'bad', search: 'no-such-page-zz' });
    const children = await reportsView.getChildren();
    assert.equal(children.length, 1);
    assert.equal(children[0].kind, 'empty');
    const item = reportsView.getTreeItem(children[0]);
    assert.equal(label(item), 'No bad reports match "no-such-page-zz".');
    assert.equal(item.command?.command, 'pageReports.clearReportFilters');
    await vscode.commands.executeCommand(item.command.command, ...(item.command.arguments ?? []));
    assert.equal(reportsView.query.search, undefined);
    assert.equal(reportsView.query.result, undefined);
    assert.equal(ids(await reportsView.getChildren()).length, 10);
  });

  it('a failing list ends with an error row that names the failure and keeps what was loaded; Retry recovers', async () => {
    const { reportsView } = views();
    await vscode.commands.executeCommand('pageReports.refreshReports');
    const loaded = ids(await reportsView.getChildren());
    assert.equal(loaded.length, 10);

    // Reads are retried twice: three 502s make the failure stick.
    await admin('faults', { method: 'GET', path: '/api/v1/reports', status: 502, body: 'html', times: 3 });
    await vscode.commands.executeCommand('pageReports.refreshReports');
    const failed = await reportsView.getChildren();
    assert.deepEqual(ids(failed), loaded, 'the loaded reports stay');
    const error = failed.at(-1) as ErrorNode;
    assert.equal(error.kind, 'error');
    const item = reportsView.getTreeItem(error);
    assert.match(label(item), /502/);
    assert.ok(label(item).includes(new URL(svc.url).host), label(item));
    assert.equal(item.contextValue, 'error');
    assert.equal(item.command?.command, 'pageReports.retry');

    await vscode.commands.executeCommand('pageReports.retry', error);
    const recovered = await reportsView.getChildren();
    assert.deepEqual(ids(recovered), loaded);
    assert.equal(recovered.at(-1)?.kind, 'loadMore');

    // A body that is not the JSON expected: a clear error, never an empty list.
    await admin('faults', { method: 'GET', path: '/api/v1/reports', status: 200, body: 'truncated' });
    await vscode.commands.executeCommand('pageReports.filterReports', { result: 'good' });
    const bad = await reportsView.getChildren();
    assert.equal(bad.length, 1);
    assert.equal(bad[0].kind, 'error');
    assert.match(label(reportsView.getTreeItem(bad[0])), new RegExp(new URL(svc.url).hostname.replace(/\./g, '\\.')));
    await vscode.commands.executeCommand('pageReports.retry', bad[0]);
    assert.ok(ids(await reportsView.getChildren()).length > 0);
    await defaults();
  });

  it('a refresh that fails keeps the rows and says so at the top of the view, in its message; a refresh that works takes it away', async () => {
    const { reportsView } = views();
    await vscode.commands.executeCommand('pageReports.refreshReports');
    const rows = ids(await reportsView.getChildren());
    assert.ok(rows.length > 0, 'the list has rows');
    assert.equal(reportsView.treeView.message, undefined);
    // Every try of the read fails (it is retried).
    await admin('faults', { method: 'GET', path: '/api/v1/reports', status: 500, times: 20 });
    try {
      await vscode.commands.executeCommand('pageReports.refreshReports');
      await waitFor(() => reportsView.treeView.message !== undefined, { message: "the view's message", timeoutMs: 30_000 });
      assert.match(
        String(reportsView.treeView.message),
        /^Could not refresh: The service at 127\.0\.0\.1:\d+ answered 500\. The rows are from the last load\.$/,
      );
      assert.deepEqual(ids(await reportsView.getChildren()), rows, 'the rows stay');
    } finally {
      await admin('faults', undefined, 'DELETE');
    }
    await vscode.commands.executeCommand('pageReports.refreshReports');
    await waitFor(() => reportsView.treeView.message === undefined, { message: 'the message gone after a refresh that worked' });
  });

  it('a rejected key: one message above the Projects rows, the rows of the last load stay, no error rows, Reports says nothing more', async () => {
    const { reportsView, projectsView } = views();
    await vscode.commands.executeCommand('pageReports.refreshReports');
    await vscode.commands.executeCommand('pageReports.refreshProjects');
    const reportRows = ids(await reportsView.getChildren());
    const projectRows = (await projectsView.getChildren()).filter((n) => n.kind === 'project').length;
    assert.ok(reportRows.length > 0 && projectRows > 0, 'both views have rows');
    const rejected = { status: 401, body: { message: 'Unauthenticated.' }, times: 50 };
    await admin('faults', { method: 'GET', path: '/api/v1/reports', ...rejected });
    await admin('faults', { method: 'GET', path: '/api/v1/projects', ...rejected });
    try {
      await vscode.commands.executeCommand('pageReports.refreshReports');
      await vscode.commands.executeCommand('pageReports.refreshProjects');
      await waitFor(() => projectsView.treeView.message !== undefined, { message: "the Projects view's message", timeoutMs: 30_000 });
      assert.equal(projectsView.treeView.message, 'The service rejected the API key. Set another with Set API Key… in the … menu.');
      assert.equal(reportsView.treeView.message, undefined, 'Reports says nothing more');
      const reports = await reportsView.getChildren();
      assert.deepEqual(ids(reports), reportRows, 'the rows stay');
      assert.ok(!reports.some((n) => n.kind === 'error'), 'no error row in Reports');
      const projects = await projectsView.getChildren();
      assert.equal(projects.filter((n) => n.kind === 'project').length, projectRows);
      assert.ok(!projects.some((n) => n.kind === 'error'), 'no error row in Projects');
    } finally {
      await admin('faults', undefined, 'DELETE');
    }
    await vscode.commands.executeCommand('pageReports.refreshProjects');
    await waitFor(() => projectsView.treeView.message === undefined, { message: 'the message gone once the key works' });
  });

  it('a list failing in a way a retry cannot mend offers the way forward on its error row: Open Settings for a service URL with a wrong path', async () => {
    const { reportsView } = views();
    // A 404 for the list itself: the service URL points at the wrong place (not retried).
    await admin('faults', {
      method: 'GET',
      path: '/api/v1/reports',
      status: 404,
      body: { message: 'Not Found' },
      times: 3,
    });
    await vscode.commands.executeCommand('pageReports.refreshReports');
    const error = (await reportsView.getChildren()).at(-1) as ErrorNode;
    assert.equal(error.kind, 'error');
    const item = reportsView.getTreeItem(error);
    assert.match(label(item), /has no such resource/);
    assert.equal(item.description, 'Open Settings');
    assert.deepEqual(
      { command: item.command?.command, arguments: item.command?.arguments },
      { command: 'workbench.action.openSettings', arguments: ['pageReports'] },
    );
    assert.equal(item.contextValue, 'error', 'its inline Retry stays');
    await admin('faults', undefined, 'DELETE');
    await vscode.commands.executeCommand('pageReports.retry', error);
    assert.ok(ids(await reportsView.getChildren()).length > 0);
  });

  it('report rows: result icon, score and date, busy state, in-place update, stable ids, escaped tooltip', async () => {
    const { reportsView } = views();
    const hostile = await admin<{ id: number; url: string }>('reports', {
      key: KEY,
      report: {
        url: 'https://x.localhost/<img src=x onerror=alert(1)>[a](command:pageReports.deleteReport)',
        result: 'bad',
        score: 12.5,
        privacy: 1,
        generated_at: new Date(Date.now() - 3 * 86_400_000).toISOString(),
      },
    });
    await vscode.commands.executeCommand('pageReports.refreshReports');
    const children = await reportsView.getChildren();
    const node = children.find(
      (n): n is ReportNode => n.kind === 'report' && String(n.report.id) === String(hostile.id),
    );
    assert.ok(node, 'the new report is first');
    const item = reportsView.getTreeItem(node);
    // Issue 45: the label is the page; the list mixes hosts, so the description names the host.
    assert.equal(label(item), '/<img src=x onerror=alert(1)>[a](command:pageReports.deleteReport)');
    assert.equal(item.description, '12.5 · 3 days ago · x.localhost · Private');
    assert.ok(item.iconPath instanceof vscode.ThemeIcon);
    assert.equal(item.iconPath.id, 'error');
    assert.equal(item.iconPath.color?.id, 'problemsErrorIcon.foreground');
    assert.equal(item.contextValue, 'report');
    assert.equal(item.command?.command, 'pageReports.openReport');
    assert.equal(item.command?.arguments?.[0], node);
    assert.equal(item.id, `reports/report/${hostile.id}`);

    const resolved = reportsView.resolveTreeItem(item, node);
    const tooltip = resolved.tooltip as vscode.MarkdownString;
    assert.ok(tooltip instanceof vscode.MarkdownString);
    assert.notEqual(tooltip.isTrusted, true);
    assert.notEqual(tooltip.supportHtml, true);
    // Every Markdown character of server text is backslash-escaped: no tag, no link.
    assert.doesNotMatch(tooltip.value, /(^|[^\\])</);
    assert.doesNotMatch(tooltip.value, /(^|[^\\])\]\(/);
    assert.ok(tooltip.value.includes('\\<img src\\=x onerror\\=alert\\(1\\)\\>'), tooltip.value);

    reportsView.setBusy(hostile.id, true);
    const busy = reportsView.getTreeItem(node);
    assert.equal(busy.contextValue, 'report.busy');
    assert.equal((busy.iconPath as vscode.ThemeIcon).id, 'sync~spin');
    reportsView.setBusy(hostile.id, false);
    assert.equal(reportsView.getTreeItem(node).contextValue, 'report');

    const updated: Report = { ...node.report, score: 99, result: 'good' };
    reportsView.update(updated);
    const again = reportsView.getTreeItem(node);
    assert.ok(String(again.description).startsWith('99 · '));
    assert.equal((again.iconPath as vscode.ThemeIcon).id, 'pass');

    await vscode.commands.executeCommand('pageReports.refreshReports');
    const refreshed = await reportsView.getChildren();
    assert.deepEqual(
      refreshed.map((n) => reportsView.getTreeItem(n).id),
      children.map((n) => reportsView.getTreeItem(n).id),
      'a refresh keeps the ids',
    );
    assert.equal(refreshed[0], children[0], 'and the element objects');

    await reportsView.reveal(node.report);
    await waitFor(
      () =>
        reportsView.treeView.selection.some((n) => n.kind === 'report' && String(n.report.id) === String(hostile.id)),
      {
        message: 'the revealed report is selected',
      },
    );
  });

  it('relative dates age: the rows (not the tree) are drawn again when the views come back into view, fetching nothing; an expanded project keeps its row', async () => {
    const { reportsView, projectsView } = views();
    const rowsOf = (nodes: ViewNode[]): ViewNode[] => nodes.filter((n) => n.kind === 'report' || n.kind === 'project');
    await vscode.commands.executeCommand('pageReports.reports.focus');
    await waitFor(() => reportsView.treeView.visible && projectsView.treeView.visible, { message: 'both views show' });
    await vscode.commands.executeCommand('pageReports.refreshReports');
    const reportRows = rowsOf(await reportsView.getChildren());
    await vscode.commands.executeCommand('pageReports.refreshProjects');
    const projectRows = rowsOf(await projectsView.getChildren());
    const [expanded, ...others] = projectRows;
    assert.ok(expanded && others.length > 0, 'several projects');
    const underExpanded = rowsOf(await projectsView.getChildren(expanded));
    assert.ok(underExpanded.length > 0, 'the expanded project lists reports');

    const redrawn = new Map<string, (ViewNode | void | undefined)[]>([
      ['reports', []],
      ['projects', []],
    ]);
    const subscriptions = [
      reportsView.onDidChangeTreeData((rows) => redrawn.get('reports')?.push(...(Array.isArray(rows) ? rows : [rows]))),
      projectsView.onDidChangeTreeData((rows) => redrawn.get('projects')?.push(...(Array.isArray(rows) ? rows : [rows]))),
    ];
    await admin('requests', undefined, 'DELETE');
    try {
      await vscode.commands.executeCommand('workbench.view.explorer');
      await waitFor(() => !reportsView.treeView.visible, { message: 'the views are hidden' });
      await vscode.commands.executeCommand('pageReports.reports.focus');
      await waitFor(() => (redrawn.get('reports')?.length ?? 0) > 0 && (redrawn.get('projects')?.length ?? 0) > 0, {
        message: 'both views drew their rows again',
      });
      const reports = redrawn.get('reports') ?? [];
      const projects = redrawn.get('projects') ?? [];
      assert.ok(!reports.includes(undefined) && !projects.includes(undefined), 'the rows, never the whole tree');
      assert.deepEqual(new Set(reports), new Set(reportRows), "the Reports view's rows");
      assert.deepEqual(
        new Set(projects),
        new Set([...others, ...underExpanded]),
        "the projects' rows and the expanded project's reports, not the expanded project's own row",
      );
      assert.deepEqual(await listRequests(), [], 'nothing fetched');
    } finally {
      for (const subscription of subscriptions) subscription.dispose();
    }
  });

  it('Projects view: the service’s projects for each sort and search; a project lists its reports in the Reports view’s sort', async () => {
    const { projectsView } = views();
    await vscode.commands.executeCommand('pageReports.refreshProjects');
    for (const [sortBy, sort] of [
      ['created_at', 'desc'],
      ['created_at', 'asc'],
      ['project', 'asc'],
      ['project', 'desc'],
    ] as const) {
      await vscode.commands.executeCommand('pageReports.sortProjects', { sortBy, sort });
      const expected = (await serverList<RawProject>('/api/v1/projects', { sort_by: sortBy, sort })).map(
        (p) => p.project,
      );
      const names = (await allChildren(projectsView))
        .filter((n): n is ProjectNode => n.kind === 'project')
        .map((n) => n.project.name);
      assert.deepEqual(names, expected, `${sortBy} ${sort}`);
    }
    // With several services known (other suites add theirs) the description starts with this
    // service's label; the query follows it.
    const serviceLabel = `${new URL(svc.url).host} · `;
    const query = (d: string | undefined): string | undefined =>
      d?.startsWith(serviceLabel) ? d.slice(serviceLabel.length) : d;
    assert.equal(query(projectsView.treeView.description), 'name ↓');

    await vscode.commands.executeCommand('pageReports.searchProjects', 'shop');
    const expected = (
      await serverList<RawProject>('/api/v1/projects', { search: 'shop', sort_by: 'project', sort: 'desc' })
    ).map((p) => p.project);
    const found = (await projectsView.getChildren()).filter((n): n is ProjectNode => n.kind === 'project');
    assert.deepEqual(
      found.map((n) => n.project.name),
      expected,
    );
    assert.equal(query(projectsView.treeView.description), '"shop" · name ↓');
    const shop = found[0];
    const item = projectsView.getTreeItem(shop);
    assert.equal(item.collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
    assert.equal(item.contextValue, 'project');

    await vscode.commands.executeCommand('pageReports.sortReports', { sortBy: 'score', sort: 'asc' });
    const children = await allChildren(projectsView, shop);
    assert.deepEqual(
      ids(children),
      await serverReportIds({ project: shop.project.name, sort_by: 'score', sort: 'asc' }),
    );
    for (const child of children) {
      assert.equal(projectsView.getParent(child), shop);
      assert.ok(projectsView.getTreeItem(child).id?.startsWith(`projects/${encodeURIComponent(shop.project.name)}/`));
    }

    await vscode.commands.executeCommand('pageReports.searchProjects', 'no-such-project-zz');
    const empty = await projectsView.getChildren();
    assert.equal(empty.length, 1);
    const emptyItem = projectsView.getTreeItem(empty[0]);
    assert.equal(label(emptyItem), 'No projects match "no-such-project-zz".');
    assert.equal(emptyItem.command?.command, 'pageReports.clearProjectSearch');

    await vscode.commands.executeCommand('pageReports.showProjectInReports', shop);
    assert.equal(views().reportsView.query.project, shop.project.name);
    await defaults();
  });

  it("a change of the Reports view's filters leaves the pages loaded under expanded projects; a change of its sort reloads them in that order", async () => {
    const { projectsView } = views();
    await vscode.commands.executeCommand('pageReports.refreshProjects');
    // A project with more than one page of reports (the suite's page size is 10).
    let project: ProjectNode | undefined;
    for (const node of (await projectsView.getChildren()).filter((n): n is ProjectNode => n.kind === 'project')) {
      if ((await projectsView.getChildren(node)).at(-1)?.kind === 'loadMore') {
        project = node;
        break;
      }
    }
    assert.ok(project, 'a project with more than 10 reports');
    const loaded = await allChildren(projectsView, project);
    assert.ok(ids(loaded).length > 10);
    await admin('requests', undefined, 'DELETE');

    await vscode.commands.executeCommand('pageReports.filterReports', { result: 'bad' });
    assert.deepEqual(ids(await projectsView.getChildren(project)), ids(loaded), 'every page loaded under it stays');
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(
      (await listRequests()).filter((r) => r.query.project !== undefined),
      [],
      'nothing asked again for the project',
    );

    await vscode.commands.executeCommand('pageReports.sortReports', { sortBy: 'score', sort: 'asc' });
    const name = project.project.name;
    assert.deepEqual(
      ids(await projectsView.getChildren(project)),
      (await serverReportIds({ project: name, sort_by: 'score', sort: 'asc' })).slice(0, 10),
      'page 1 again, in the new sort',
    );
  });

  it('shows nothing (the welcome content) without a key, and reloads when the connection changes', async () => {
    const { reportsView, projectsView } = views();
    assert.equal(await vscode.commands.executeCommand('pageReports.removeApiKey', { confirmed: true }), true);
    assert.deepEqual(await reportsView.getChildren(), []);
    assert.deepEqual(await projectsView.getChildren(), []);
    assert.equal(reportsView.treeView.description, undefined);

    // Another account with no reports: the views load from it.
    await configure(svc.url, EMPTY_KEY);
    const empty = await reportsView.getChildren();
    assert.equal(empty.length, 1);
    assert.equal(label(reportsView.getTreeItem(empty[0])), 'No reports yet.');

    await configure(svc.url, KEY);
    assert.equal(ids(await reportsView.getChildren()).length, 10);
  });
});
