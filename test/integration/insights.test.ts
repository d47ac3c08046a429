/**
 * Insights in the real extension host: the view model the insights page is sent holds the
 * numbers the service's data gives (computed here from the service's own answers), for one
 * project and for all projects; one panel per project; a failing page load ends in the error
 * state and Retry finishes the load.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { admin, configure, keys, pageReportsLogWith, resetService, serviceUrl, waitFor } from './harness';
import { maxInFlight } from '../service/adminClient';
import type { RawReport, RecordedRequest } from '../service/types';
import { TestHook } from '../../src/ids';

/** The insights panel's state as last posted to its page (see src/insights/panel.ts). */
interface PostedState {
  phase: 'loading' | 'ready' | 'cancelled' | 'error';
  project: string | null;
  error: string | null;
  errorAction: string | null;
  progressText: string | null;
  notice?: string | null;
  model: {
    total: number;
    results: { good: number; decent: number; bad: number; other: number };
    scores: { scored: number; unscored: number; mean: number | null; median: number | null; buckets: number[] };
    checks: { name: string; failed: number; ran: number }[];
    lowest: number[];
    reports: { id: number | string; score: number | null }[];
  } | null;
}

interface Hook {
  lastPosted(project: string | null): PostedState | undefined;
  webviewPanel(project: string | null): vscode.WebviewPanel | undefined;
  receive(project: string | null, message: unknown): void;
  backdate(project: string | null, ms: number): void;
}

function hook(): Hook | undefined {
  return (globalThis as Record<symbol, Hook | undefined>)[TestHook.insights];
}

function posted(project: string | null): PostedState | undefined {
  return hook()?.lastPosted(project);
}

function insightsTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter(
      (tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith('pageReports.insights'),
    );
}

/** Every report of `project` (or all) as the service answers them to `key`, page by page. */
async function serviceReports(project: string | null, key = keys().main): Promise<RawReport[]> {
  const all: RawReport[] = [];
  for (let page = 1; ; page++) {
    const query = new URLSearchParams({
      per_page: '100',
      page: String(page),
      ...(project === null ? {} : { project }),
    });
    const response = await fetch(`${serviceUrl()}/api/v1/reports?${query.toString()}`, {
      headers: { Authorization: `Bearer ${key}`, Accept: 'application/json' },
    });
    const body = (await response.json()) as { data: RawReport[]; meta: { last_page: number } };
    all.push(...body.data);
    if (page >= body.meta.last_page) return all;
  }
}

/** The numbers the test expects, from the service's raw answers (not from the extension's code). */
function expected(reports: RawReport[]): {
  results: Record<'good' | 'decent' | 'bad' | 'other', number>;
  scored: number;
  failed: Map<string, number>;
} {
  const results = { good: 0, decent: 0, bad: 0, other: 0 };
  const failed = new Map<string, number>();
  let scored = 0;
  for (const r of reports) {
    if (r.result === 'good' || r.result === 'decent' || r.result === 'bad') results[r.result] += 1;
    else results.other += 1;
    if (typeof r.score === 'number') scored += 1;
    for (const [name, check] of Object.entries(r.results ?? {}))
      if (check?.passed === false) failed.set(name, (failed.get(name) ?? 0) + 1);
  }
  return { results, scored, failed };
}

async function ready(project: string | null): Promise<PostedState> {
  return waitFor(
    () => {
      const state = posted(project);
      return state?.phase === 'ready' ? state : undefined;
    },
    { timeoutMs: 20_000, message: `insights of ${project ?? 'all projects'} ready` },
  );
}

describe('insights panel', function () {
  this.timeout(60_000);

  before(async () => {
    await configure();
    await resetService();
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await waitFor(() => insightsTabs().length === 0, { message: 'insights panels closed' });
    await resetService();
  });

  it("sends the page a project's counts as the service's data gives them", async () => {
    const all = await serviceReports(null);
    const counts = new Map<string, number>();
    for (const r of all) counts.set(r.project, (counts.get(r.project) ?? 0) + 1);
    const [project] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0];
    const reports = await serviceReports(project);
    const want = expected(reports);

    await vscode.commands.executeCommand('pageReports.showInsights', { project });
    const state = await ready(project);
    assert.ok(state.model);
    assert.equal(state.model.total, reports.length);
    assert.deepEqual(state.model.results, want.results);
    assert.equal(state.model.scores.scored, want.scored);
    assert.equal(state.model.scores.unscored, reports.length - want.scored);
    assert.equal(
      state.model.scores.buckets.reduce((a, b) => a + b, 0),
      want.scored,
      'every scored report in one bucket',
    );
    assert.deepEqual(
      new Map(state.model.checks.map((c) => [c.name, c.failed])),
      want.failed,
      'each failing check with the number of reports it failed in',
    );
    const lowest = state.model.lowest.map((i) => state.model!.reports[i].score);
    // One row a page: its newest report (the highest id) stands for it.
    const newestOfPage = new Map<string, RawReport>();
    for (const r of [...reports].sort((a, b) => Number(b.id) - Number(a.id))) {
      if (!newestOfPage.has(r.url)) newestOfPage.set(r.url, r);
    }
    const scores = [...newestOfPage.values()]
      .map((r) => r.score)
      .filter((s): s is number => typeof s === 'number')
      .sort((a, b) => a - b);
    assert.deepEqual(lowest, scores.slice(0, 10));
    const tab = insightsTabs().find((t) => t.label === `Insights: ${project}`);
    assert.ok(tab, `a tab titled Insights: ${project}`);
  });

  it('sends All projects the totals, and reveals the open panel instead of opening another', async () => {
    const all = await serviceReports(null);
    const want = expected(all);
    await vscode.commands.executeCommand('pageReports.showInsights', { project: null });
    const state = await ready(null);
    assert.equal(state.model?.total, all.length);
    assert.deepEqual(state.model?.results, want.results);
    assert.ok(insightsTabs().some((t) => t.label === 'Insights: All projects'));

    await vscode.commands.executeCommand('pageReports.showAllInsights');
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(insightsTabs().length, 1, 'one panel for all projects');
  });

  it('loads its figures again when Show Insights… runs on the open panel and they are a minute old: a report added meanwhile is counted', async () => {
    const [first] = await serviceReports(null);
    assert.ok(first);
    const project = first.project;
    const before = (await serviceReports(project)).length;
    await vscode.commands.executeCommand('pageReports.showInsights', { project });
    assert.equal((await ready(project)).model?.total, before);
    const added = await admin<{ data?: RawReport } & Partial<RawReport>>('reports', {
      key: keys().main,
      report: { url: first.url, result: 'good', score: 90, privacy: 0, generated_at: '2025-01-02T00:00:00.000000Z' },
    });
    const id = added.data?.id ?? added.id;
    const listRequests = async (): Promise<number> =>
      (await admin<RecordedRequest[]>('requests')).filter((r) => r.method === 'GET' && r.path === '/api/v1/reports').length;
    try {
      // Seconds old: brought forward only (repeated reveals would spend the service's 60 requests a minute).
      const loads = await listRequests();
      await vscode.commands.executeCommand('pageReports.showInsights', { project });
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal(await listRequests(), loads, 'no request for figures seconds old');
      assert.equal(posted(project)?.model?.total, before);
      // A minute old: loaded again.
      hook()?.backdate(project, 60_000);
      await vscode.commands.executeCommand('pageReports.showInsights', { project });
      await waitFor(() => posted(project)?.phase === 'ready' && posted(project)?.model?.total === before + 1, {
        timeoutMs: 20_000,
        message: `the figures of ${before + 1} reports (${String(posted(project)?.model?.total)})`,
      });
      assert.equal(insightsTabs().length, 1, 'the same panel');
    } finally {
      await fetch(`${serviceUrl()}/api/v1/reports/${String(id)}`, {
        method: 'DELETE',
        headers: { Authorization: `Bearer ${keys().main}`, Accept: 'application/json' },
      });
    }
  });

  it('gives its tab the insights icon once its page has drawn', async () => {
    await vscode.commands.executeCommand('pageReports.showInsights', { project: null });
    await ready(null);
    // Set on the page's first `rendered`, not with the panel (src/panels/lifetime.ts, TabIcon).
    const icon = await waitFor(
      () => hook()?.webviewPanel(null)?.iconPath as { light: vscode.Uri; dark: vscode.Uri } | undefined,
      { message: 'the tab icon set', timeoutMs: 10_000 },
    );
    assert.match(icon.light.path, /\/media\/insights-light\.svg$/);
    assert.match(icon.dark.path, /\/media\/insights-dark\.svg$/);
  });

  it('shows zeros for a project without reports', async () => {
    await vscode.commands.executeCommand('pageReports.showInsights', { project: 'nothing-here.localhost' });
    const state = await ready('nothing-here.localhost');
    assert.equal(state.model?.total, 0);
    assert.deepEqual(state.model?.results, { good: 0, decent: 0, bad: 0, other: 0 });
    assert.equal(state.model?.scores.mean, null);
  });

  it('offers the way forward beside Retry where retrying alone fails the same way: a wrong service path opens the settings', async () => {
    await admin('faults', { method: 'GET', path: '/api/v1/reports', status: 404, body: { message: 'Not Found' }, times: 5 });
    await vscode.commands.executeCommand('pageReports.showInsights', { project: null });
    const failed = await waitFor(() => (posted(null)?.phase === 'error' ? posted(null) : undefined), {
      timeoutMs: 20_000,
      message: 'the error state',
    });
    await admin('faults', undefined, 'DELETE');
    assert.match(failed.error ?? '', /has no such resource/);
    assert.equal(failed.errorAction, 'Open Settings');
    hook()?.receive(null, { type: 'errorAction' });
    const settingsOpen = (): boolean =>
      vscode.window.tabGroups.all.some((group) => group.tabs.some((tab) => tab.label === 'Settings'));
    await waitFor(settingsOpen, { message: 'the Settings editor opened' });
  });

  it('ends a failing load in the error state; opened again, it loads the reports', async () => {
    await admin('faults', { method: 'GET', path: '/api/v1/reports', status: 502, body: 'html', times: 5 });
    await vscode.commands.executeCommand('pageReports.showInsights', { project: null });
    const failed = await waitFor(() => (posted(null)?.phase === 'error' ? posted(null) : undefined), {
      timeoutMs: 20_000,
      message: 'the error state',
    });
    assert.match(failed.error ?? '', /502/);
    assert.equal(failed.errorAction, null, 'a 502 may pass: Retry alone');
    await admin('faults', undefined, 'DELETE');
    // Retry is the page's button (the end-to-end test clicks it); here the panel is closed
    // and opened again, which loads from the start.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await waitFor(() => insightsTabs().length === 0, { message: 'closed' });
    await vscode.commands.executeCommand('pageReports.showInsights', { project: null });
    const state = await ready(null);
    assert.equal(state.model?.total, (await serviceReports(null)).length);
  });
});

describe('insights loading', function () {
  this.timeout(60_000);
  const settings = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('pageReports');

  before(async () => {
    // The second account, so the main account's 40 seeded reports stay as other suites expect.
    await admin('seed', { count: 150, key: keys().other });
    await configure(serviceUrl(), keys().other);
    await resetService();
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await waitFor(() => insightsTabs().length === 0, { message: 'insights panels closed' });
    await settings().update('insightsLimit', undefined, vscode.ConfigurationTarget.Global);
    await resetService();
  });

  after(async () => {
    // The second account is empty again for whoever uses it next.
    const headers = { Authorization: `Bearer ${keys().other}`, Accept: 'application/json' };
    for (;;) {
      const list = await fetch(`${serviceUrl()}/api/v1/projects?per_page=100`, { headers });
      const projects = ((await list.json()) as { data: { project: string }[] }).data;
      if (projects.length === 0) break;
      for (const { project } of projects)
        await fetch(`${serviceUrl()}/api/v1/projects/${encodeURIComponent(project)}`, { method: 'DELETE', headers });
    }
    await configure();
  });

  it('keeps the newest reports up to pageReports.insightsLimit and says the cap cut the data', async () => {
    await settings().update('insightsLimit', 100, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('pageReports.showInsights', { project: null });
    const state = await ready(null);
    assert.equal(state.model?.total, 100);
    assert.equal((state as PostedState & { capText: string | null }).capText, 'Showing the newest 100 of 150 reports');
    const requests = await admin<{ path: string; query: Record<string, string> }[]>('requests');
    const lists = requests.filter((r) => r.path === '/api/v1/reports');
    assert.deepEqual(
      lists.map((r) => [r.query.sort_by, r.query.sort, r.query.per_page, r.query.page]),
      [['id', 'desc', '100', '1']],
      'newest first, 100 a page, and no page past the cap',
    );
  });

  it('copies a summary that says when the cap cut the data, and when loading stopped early', async () => {
    await settings().update('insightsLimit', 100, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('pageReports.showInsights', { project: null });
    await ready(null);
    hook()?.receive(null, { type: 'copySummary' });
    const capped = await waitFor(
      async () => {
        const text = await vscode.env.clipboard.readText();
        return text.startsWith('## Insights: All projects') ? text : undefined;
      },
      { message: 'the summary on the clipboard' },
    );
    assert.match(capped, /^_Showing the newest 100 of 150 reports_$/m);
    assert.doesNotMatch(capped, /Partial/);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await waitFor(() => insightsTabs().length === 0, { message: 'closed' });
    await vscode.env.clipboard.writeText('');

    // Cancelled after the first page: the summary covers 100 of 150 and says so.
    await settings().update('insightsLimit', undefined, vscode.ConfigurationTarget.Global);
    await admin('faults', { method: 'GET', path: '/api/v1/reports', delayMs: 1500, times: 20 });
    await vscode.commands.executeCommand('pageReports.showInsights', { project: null });
    await waitFor(() => posted(null)?.progressText === 'Loaded 100 of 150 reports', {
      timeoutMs: 20_000,
      intervalMs: 20,
      message: 'the first page loaded',
    });
    hook()?.receive(null, { type: 'cancel' });
    await waitFor(() => posted(null)?.phase === 'cancelled', { message: 'cancelled' });
    hook()?.receive(null, { type: 'copySummary' });
    const partial = await waitFor(
      async () => {
        const text = await vscode.env.clipboard.readText();
        return text.startsWith('## Insights') ? text : undefined;
      },
      { message: 'the partial summary on the clipboard' },
    );
    assert.match(partial, /^_Partial: loading stopped after 100 of 150 reports; the numbers cover only those\._$/m);
  });

  it('says a load cancelled before its first page brought no figures', async () => {
    await admin('faults', { method: 'GET', path: '/api/v1/reports', delayMs: 3000, times: 5 });
    await vscode.commands.executeCommand('pageReports.showInsights', { project: null });
    await waitFor(() => posted(null)?.phase === 'loading', { message: 'loading' });
    hook()?.receive(null, { type: 'cancel' });
    const cancelled = await waitFor(() => (posted(null)?.phase === 'cancelled' ? posted(null) : undefined), {
      message: 'cancelled',
    });
    assert.equal(cancelled.model, null, 'no figures');
    assert.equal(cancelled.progressText, null);
    assert.equal(
      (cancelled as PostedState & { notice: string | null }).notice,
      'Loading was cancelled before any report arrived. Refresh loads the reports.',
    );
  });

  it('keeps the figures a Refresh was refreshing when it is cancelled or fails', async () => {
    await vscode.commands.executeCommand('pageReports.showInsights', { project: null });
    assert.equal((await ready(null)).model?.total, 150);

    await admin('faults', { method: 'GET', path: '/api/v1/reports', delayMs: 1500, times: 20 });
    hook()?.receive(null, { type: 'refresh' });
    await waitFor(() => posted(null)?.progressText === 'Loaded 100 of 150 reports', {
      timeoutMs: 20_000,
      intervalMs: 20,
      message: 'the first page of the refresh loaded',
    });
    assert.equal(posted(null)?.model?.total, 150, 'the figures stay while it loads');
    hook()?.receive(null, { type: 'cancel' });
    const cancelled = await waitFor(() => (posted(null)?.phase === 'cancelled' ? posted(null) : undefined), {
      message: 'cancelled',
    });
    assert.equal(cancelled.model?.total, 150, 'not the 100 the refresh had loaded');
    assert.equal(
      (cancelled as PostedState & { notice: string | null }).notice,
      'Refresh cancelled: the figures below are those from before it.',
    );
    assert.equal((cancelled as PostedState & { canContinue: boolean }).canContinue, true, 'Continue Loading is offered');
    await admin('faults', undefined, 'DELETE');
    // Continue Loading (the page posts retry) goes on from the next page: page 1 is not asked again.
    await admin('requests', undefined, 'DELETE');
    hook()?.receive(null, { type: 'retry' });
    assert.equal((await ready(null)).model?.total, 150);
    const pages = (await admin<{ method: string; path: string; query?: Record<string, string> }[]>('requests'))
      .filter((r) => r.method === 'GET' && r.path === '/api/v1/reports' && r.query?.per_page === '100')
      .map((r) => r.query?.page);
    assert.deepEqual(pages, ['2'], `pages asked: ${pages.join(', ')}`);

    await admin('faults', { method: 'GET', path: '/api/v1/reports', status: 502, body: 'html', times: 10 });
    hook()?.receive(null, { type: 'refresh' });
    const failed = await waitFor(() => (posted(null)?.phase === 'error' ? posted(null) : undefined), {
      timeoutMs: 20_000,
      message: 'the error state',
    });
    assert.equal(failed.model?.total, 150, 'the figures from before the refresh');
    assert.equal(
      (failed as PostedState & { notice: string | null }).notice,
      'The figures below are those from before this refresh.',
    );
    await admin('faults', undefined, 'DELETE');
    hook()?.receive(null, { type: 'retry' });
    assert.equal((await ready(null)).model?.total, 150);
  });

  it('shows its progress from the totals the service sends', async () => {
    // The views' own list requests may take some of these: enough for every request meanwhile.
    await admin('faults', { method: 'GET', path: '/api/v1/reports', delayMs: 700, times: 20 });
    await vscode.commands.executeCommand('pageReports.showInsights', { project: null });
    // Every state the page was sent while loading, as (phase, progress) pairs.
    const seen = new Set<string>();
    await waitFor(
      () => {
        const state = posted(null);
        if (state) seen.add(`${state.phase}: ${state.progressText ?? ''}`);
        return state?.phase === 'ready' || state?.phase === 'error';
      },
      { timeoutMs: 30_000, intervalMs: 20, message: `the end of the load (seen: ${[...seen].join(' | ')})` },
    );
    assert.ok(seen.has('loading: Loaded 100 of 150 reports'), [...seen].join(' | '));
    const state = await ready(null);
    assert.equal(state.model?.total, 150);
  });

  it('waits out a rate limit longer than the client waits by itself, saying so, and loads every report', async () => {
    await admin('faults', {
      method: 'GET',
      path: '/api/v1/reports',
      status: 429,
      body: { message: 'Too Many Attempts.' },
      headers: { 'Retry-After': '11' },
      times: 1,
    });
    await vscode.commands.executeCommand('pageReports.showInsights', { project: null });
    const seen = new Set<string>();
    await waitFor(
      () => {
        const state = posted(null);
        if (state?.progressText) seen.add(state.progressText);
        return state?.phase === 'ready' || state?.phase === 'error';
      },
      { timeoutMs: 30_000, intervalMs: 50, message: 'the end of the load' },
    );
    assert.ok(seen.has('Loading reports… (rate limited: waiting 11 s)'), [...seen].join(' | '));
    const state = await ready(null);
    assert.equal(state.model?.total, 150);
  });

  it('ends in the error state when the connection (here: its key) changes while loading, and says what changed', async () => {
    await admin('faults', { method: 'GET', path: '/api/v1/reports', delayMs: 1500, times: 20 });
    await vscode.commands.executeCommand('pageReports.showInsights', { project: null });
    await waitFor(() => posted(null)?.phase === 'loading', { message: 'loading' });
    await configure(serviceUrl(), keys().main);
    const state = await waitFor(() => (posted(null)?.phase === 'error' ? posted(null) : undefined), {
      timeoutMs: 20_000,
      message: 'the error state',
    });
    assert.match(state.error ?? '', /The API key changed while the reports were loading/);
    await admin('faults', undefined, 'DELETE');
    await configure(serviceUrl(), keys().other);
  });

  it('says the key was removed when it is removed while loading (not "changed … with the current key")', async () => {
    await admin('faults', { method: 'GET', path: '/api/v1/reports', delayMs: 1500, times: 20 });
    try {
      await vscode.commands.executeCommand('pageReports.showInsights', { project: null });
      await waitFor(() => posted(null)?.phase === 'loading', { message: 'loading' });
      assert.equal(await vscode.commands.executeCommand('pageReports.removeApiKey', { confirmed: true }), true);
      const state = await waitFor(() => (posted(null)?.phase === 'error' ? posted(null) : undefined), {
        timeoutMs: 20_000,
        message: 'the error state',
      });
      assert.equal(state.error, 'The API key was removed while the reports were loading.');
    } finally {
      await admin('faults', undefined, 'DELETE');
      await configure(serviceUrl(), keys().other);
    }
  });

  it('says its figures are another key’s after the key changed, and opens none of their reports', async () => {
    await vscode.commands.executeCommand('pageReports.showInsights', { project: null });
    const shown = await ready(null);
    const report = shown.model?.reports[0];
    assert.ok(report, 'a report in the figures');
    await configure(serviceUrl(), keys().main);
    try {
      // A notice, not a failure: nothing failed, the figures are another account's.
      const state = await waitFor(() => (posted(null)?.phase === 'cancelled' ? posted(null) : undefined), {
        message: 'the notice state',
      });
      assert.equal(
        state.notice,
        'The connection changed since these insights were loaded (the API key, or a switch of service). Refresh to load them again.',
      );
      assert.equal(state.error, null, 'not "Could not load the reports"');
      assert.equal(state.progressText, null, 'no "Loaded 1,240 of 1,240 reports" under it');
      assert.equal(state.model?.total, shown.model?.total, 'the figures stay in view under the message');
      const panelsBefore = vscode.window.tabGroups.all.flatMap((g) => g.tabs).length;
      const refusal = 'refused to open a report loaded from another service or with another key.';
      const refusals = async (): Promise<number> => (await pageReportsLogWith(/[\s\S]*/)).split(refusal).length;
      const before = await refusals();
      hook()?.receive(null, { type: 'openReport', id: report.id });
      await waitFor(async () => (await refusals()) > before, { message: 'the refusal in the log' });
      assert.equal(vscode.window.tabGroups.all.flatMap((g) => g.tabs).length, panelsBefore, 'no report panel opened');
      // Shown again, they are loaded again at once: the current key's figures.
      await vscode.commands.executeCommand('pageReports.showAllInsights');
      const current = await ready(null);
      assert.equal(current.model?.total, (await serviceReports(null)).length);
      assert.equal(current.notice ?? null, null);
    } finally {
      await configure(serviceUrl(), keys().other);
    }
  });

  it('starts over on Retry after the key changed: another account’s reports never join the ones loaded', async () => {
    // Each list answer takes 2 s: the key changes once the first 100 of 150 are in, well
    // before the second page answers.
    await admin('faults', { method: 'GET', path: '/api/v1/reports', delayMs: 2000, times: 20 });
    await vscode.commands.executeCommand('pageReports.showInsights', { project: null });
    await waitFor(() => posted(null)?.progressText === 'Loaded 100 of 150 reports', {
      timeoutMs: 20_000,
      intervalMs: 20,
      message: 'the first page loaded',
    });
    await configure(serviceUrl(), keys().main);
    const failed = await waitFor(() => (posted(null)?.phase === 'error' ? posted(null) : undefined), {
      timeoutMs: 20_000,
      message: 'the error state',
    });
    assert.equal(failed.model?.total, 100, 'what was loaded stays on screen with the error');
    await admin('faults', undefined, 'DELETE');
    hook()?.receive(null, { type: 'retry' });
    const state = await ready(null);
    // The main account's reports alone: a continued load would show 100 of the other account's plus these.
    assert.equal(state.model?.total, (await serviceReports(null)).length);
    await configure(serviceUrl(), keys().other);
  });

  // Last in this suite: it adds reports to the account the tests before count.
  it('loads pages a few at a time at a service latency, with the figures of a sequential load', async () => {
    await admin('seed', { count: 230, key: keys().other });
    const all = await serviceReports(null, keys().other);
    const want = expected(all);
    await admin('requests', undefined, 'DELETE');
    await admin('speed', { latencyMs: 100 });
    try {
      await vscode.commands.executeCommand('pageReports.showInsights', { project: null });
      const state = await ready(null);
      assert.equal(state.model?.total, all.length);
      assert.deepEqual(state.model?.results, want.results);
      assert.equal(state.model?.scores.scored, want.scored);
      assert.deepEqual(new Map(state.model?.checks.map((c) => [c.name, c.failed])), want.failed);
    } finally {
      await admin('speed', { latencyMs: 0 });
    }
    const pages = (await admin<RecordedRequest[]>('requests')).filter(
      (r) => r.path === '/api/v1/reports' && r.query.per_page === '100',
    );
    assert.deepEqual(pages.map((r) => r.query.page).sort(), ['1', '2', '3', '4']);
    assert.equal(pages[0]?.query.page, '1', 'page 1 first');
    assert.equal(maxInFlight(pages), 3, 'pages 2-4 at once');
  });
});
