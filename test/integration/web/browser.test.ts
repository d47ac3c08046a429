/**
 * What differs in the browser entry, in the web worker extension host against the reference
 * service (CORS as Laravel's default: nothing exposed). The service's request log shows what
 * the extension sent: a redirect is not followed (the browser makes it opaque), a 429 is
 * retried after the fixed backoff (the browser hides `Retry-After`), every request carries
 * the workbench's `Origin`.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { HIDDEN_ERROR_PAGE, HIDDEN_RETRY_AFTER_WAIT_MS, HTTP_BLOCKED } from '../../../src/api/browser';
import { createClient } from '../../../src/api/client';
import { isApiError } from '../../../src/api/errors';
import { describeError } from '../../../src/api/messages';
import { Setting, TestHook } from '../../../src/ids';
import type { ErrorNode } from '../../../src/views/items';
import type { ReportsView } from '../../../src/views/reportsView';
import {
  activate,
  admin,
  assertInlinePage,
  configure,
  keys,
  openedPanelHtml,
  resetService,
  serviceUrl,
  someReportId,
  waitFor,
} from '../harness';
import type { RecordedRequest } from '../../service/types';

interface LoggedRequest extends RecordedRequest {
  status: number | null;
  at: string;
  origin: string | null;
}

/** The requests the service saw for one report. */
async function requestsFor(id: number | string): Promise<LoggedRequest[]> {
  return (await admin<LoggedRequest[]>('requests')).filter((r) => r.path === `/api/v1/reports/${id}`);
}

function views(): { reportsView: ReportsView } {
  const hook = (globalThis as Record<symbol, unknown>)[TestHook.views];
  if (!hook) throw new Error('the views test hook is not set (is the extension in test mode?)');
  return hook as { reportsView: ReportsView };
}

describe('web worker extension host', function () {
  this.timeout(30_000);
  before(() => configure());
  beforeEach(() => resetService());
  after(() => resetService());

  it('runs the browser entry, without Node', async () => {
    const extension = await activate();
    // A web extension runs where the UI is.
    assert.equal(extension.extensionKind, vscode.ExtensionKind.UI);
    assert.equal(typeof (globalThis as { process?: unknown }).process, 'undefined');
  });

  it('calls the service across origins: each request carries the workbench origin', async () => {
    const id = await someReportId();
    await admin('requests', undefined, 'DELETE');
    await vscode.commands.executeCommand('pageReports.copyReportUrl', id);
    const seen = await waitFor(async () => (await requestsFor(id)).find((r) => r.status === 200), {
      message: 'the read',
    });
    assert.ok(seen.origin !== null && /^https?:\/\//.test(seen.origin), `Origin: ${String(seen.origin)}`);
    assert.notEqual(seen.origin, new URL(serviceUrl()).origin);
    assert.equal(seen.hasAuthorization, true);
  });

  it('refuses an http: service the editor’s policy blocks here (not localhost or 127.0.0.1), and sends nothing to one', async () => {
    const before = vscode.workspace.getConfiguration('pageReports').get<string>('serviceUrl');
    assert.equal(
      await vscode.commands.executeCommand('pageReports.setServiceUrl', 'http://reports.example.test'),
      false,
    );
    assert.equal(
      vscode.workspace.getConfiguration('pageReports').get<string>('serviceUrl'),
      before,
      'the setting stays',
    );
    // A URL set elsewhere (settings sync from the desktop): the request fails at once, saying why.
    let fetched = 0;
    const api = createClient({
      baseUrl: 'http://reports.example.test',
      getKey: () => 'a-key',
      fetch: (input, init) => {
        fetched++;
        return fetch(input, init);
      },
    });
    const error = await api.listReports({}, 1).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(isApiError(error) && error.kind === 'network' && error.reason === HTTP_BLOCKED, String(error));
    assert.equal(fetched, 0, 'nothing sent, not even a probe');
    assert.match(
      describeError(error).message,
      /^Cannot reach reports\.example\.test: in a browser, VS Code lets extensions use http: only to localhost and 127\.0\.0\.1/,
    );
  });

  it('tells an error page without CORS headers (a proxy’s 502) from a service without CORS, once the service has answered', async () => {
    const client = () => createClient({ baseUrl: serviceUrl(), getKey: () => keys().main, retry: { limit: 0 } });
    const failure = (api: ReturnType<typeof client>) =>
      api.listReports({}, 1).then(
        () => undefined,
        (e: unknown) => e,
      );
    const proxyError = { method: 'GET', path: '/api/v1/reports', status: 502, body: 'html', noCors: true, times: 1 };

    const answered = client();
    await answered.listReports({}, 1);
    await admin('faults', proxyError);
    const hidden = await failure(answered);
    assert.ok(isApiError(hidden) && hidden.kind === 'network' && hidden.reason === HIDDEN_ERROR_PAGE, String(hidden));
    assert.match(describeError(hidden).message, /failed with an error page the browser hides/);
    assert.deepEqual(describeError(hidden).actions, ['retry', 'showLog']);

    // A client the service never answered cannot tell: CORS, with its advice.
    await admin('faults', proxyError);
    const first = await failure(client());
    assert.ok(isApiError(first) && first.kind === 'cors', String(first));
  });

  it('a list the service refuses by CORS offers Read About CORS on its error row: the README section in Markdown preview', async () => {
    const { reportsView } = views();
    // A timeout other than the default builds a new client, one the service never answered.
    await vscode.workspace.getConfiguration().update(Setting.requestTimeout, 29, vscode.ConfigurationTarget.Global);
    try {
      await admin('faults', {
        method: 'GET',
        path: '/api/v1/reports',
        status: 200,
        body: 'html',
        noCors: true,
        times: 3,
      });
      await vscode.commands.executeCommand('pageReports.refreshReports');
      const error = (await reportsView.getChildren()).at(-1) as ErrorNode;
      assert.equal(error.kind, 'error');
      const item = reportsView.getTreeItem(error);
      assert.match(
        String(typeof item.label === 'string' ? item.label : item.label?.label),
        /does not allow requests from the browser \(CORS\)/,
      );
      assert.equal(item.description, 'Read About CORS');
      assert.equal(item.contextValue, 'error', 'its inline Retry stays');
      const [readme] = (item.command?.arguments ?? []) as vscode.Uri[];
      assert.equal(item.command?.command, 'markdown.showPreview');
      assert.ok(readme?.path.endsWith('/README.md') && readme.fragment === 'works-in-the-browser', String(readme));

      // Selecting the row runs its command: the extension's own README, in preview.
      await vscode.commands.executeCommand(item.command.command, ...(item.command.arguments ?? []));
      await waitFor(
        () =>
          vscode.window.tabGroups.all
            .flatMap((group) => group.tabs)
            .find((tab) => tab.input instanceof vscode.TabInputWebview && tab.label.includes('README')),
        { message: 'the README in Markdown preview', timeoutMs: 10_000 },
      );
    } finally {
      await admin('faults', undefined, 'DELETE');
      await vscode.workspace
        .getConfiguration()
        .update(Setting.requestTimeout, undefined, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });

  it('does not follow a redirect the browser hides, not even to the same origin', async () => {
    const id = await someReportId();
    await admin('faults', {
      method: 'GET',
      path: `/api/v1/reports/${id}`,
      status: 302,
      redirectTo: serviceUrl(),
      times: 1,
    });
    const result = await vscode.commands.executeCommand('pageReports.copyReportUrl', id);
    assert.equal(result, undefined, 'nothing copied');
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Under Node the same-origin redirect is followed: a second request answers 200.
    assert.deepEqual(
      (await requestsFor(id)).map((r) => r.status),
      [302],
    );
  });

  it('retries a 429 after the fixed backoff: the browser hides Retry-After', async () => {
    const id = await someReportId();
    // Retry-After: 0 would mean "at once" where it can be read.
    await admin('faults', {
      method: 'GET',
      path: `/api/v1/reports/${id}`,
      status: 429,
      headers: { 'Retry-After': '0' },
      times: 1,
    });
    await vscode.commands.executeCommand('pageReports.copyReportUrl', id);
    const seen = await waitFor(
      async () => {
        const requests = await requestsFor(id);
        return requests.length >= 2 ? requests : undefined;
      },
      { timeoutMs: 10_000, message: 'the retry' },
    );
    assert.deepEqual(
      seen.map((r) => r.status),
      [429, 200],
    );
    const [first, second] = seen;
    const waited = Date.parse(second?.at ?? '') - Date.parse(first?.at ?? '');
    assert.ok(waited >= HIDDEN_RETRY_AFTER_WAIT_MS - 100, `waited ${waited} ms`);
  });

  it('reads the report page script and stylesheet from the extension into the panel HTML, as in Node', async () => {
    await configure();
    assertInlinePage(await openedPanelHtml(await someReportId()));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
