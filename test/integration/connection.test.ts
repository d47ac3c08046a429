/**
 * The connection, driven through its commands with arguments: the service URL setting, the
 * key checked before it is saved, the state it leaves the extension in, and the key kept per
 * service origin. The state is observed the way a user meets it: a command that needs the
 * service either reaches it (with the key) or sends nothing.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activate, admin, disconnect, itInNode, keys, resetService, serviceUrl, someReportId } from './harness';
import { adminCall } from '../service/adminClient';
import type { RecordedRequest } from '../service/types';
import { TestHook } from '../../src/ids';
import type { ReportsView } from '../../src/views/reportsView';

/** API requests the service saw since the last clear. */
async function requests(base: string = serviceUrl()): Promise<RecordedRequest[]> {
  return adminCall<RecordedRequest[]>(base, 'requests');
}

async function clearRequests(base: string = serviceUrl()): Promise<void> {
  await adminCall(base, 'requests', undefined, 'DELETE');
}

/**
 * Runs a command that needs the service (Copy URL of a report, by id) and says whether it
 * reached the service, and with which Authorization.
 */
async function probe(base: string = serviceUrl()): Promise<{ result: unknown; requests: RecordedRequest[] }> {
  const id = await someReportId();
  await clearRequests(base);
  const result = await vscode.commands.executeCommand('pageReports.copyReportUrl', id);
  return { result, requests: await requests(base) };
}

function serviceUrlSetting(): { global: unknown; workspace: unknown } {
  const inspected = vscode.workspace.getConfiguration('pageReports').inspect<string>('serviceUrl');
  return { global: inspected?.globalValue, workspace: inspected?.workspaceValue };
}

describe('connection', function () {
  this.timeout(30_000);

  before(async () => {
    await activate();
    await resetService();
  });

  beforeEach(async () => {
    await disconnect();
    await clearRequests();
  });

  after(async () => {
    // Leave the extension connected for the suites that follow.
    await disconnect();
    await vscode.commands.executeCommand('pageReports.setServiceUrl', serviceUrl());
    await vscode.commands.executeCommand('pageReports.setApiKey', keys().main);
  });

  it('without a service URL sends nothing, and Set API Key refuses to check a key', async () => {
    const saved = await vscode.commands.executeCommand<boolean>('pageReports.setApiKey', keys().main);
    assert.equal(saved, false);
    const { result, requests: seen } = await probe();
    assert.equal(result, undefined, 'Copy URL does nothing without a connection');
    assert.deepEqual(seen, [], 'no request reaches the service');
  });

  it('checks and normalizes the service URL, and writes it to the user (application) settings', async () => {
    for (const bad of ['ftp://example.com', 'example.com', 'http://user:pw@127.0.0.1:1', 'https://x.test/?q=1', '']) {
      const ok = await vscode.commands.executeCommand<boolean>('pageReports.setServiceUrl', bad);
      assert.equal(ok, false, `refused: ${JSON.stringify(bad)}`);
      assert.equal(serviceUrlSetting().global, undefined, `nothing written for ${JSON.stringify(bad)}`);
    }
    // Upper-case scheme and trailing slashes: stored as the normalized base URL.
    const messy = `HTTP${serviceUrl().slice('http'.length)}//`;
    const ok = await vscode.commands.executeCommand<boolean>('pageReports.setServiceUrl', messy);
    assert.equal(ok, true);
    assert.deepEqual(serviceUrlSetting(), { global: serviceUrl(), workspace: undefined });
  });

  it('a key the service rejects (401) is not saved, and the extension stays without a key', async () => {
    assert.equal(await vscode.commands.executeCommand('pageReports.setServiceUrl', serviceUrl()), true);
    await clearRequests();
    const saved = await vscode.commands.executeCommand<boolean>('pageReports.setApiKey', 'not-a-valid-key');
    assert.equal(saved, false);
    const checks = await requests();
    assert.equal(checks.length, 1, 'one check request');
    assert.equal(checks[0]?.hasAuthorization, true);
    assert.match(checks[0]?.path ?? '', /^\/api\/v1\//);

    const { result, requests: seen } = await probe();
    assert.equal(result, undefined);
    assert.deepEqual(seen, [], 'without a saved key nothing is sent');
    assert.equal(
      await vscode.commands.executeCommand('pageReports.removeApiKey', { confirmed: true }),
      false,
      'there is no key to remove',
    );
  });

  it('refuses keys with spaces or nothing in them without asking the service', async () => {
    assert.equal(await vscode.commands.executeCommand('pageReports.setServiceUrl', serviceUrl()), true);
    await clearRequests();
    for (const bad of ['', '   ', 'two words']) {
      assert.equal(await vscode.commands.executeCommand('pageReports.setApiKey', bad), false);
    }
    assert.deepEqual(await requests(), []);
  });

  it('a key the service accepts is saved: commands reach the service with it; Remove API Key ends that', async () => {
    assert.equal(await vscode.commands.executeCommand('pageReports.setServiceUrl', serviceUrl()), true);
    assert.equal(await vscode.commands.executeCommand('pageReports.setApiKey', keys().main), true);

    const ready = await probe();
    assert.equal(typeof ready.result, 'string', 'Copy URL answers the report URL');
    assert.ok(ready.requests.length >= 1);
    assert.ok(
      ready.requests.every((r) => r.hasAuthorization),
      'every request carries the key',
    );

    assert.equal(await vscode.commands.executeCommand('pageReports.removeApiKey', { confirmed: true }), true);
    const removed = await probe();
    assert.equal(removed.result, undefined);
    assert.deepEqual(removed.requests, []);
  });

  it('a key that authenticates but may not use the API (403) is not saved silently', async () => {
    assert.equal(await vscode.commands.executeCommand('pageReports.setServiceUrl', serviceUrl()), true);
    const saved = await vscode.commands.executeCommand<boolean>('pageReports.setApiKey', keys().forbidden);
    assert.equal(saved, false, 'the command offers to save anyway, it does not save on its own');
    assert.deepEqual((await probe()).requests, []);
  });

  it('a service that cannot be reached saves nothing (the user may choose Save Anyway)', async () => {
    assert.equal(await vscode.commands.executeCommand('pageReports.setServiceUrl', serviceUrl()), true);
    await admin('faults', { path: '/api/v1/', status: 503, times: 5 });
    try {
      const saved = await vscode.commands.executeCommand<boolean>('pageReports.setApiKey', keys().main);
      assert.equal(saved, false);
    } finally {
      await admin('faults', undefined, 'DELETE');
    }
    assert.deepEqual((await probe()).requests, []);
  });

  // A second service is started in this host: Node only (the web host runs the same rule through the first service).
  itInNode('keeps one key per service origin: a second service never receives the first one', async () => {
    const { startService } = await import('../service/server');
    const second = await startService({
      port: 0,
      keys: ['second-key'],
      seed: 3,
      faults: true,
      quiet: true,
      rateLimit: 0,
    });
    try {
      assert.equal(await vscode.commands.executeCommand('pageReports.setServiceUrl', serviceUrl()), true);
      assert.equal(await vscode.commands.executeCommand('pageReports.setApiKey', keys().main), true);

      // Switch servers: the first key stays with the first origin.
      await clearRequests(second.url);
      assert.equal(await vscode.commands.executeCommand('pageReports.setServiceUrl', second.url), true);
      const copied = await vscode.commands.executeCommand('pageReports.copyReportUrl', 1);
      assert.equal(copied, undefined, 'no key for the second origin: nothing to send');
      assert.deepEqual(await requests(second.url), [], 'the second service saw no request at all');

      // The second service's own key works there.
      assert.equal(await vscode.commands.executeCommand('pageReports.setApiKey', 'second-key'), true);
      await clearRequests(second.url);
      assert.equal(typeof (await vscode.commands.executeCommand('pageReports.copyReportUrl', 1)), 'string');
      assert.ok((await requests(second.url)).every((r) => r.hasAuthorization));

      // Back to the first server: its key is still there, the second key is not sent to it.
      await clearRequests();
      assert.equal(await vscode.commands.executeCommand('pageReports.setServiceUrl', serviceUrl()), true);
      const back = await probe();
      assert.equal(typeof back.result, 'string', 'the first key is used again for the first origin');
    } finally {
      // Remove the second origin's key, then the first service is set again by `after`.
      await vscode.commands.executeCommand('pageReports.setServiceUrl', second.url);
      await vscode.commands.executeCommand('pageReports.removeApiKey', { confirmed: true });
      await second.stop();
    }
  });

  it('applies a changed request timeout at once', async () => {
    assert.equal(await vscode.commands.executeCommand('pageReports.setServiceUrl', serviceUrl()), true);
    assert.equal(await vscode.commands.executeCommand('pageReports.setApiKey', keys().main), true);
    const id = await someReportId();
    const config = vscode.workspace.getConfiguration('pageReports');
    await config.update('requestTimeout', 1, vscode.ConfigurationTarget.Global);
    try {
      await admin('faults', { path: `/api/v1/reports/${id}`, delayMs: 4000, times: 5 });
      const started = Date.now();
      const result = await vscode.commands.executeCommand('pageReports.copyReportUrl', id);
      const elapsed = Date.now() - started;
      assert.equal(result, undefined, 'the read timed out');
      // A timeout is not retried (the user already waited it out): about 1 s, not 4.
      assert.ok(elapsed < 3000, `gave up after ${elapsed} ms`);
    } finally {
      await admin('faults', undefined, 'DELETE');
      await config.update('requestTimeout', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('a changed request timeout does not start the lists over: it is no change of service', async () => {
    const hook = (globalThis as Record<symbol, unknown>)[TestHook.views] as { reportsView: ReportsView } | undefined;
    assert.ok(hook, 'the views test hook');
    const { reportsView } = hook;
    assert.equal(await vscode.commands.executeCommand('pageReports.setServiceUrl', serviceUrl()), true);
    assert.equal(await vscode.commands.executeCommand('pageReports.setApiKey', keys().main), true);
    await vscode.commands.executeCommand('pageReports.reports.focus');
    const config = vscode.workspace.getConfiguration('pageReports');
    await config.update('pageSize', 10, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('pageReports.refreshReports');
    const last = (await reportsView.getChildren()).at(-1);
    assert.equal(last?.kind, 'loadMore', 'more than one page to load');
    await vscode.commands.executeCommand('pageReports.loadMore', last);
    const before = (await reportsView.getChildren()).length;
    await clearRequests();
    await config.update('requestTimeout', 20, vscode.ConfigurationTarget.Global);
    try {
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal((await reportsView.getChildren()).length, before, 'the pages loaded stay');
      const lists = (await requests()).filter((r) => r.path === '/api/v1/reports');
      assert.deepEqual(lists, [], 'nothing loaded again');
    } finally {
      await config.update('requestTimeout', undefined, vscode.ConfigurationTarget.Global);
      await config.update('pageSize', undefined, vscode.ConfigurationTarget.Global);
      // Hidden again: the suites after this one count the requests of what they show.
      await vscode.commands.executeCommand('workbench.view.explorer');
    }
  });
});
