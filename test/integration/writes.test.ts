/**
 * The write commands with arguments, against the reference service: each changes the
 * service's state exactly as asked, and sends its request exactly once, also when the service
 * fails it (the service counts requests; writes are never retried). Confirmations are skipped
 * with `{ confirmed: true }`, which the extension honours only in its test mode.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { admin, configure, keys, resetService, serviceUrl, waitFor } from './harness';
import { TestHook } from '../../src/ids';
import type { ReportsView } from '../../src/views/reportsView';
import type { RawReport } from '../service/types';
import type { RecordedRequest } from '../service/types';

/** The shape commands return for a report (src/api/types.ts), as far as these tests read it. */
interface ReportLike {
  id: number | string;
  url: string;
  project: string | undefined;
  privacy: number | undefined;
  generatedAt: Date | undefined;
}

interface BatchOutcome {
  succeeded: (number | string)[];
  failed: { id: number | string; message: string }[];
  skipped: (number | string)[];
}

/** Calls the service's API directly with the main key (the tests' own view of the state). */
async function api(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${serviceUrl()}${path}`, {
    ...init,
    headers: { Authorization: `Bearer ${keys().main}`, Accept: 'application/json', ...init.headers },
  });
}

async function getReport(id: number | string): Promise<RawReport | undefined> {
  const answer = await api(`/api/v1/reports/${encodeURIComponent(String(id))}`);
  if (answer.status === 404) return undefined;
  assert.equal(answer.status, 200);
  return ((await answer.json()) as { data: RawReport }).data;
}

async function reportsOfProject(project: string): Promise<RawReport[]> {
  const answer = await api(`/api/v1/reports?per_page=100&project=${encodeURIComponent(project)}`);
  return ((await answer.json()) as { data: RawReport[] }).data;
}

/** Inserts a report without analysing a page (fast fixtures). */
async function insertReport(fields: Partial<RawReport> & { url: string }): Promise<RawReport> {
  const answer = await admin<{ data?: RawReport } & Partial<RawReport>>('reports', {
    key: keys().main,
    report: { result: 'decent', score: 50, privacy: 0, generated_at: '2025-01-01T00:00:00.000000Z', ...fields },
  });
  const report = answer.data ?? (answer as RawReport);
  assert.ok(report.id !== undefined, 'the admin endpoint answers the inserted report');
  return report;
}

/** Requests of the given method the service saw since the last clear (API only). */
async function requestsOf(method: string): Promise<RecordedRequest[]> {
  return (await admin<RecordedRequest[]>('requests')).filter((r) => r.method === method);
}

/** A tree node of the Reports view, as menus pass it. */
function node(report: RawReport): unknown {
  return { kind: 'report', report: { ...report, raw: report } };
}

/** A URL of the service's demo site under a host of its own (its own project). */
function demoPage(host: string, page = 'good.html'): string {
  const port = new URL(serviceUrl()).port;
  return `http://${host}:${port}/demo-site/${page}`;
}

const run = <T>(command: string, ...args: unknown[]): Thenable<T> =>
  vscode.commands.executeCommand<T>(command, ...args);

describe('write commands', function () {
  this.timeout(30_000);

  before(async () => {
    await configure();
  });

  beforeEach(async () => {
    await resetService();
  });

  describe('New Report', () => {
    it('creates exactly one public report for the URL and answers it', async () => {
      const url = demoPage('create.localhost');
      const created = await run<ReportLike | undefined>('pageReports.createReport', { url });
      assert.ok(created, 'the command answers the new report');
      assert.equal(created.url, url);
      const stored = await getReport(created.id);
      assert.equal(stored?.url, url);
      assert.equal(stored?.privacy, 0);
      const posts = await requestsOf('POST');
      assert.equal(posts.length, 1);
      assert.deepEqual([...(posts[0]?.bodyFields ?? [])].sort(), ['privacy', 'url']);
    });

    it('creates a password-protected report: privacy 2, the password sent once in the body', async () => {
      const url = demoPage('password.localhost');
      const created = await run<ReportLike | undefined>('pageReports.createReport', {
        url,
        privacy: 2,
        password: 'correct horse battery',
      });
      assert.ok(created);
      assert.equal((await getReport(created.id))?.privacy, 2);
      const posts = await requestsOf('POST');
      assert.equal(posts.length, 1);
      assert.deepEqual([...(posts[0]?.bodyFields ?? [])].sort(), ['password', 'privacy', 'url']);
    });

    it('refuses what is not an absolute http(s) URL, or Password without one, before sending anything', async () => {
      for (const args of [
        { url: 'example.com/pricing' },
        { url: 'ftp://example.com/file' },
        { url: 'javascript:alert(1)' },
        { url: 'https://exa mple.com/' },
        { url: '' },
        { url: demoPage('nopassword.localhost'), privacy: 2 },
        { url: demoPage('badprivacy.localhost'), privacy: 7 },
      ]) {
        assert.equal(await run('pageReports.createReport', args), undefined, JSON.stringify(args));
      }
      assert.deepEqual(await requestsOf('POST'), []);
    });

    it('sends a failing store once: a 502 is not retried and creates nothing', async () => {
      const url = demoPage('fails.localhost');
      await admin('faults', { method: 'POST', path: '/api/v1/reports', status: 502, body: 'html', times: 3 });
      assert.equal(await run('pageReports.createReport', { url }), undefined);
      assert.equal((await requestsOf('POST')).length, 1);
      assert.deepEqual(await reportsOfProject('fails.localhost'), []);
    });

    it('sends a store the service refuses (422: the page cannot be fetched) once', async () => {
      const url = demoPage('missing.localhost', 'no-such-page.html');
      assert.equal(await run('pageReports.createReport', { url }), undefined);
      assert.equal((await requestsOf('POST')).length, 1);
      assert.deepEqual(await reportsOfProject('missing.localhost'), []);
    });
  });

  describe('Re-analyze', () => {
    it('runs the analysis again (update=1): a new generated date, one PATCH', async () => {
      const before = await insertReport({ url: demoPage('again.localhost') });
      const updated = await run<ReportLike | undefined>('pageReports.reanalyzeReport', { id: before.id });
      assert.ok(updated);
      const after = await getReport(before.id);
      assert.notEqual(after?.generated_at, before.generated_at);
      assert.ok(updated.generatedAt instanceof Date && updated.generatedAt.getTime() > Date.parse(before.generated_at));
      const patches = await requestsOf('PATCH');
      assert.equal(patches.length, 1);
      assert.deepEqual(patches[0]?.bodyFields, ['update']);
    });

    it('sends a failing re-analysis once (503 is not retried) and leaves the report as it was', async () => {
      const before = await insertReport({ url: demoPage('again.localhost') });
      await admin('faults', { method: 'PATCH', path: '/api/v1/reports', status: 503, times: 3 });
      assert.equal(await run('pageReports.reanalyzeReport', before.id), undefined);
      assert.equal((await requestsOf('PATCH')).length, 1);
      assert.equal((await getReport(before.id))?.generated_at, before.generated_at);
    });

    it('reloads the lists after it: a report no longer bad leaves a list of bad reports', async () => {
      const report = await insertReport({ url: demoPage('fixed.localhost'), result: 'bad', score: 12 });
      const { reportsView } = (globalThis as Record<symbol, unknown>)[TestHook.views] as { reportsView: ReportsView };
      const listed = async (): Promise<boolean> =>
        (await reportsView.getChildren()).some((n) => n.kind === 'report' && String(n.report.id) === String(report.id));
      await run('pageReports.filterReports', { result: 'bad', search: 'fixed.localhost' });
      try {
        assert.equal(await listed(), true, 'listed as bad before');
        await run('pageReports.reanalyzeReport', node(report));
        assert.equal((await getReport(report.id))?.result, 'good', 'the demo page analyses as good');
        await waitFor(async () => !(await listed()), { message: 'the row to leave the list of bad reports' });
      } finally {
        await run('pageReports.clearReportFilters');
      }
    });

    it('never sends the same re-analysis twice while the first is in flight', async () => {
      const report = await insertReport({ url: demoPage('double.localhost') });
      // The service takes a while: the second click arrives while the first is in flight.
      await admin('faults', { method: 'PATCH', path: '/api/v1/reports', delayMs: 800, times: 1 });
      await Promise.all([
        run('pageReports.reanalyzeReport', node(report)),
        run('pageReports.reanalyzeReport', node(report)),
      ]);
      assert.equal((await requestsOf('PATCH')).length, 1);
    });

    it('one write at a time on a report: Change Privacy or Delete while it is re-analyzed is refused, and its row stays busy until the re-analysis ends', async () => {
      const report = await insertReport({ url: demoPage('busy.localhost') });
      const { reportsView } = (globalThis as Record<symbol, unknown>)[TestHook.views] as { reportsView: ReportsView };
      await run('pageReports.refreshReports');
      const row = (await reportsView.getChildren()).find(
        (n) => n.kind === 'report' && String(n.report.id) === String(report.id),
      );
      assert.ok(row, 'the report has a row');
      await admin('faults', { method: 'PATCH', path: `/api/v1/reports/${String(report.id)}`, delayMs: 1500, times: 1 });
      const reanalyzing = run('pageReports.reanalyzeReport', node(report));
      await waitFor(() => reportsView.getTreeItem(row).contextValue === 'report.busy', { message: 'the row busy' });

      const privacy = await run('pageReports.changeReportPrivacy', { id: report.id }, { privacy: 1 });
      assert.equal(privacy, undefined, 'Change Privacy is refused');
      const deleted = await run('pageReports.deleteReport', node(report), undefined, { confirmed: true });
      assert.ok(!deleted, 'Delete is refused');
      assert.equal(reportsView.getTreeItem(row).contextValue, 'report.busy', 'still busy: the re-analysis runs');

      await reanalyzing;
      assert.equal(reportsView.getTreeItem(row).contextValue, 'report');
      assert.deepEqual(
        (await admin<RecordedRequest[]>('requests')).filter((r) => r.method !== 'GET').map((r) => r.method),
        ['PATCH'],
        'only the re-analysis was sent',
      );
      assert.ok(await getReport(report.id), 'the report is still there');
      assert.equal((await getReport(report.id))?.privacy, 0);
    });
  });

  describe('one write at a time in a batch', () => {
    it('a selected report another write holds fails in the summary as "Still being changed by another command.", the rest is deleted', async () => {
      const busy = await insertReport({ url: demoPage('held.localhost') });
      const free = await insertReport({ url: demoPage('free.localhost') });
      await admin('faults', { method: 'PATCH', path: `/api/v1/reports/${String(busy.id)}`, delayMs: 1500, times: 1 });
      const reanalyzing = run('pageReports.reanalyzeReport', node(busy));
      await waitFor(async () => (await requestsOf('PATCH')).length === 1, { message: 'the re-analysis sent' });
      const outcome = await run<BatchOutcome>('pageReports.deleteReport', node(busy), [node(busy), node(free)], {
        confirmed: true,
      });
      await reanalyzing;
      assert.deepEqual(outcome.succeeded.map(String), [String(free.id)]);
      // The summary names the page (issue 45), not the id.
      assert.deepEqual(outcome.failed, [
        { id: busy.id, message: 'Still being changed by another command.', name: '/demo-site/good.html on held.localhost' },
      ]);
      assert.ok(await getReport(busy.id), 'the held report is still there');
    });
  });

  describe('Change Privacy', () => {
    it('sets each privacy as asked, with a password only for Password', async () => {
      const report = await insertReport({ url: demoPage('privacy.localhost') });
      const priv = await run<ReportLike | undefined>(
        'pageReports.changeReportPrivacy',
        { id: report.id },
        { privacy: 1 },
      );
      assert.equal(priv?.privacy, 1);
      assert.equal((await getReport(report.id))?.privacy, 1);

      const pw = await run<ReportLike | undefined>('pageReports.changeReportPrivacy', report.id, {
        privacy: 2,
        password: 'tr0ub4dor&3',
      });
      assert.equal(pw?.privacy, 2);
      assert.equal((await getReport(report.id))?.privacy, 2);

      const pub = await run<ReportLike | undefined>('pageReports.changeReportPrivacy', node(report), { privacy: 0 });
      assert.equal(pub?.privacy, 0);
      assert.equal((await getReport(report.id))?.privacy, 0);

      const patches = await requestsOf('PATCH');
      assert.deepEqual(
        patches.map((p) => [...p.bodyFields].sort()),
        [['privacy'], ['password', 'privacy'], ['privacy']],
      );
    });

    it('refuses Password without a password, and an unknown privacy, before sending anything', async () => {
      const report = await insertReport({ url: demoPage('privacy.localhost') });
      assert.equal(await run('pageReports.changeReportPrivacy', report.id, { privacy: 2 }), undefined);
      assert.equal(await run('pageReports.changeReportPrivacy', report.id, { privacy: 2, password: '' }), undefined);
      assert.equal(await run('pageReports.changeReportPrivacy', report.id, { privacy: 3 }), undefined);
      assert.deepEqual(await requestsOf('PATCH'), []);
      assert.equal((await getReport(report.id))?.privacy, 0);
    });

    it('sends a failing change once', async () => {
      const report = await insertReport({ url: demoPage('privacy.localhost') });
      await admin('faults', { method: 'PATCH', path: '/api/v1/reports', status: 500, times: 3 });
      assert.equal(await run('pageReports.changeReportPrivacy', report.id, { privacy: 1 }), undefined);
      assert.equal((await requestsOf('PATCH')).length, 1);
      assert.equal((await getReport(report.id))?.privacy, 0);
    });
  });

  describe('Delete Report', () => {
    it('deletes the report after the confirmation: one DELETE, and it is gone', async () => {
      const report = await insertReport({ url: demoPage('delete.localhost') });
      assert.equal(await run('pageReports.deleteReport', node(report), undefined, { confirmed: true }), true);
      assert.equal(await getReport(report.id), undefined);
      assert.equal((await requestsOf('DELETE')).length, 1);
    });

    it('drops the deleted report’s row even when the list cannot be loaded again after it', async () => {
      const report = await insertReport({ url: demoPage('norefresh.localhost') });
      const { reportsView } = (globalThis as Record<symbol, unknown>)[TestHook.views] as { reportsView: ReportsView };
      await run('pageReports.refreshReports');
      const listed = async (): Promise<boolean> =>
        (await reportsView.getChildren()).some((n) => n.kind === 'report' && String(n.report.id) === String(report.id));
      assert.equal(await listed(), true, 'listed before');
      await admin('faults', { method: 'GET', path: '/api/v1/reports', status: 502, times: 20 });
      try {
        assert.equal(await run('pageReports.deleteReport', node(report), undefined, { confirmed: true }), true);
        assert.equal(await listed(), false, 'its row left although the refresh failed');
      } finally {
        await admin('faults', undefined, 'DELETE');
      }
    });

    it('deletes nothing without the confirmation', async () => {
      const report = await insertReport({ url: demoPage('delete.localhost') });
      // The test host refuses to show modal dialogs: unconfirmed means not deleted.
      const result = await run('pageReports.deleteReport', { id: report.id });
      assert.notEqual(result, true);
      assert.ok(await getReport(report.id), 'the report is still there');
      assert.deepEqual(await requestsOf('DELETE'), []);
    });

    it('sends a failing delete once and keeps the report', async () => {
      const report = await insertReport({ url: demoPage('delete.localhost') });
      await admin('faults', { method: 'DELETE', path: '/api/v1/reports', status: 500, times: 3 });
      assert.equal(await run('pageReports.deleteReport', report.id, undefined, { confirmed: true }), false);
      assert.equal((await requestsOf('DELETE')).length, 1);
      assert.ok(await getReport(report.id));
    });

    it('never sends the same delete twice while the first is in flight', async () => {
      const report = await insertReport({ url: demoPage('delete.localhost') });
      await admin('faults', { method: 'DELETE', path: '/api/v1/reports', delayMs: 800, times: 1 });
      const first = run('pageReports.deleteReport', node(report), undefined, { confirmed: true });
      // The second comes while the first's DELETE is on its way (not while it asks: see below).
      await waitFor(async () => (await requestsOf('DELETE')).length === 1, { message: 'the first DELETE sent' });
      const second = run('pageReports.deleteReport', node(report), undefined, { confirmed: true });
      const results = await Promise.all([first, second]);
      assert.deepEqual([...results].sort(), [false, true]);
      assert.equal((await requestsOf('DELETE')).length, 1);
      assert.equal(await getReport(report.id), undefined);
    });

    it('asks once when Delete is chosen twice while the first is still preparing its question (a double click), and sends one DELETE', async () => {
      const report = await insertReport({ url: demoPage('delete.localhost') });
      // The first call is still loading the report to name it in its question when the second comes.
      await admin('faults', { method: 'GET', path: `/api/v1/reports/${String(report.id)}`, delayMs: 800, times: 1 });
      const results = await Promise.all([
        run('pageReports.deleteReport', { id: report.id }, undefined, { confirmed: true }),
        run('pageReports.deleteReport', { id: report.id }, undefined, { confirmed: true }),
      ]);
      assert.deepEqual([...results].sort(), [false, true]);
      assert.equal((await requestsOf('DELETE')).length, 1);
      const loads = (await requestsOf('GET')).filter((r) => r.path === `/api/v1/reports/${String(report.id)}`);
      assert.equal(loads.length, 1, 'the report was loaded for one question');
    });

    it('deletes several selected reports with one confirmation and says what happened to each', async () => {
      const reports = await Promise.all(
        ['a', 'b', 'c'].map((p) => insertReport({ url: demoPage('batch.localhost', `${p}.html`) })),
      );
      const nodes = reports.map(node);
      const outcome = await run<BatchOutcome>('pageReports.deleteReport', nodes[0], nodes, { confirmed: true });
      assert.deepEqual([...outcome.succeeded].map(String).sort(), reports.map((r) => String(r.id)).sort());
      assert.deepEqual(outcome.failed, []);
      assert.deepEqual(await reportsOfProject('batch.localhost'), []);
      assert.equal((await requestsOf('DELETE')).length, 3);
    });

    it('asks once when Delete of the same selection is chosen twice (the Delete key pressed twice): one batch, one DELETE each', async () => {
      const reports = await Promise.all(
        ['a', 'b'].map((p) => insertReport({ url: demoPage('twice-selected.localhost', `${p}.html`) })),
      );
      const nodes = reports.map(node);
      // The first batch is still deleting when the second comes.
      await admin('faults', { method: 'DELETE', path: '/api/v1/reports', delayMs: 500, times: 2 });
      const outcomes = await Promise.all([
        run<BatchOutcome | undefined>('pageReports.deleteReport', nodes[0], nodes, { confirmed: true }),
        run<BatchOutcome | undefined>('pageReports.deleteReport', nodes[1], [...nodes].reverse(), { confirmed: true }),
      ]);
      assert.equal(outcomes.filter((o) => o === undefined).length, 1, 'the second ended at the question');
      assert.equal((await requestsOf('DELETE')).length, 2);
      assert.deepEqual(await reportsOfProject('twice-selected.localhost'), []);
    });

    it('goes on after one failure in a selection and reports it', async () => {
      const reports = await Promise.all(
        ['a', 'b', 'c'].map((p) => insertReport({ url: demoPage('batchfail.localhost', `${p}.html`) })),
      );
      const failing = reports[1];
      await admin('faults', {
        method: 'DELETE',
        path: `/api/v1/reports/${encodeURIComponent(String(failing.id))}`,
        status: 500,
        times: 3,
      });
      const nodes = reports.map(node);
      const outcome = await run<BatchOutcome>('pageReports.deleteReport', nodes[2], nodes, { confirmed: true });
      assert.equal(outcome.succeeded.length, 2);
      assert.deepEqual(
        outcome.failed.map((f) => String(f.id)),
        [String(failing.id)],
      );
      assert.deepEqual(
        (await reportsOfProject('batchfail.localhost')).map((r) => String(r.id)),
        [String(failing.id)],
      );
      assert.equal((await requestsOf('DELETE')).length, 3, 'one DELETE per report, the failed one not retried');
    });

    it('Copy as Markdown of a selection with a report deleted elsewhere copies the rest, and the lists drop its row', async () => {
      const reports = await Promise.all(
        ['good.html', 'bad.html'].map((p) => insertReport({ url: demoPage('batchgone.localhost', p) })),
      );
      const { reportsView } = (globalThis as Record<symbol, unknown>)[TestHook.views] as { reportsView: ReportsView };
      const listed = async (id: number | string): Promise<boolean> =>
        (await reportsView.getChildren()).some((n) => n.kind === 'report' && String(n.report.id) === String(id));
      await run('pageReports.filterReports', { search: 'batchgone.localhost' });
      try {
        assert.equal(await listed(reports[0].id), true);
        assert.equal((await api(`/api/v1/reports/${String(reports[0].id)}`, { method: 'DELETE' })).status, 200);
        // Rows of the summaries a list keeps: each report is loaded from the service.
        const nodes = reports.map((r) => ({
          kind: 'report',
          report: { ...r, raw: r, summary: { checks: 0, failed: 0 } },
        }));
        const text = await run<string | undefined>('pageReports.copyReportMarkdown', nodes[0], nodes);
        assert.ok(text?.includes(reports[1].url), 'the other report was copied');
        await waitFor(async () => !(await listed(reports[0].id)), { message: 'the deleted report’s row gone' });
      } finally {
        await run('pageReports.clearReportFilters');
      }
    });

    it('re-analyzes several selected reports with one confirmation', async () => {
      const reports = await Promise.all(
        ['a', 'b'].map((p) =>
          insertReport({ url: demoPage('batchagain.localhost', p === 'a' ? 'good.html' : 'bad.html') }),
        ),
      );
      const nodes = reports.map(node);
      const outcome = await run<BatchOutcome>('pageReports.reanalyzeReport', nodes[0], nodes, { confirmed: true });
      assert.equal(outcome.succeeded.length, 2);
      for (const r of reports) assert.notEqual((await getReport(r.id))?.generated_at, r.generated_at);
      assert.equal((await requestsOf('PATCH')).length, 2);
    });

    it('waits out the service’s rate limit (429, Retry-After) and sends the refused item again', async () => {
      const reports = await Promise.all(
        ['good.html', 'bad.html'].map((p) => insertReport({ url: demoPage('ratelimit.localhost', p) })),
      );
      // The second update is refused once: wait 1 s, it says.
      await admin('faults', {
        method: 'PATCH',
        path: `/api/v1/reports/${encodeURIComponent(String(reports[1].id))}`,
        status: 429,
        headers: { 'Retry-After': '1' },
        body: { message: 'Too Many Attempts.' },
        times: 1,
      });
      const nodes = reports.map(node);
      const outcome = await run<BatchOutcome>('pageReports.reanalyzeReport', nodes[0], nodes, { confirmed: true });
      assert.equal(outcome.succeeded.length, 2, JSON.stringify(outcome.failed));
      assert.deepEqual(outcome.failed, []);
      for (const r of reports) assert.notEqual((await getReport(r.id))?.generated_at, r.generated_at);
      assert.equal((await requestsOf('PATCH')).length, 3, 'the refused update sent once more, no more');
    });

    it('stops when the user removes the API key meanwhile: the rest is not sent without a key, and the summary says why', async () => {
      const reports = await Promise.all(
        ['a', 'b', 'c', 'd', 'e'].map((p) => insertReport({ url: demoPage('keyremoved.localhost', `${p}.html`) })),
      );
      const ids = reports.map((r) => String(r.id));
      // The first three deletes (three go at once) are answered after 2 s: the user removes the key meanwhile.
      await admin('faults', { method: 'DELETE', path: '/api/v1/reports/', delayMs: 2000, times: 3 });
      const nodes = reports.map(node);
      try {
        const batch = run<BatchOutcome & { stoppedBy?: string }>('pageReports.deleteReport', nodes[0], nodes, {
          confirmed: true,
        });
        await waitFor(async () => (await requestsOf('DELETE')).length === 3, { message: 'three deletes sent' });
        assert.equal(await run('pageReports.removeApiKey', { confirmed: true }), true);
        const outcome = await batch;
        assert.deepEqual(outcome.succeeded.map(String), ids.slice(0, 3), 'the deletes already sent finished');
        assert.deepEqual(outcome.failed, [], 'nothing failed as "the key was rejected"');
        assert.deepEqual(outcome.skipped.map(String), ids.slice(3));
        assert.equal(outcome.stoppedBy, 'keyRemoved');
        const sent = await admin<RecordedRequest[]>('requests');
        assert.deepEqual(
          sent.filter((r) => r.path.startsWith('/api/') && !r.hasAuthorization),
          [],
          'nothing was sent without the key',
        );
        assert.equal((await requestsOf('DELETE')).length, 3, 'the rest was not sent');
      } finally {
        await configure();
      }
    });

    it('sends bulk writes three at a time, each once; Cancel sends no more, and the writes in flight finish and are counted', async () => {
      const reports = await Promise.all(
        Array.from({ length: 8 }, (_, i) => insertReport({ url: demoPage('three.localhost', `p${i}.html`) })),
      );
      const ids = reports.map((r) => String(r.id));
      // Each delete takes 600 ms: enough to see how many are in flight at once.
      await admin('faults', { method: 'DELETE', path: '/api/v1/reports/', delayMs: 600, times: 8 });
      const nodes = reports.map(node);
      const deleting = run<BatchOutcome>('pageReports.deleteReport', nodes[0], nodes, { confirmed: true });
      let most = 0;
      let done = false;
      void deleting.then(() => (done = true));
      while (!done) {
        const inFlight = (await requestsOf('DELETE')).filter((r) => r.status === null).length;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const outcome = await deleting;
      assert.equal(most, 3, 'three in flight at most, and three at once');
      assert.deepEqual(outcome.succeeded.map(String), ids, 'all deleted, in order');
      const deletes = await requestsOf('DELETE');
      assert.deepEqual(deletes.map((r) => r.path).sort(), ids.map((id) => `/api/v1/reports/${id}`).sort(), 'each once');

      // Re-analyze of 8 more, cancelled while the first three are in flight.
      const more = await Promise.all(
        Array.from({ length: 8 }, (_, i) => insertReport({ url: demoPage('cancel.localhost', i % 2 ? 'good.html' : 'bad.html') })),
      );
      await admin('requests', undefined, 'DELETE');
      await admin('faults', { method: 'PATCH', path: '/api/v1/reports/', delayMs: 1500, times: 8 });
      const again = run<BatchOutcome & { cancelled?: boolean }>(
        'pageReports.reanalyzeReport',
        node(more[0]),
        more.map(node),
        { confirmed: true },
      );
      await waitFor(async () => (await requestsOf('PATCH')).length === 3, { message: 'three re-analyses sent' });
      const hook = (globalThis as Record<symbol, unknown>)[TestHook.batch] as { cancel(): void };
      hook.cancel();
      const cancelled = await again;
      assert.equal(cancelled.cancelled, true);
      const moreIds = more.map((r) => String(r.id));
      assert.deepEqual(cancelled.succeeded.map(String), moreIds.slice(0, 3), 'the writes in flight finished and count');
      assert.deepEqual(cancelled.skipped.map(String), moreIds.slice(3), 'the rest not started');
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal((await requestsOf('PATCH')).length, 3, 'no write sent after Cancel');
    });
  });

  describe('Delete Project', () => {
    it('deletes the project and its reports after the confirmation, with one DELETE', async () => {
      await insertReport({ url: demoPage('gone.localhost', 'good.html') });
      await insertReport({ url: demoPage('gone.localhost', 'bad.html') });
      await insertReport({ url: demoPage('stays.localhost', 'good.html') });
      const project = { kind: 'project', project: { name: 'gone.localhost', createdAt: undefined, raw: {} } };
      assert.equal(await run('pageReports.deleteProject', project, { confirmed: true }), true);
      assert.deepEqual(await reportsOfProject('gone.localhost'), []);
      assert.equal((await reportsOfProject('stays.localhost')).length, 1);
      const deletes = await requestsOf('DELETE');
      assert.equal(deletes.length, 1);
      assert.match(deletes[0]?.path ?? '', /\/api\/v1\/projects\/gone\.localhost$/);
    });

    it('deletes nothing without the confirmation, and a failing delete is sent once', async () => {
      await insertReport({ url: demoPage('kept.localhost') });
      assert.notEqual(await run('pageReports.deleteProject', 'kept.localhost'), true);
      assert.deepEqual(await requestsOf('DELETE'), []);
      await admin('faults', { method: 'DELETE', path: '/api/v1/projects', status: 502, times: 3 });
      assert.equal(await run('pageReports.deleteProject', 'kept.localhost', { confirmed: true }), false);
      assert.equal((await requestsOf('DELETE')).length, 1);
      assert.equal((await reportsOfProject('kept.localhost')).length, 1);
    });

    it('asks once when Delete Project is chosen twice while the first is still preparing its question, and sends one DELETE', async () => {
      await insertReport({ url: demoPage('twice.localhost') });
      // The first call is still counting the project's reports for its question when the second comes.
      await admin('faults', {
        method: 'GET',
        path: '/api/v1/reports',
        query: { project: 'twice.localhost' },
        delayMs: 800,
        times: 1,
      });
      const results = await Promise.all([
        run('pageReports.deleteProject', 'twice.localhost', { confirmed: true }),
        run('pageReports.deleteProject', 'twice.localhost', { confirmed: true }),
      ]);
      assert.deepEqual([...results].sort(), [false, true]);
      assert.equal((await requestsOf('DELETE')).length, 1);
    });

    it('counts a project that is gone already (404) as deleted, sent once', async () => {
      await insertReport({ url: demoPage('elsewhere.localhost') });
      // Deleted elsewhere after the user chose it.
      await admin('faults', { method: 'DELETE', path: '/api/v1/projects', status: 404, times: 1 });
      assert.equal(await run('pageReports.deleteProject', 'elsewhere.localhost', { confirmed: true }), true);
      assert.equal((await requestsOf('DELETE')).length, 1);
    });
  });
});
