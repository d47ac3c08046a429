/**
 * Helpers for integration tests (mocha inside the real extension host). The service is the
 * reference service that scripts/run-integration.ts starts with fault injection on, seeded
 * with 40 reports owned by `keys().main`; these helpers read where it is from the
 * environment the runner passes down, or, in the web worker extension host (which has no
 * `process`), from the configuration the runner builds into the web test bundle.
 *
 *   import { configure, keys, admin, waitFor } from './harness';
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { adminCall } from '../../service/adminClient';
import { TestHook } from '../../../src/ids';

/** The extension's id (publisher.name). */
export const extensionId = 'page-reports.page-reports';

/**
 * In the web test bundle only: the runner's variables, written in by esbuild's `define` when it
 * builds the bundle (scripts/run-integration.ts), since a web worker has no environment.
 */
declare const PAGE_REPORTS_TEST_CONFIG: Readonly<Record<string, string>> | undefined;

/** Whether these tests run in the web worker extension host (the browser entry), not in Node's. */
export const inWebHost = typeof PAGE_REPORTS_TEST_CONFIG !== 'undefined';

/** `it` in the Node extension host, `it.skip` in the web one: for tests that need Node (a second service started in-process, files). */
export function itInNode(title: string, test: Mocha.AsyncFunc): Mocha.Test {
  return inWebHost ? it.skip(title, test) : it(title, test);
}

function env(name: string): string {
  const value = inWebHost ? PAGE_REPORTS_TEST_CONFIG?.[name] : process.env[name];
  if (!value) throw new Error(`${name} is not set: run integration tests with npm run test:integration`);
  return value;
}

/** Base URL of the reference service, e.g. http://127.0.0.1:41234 (API under /api/v1). */
export function serviceUrl(): string {
  return env('PAGE_REPORTS_TEST_SERVICE_URL');
}

/** API keys of the reference service: `main` owns the seeded reports, `other` is a second, empty account, `forbidden` answers 403. */
export interface TestKeys {
  readonly main: string;
  readonly other: string;
  readonly forbidden: string;
}

/** The service's API keys. */
export function keys(): TestKeys {
  return {
    main: env('PAGE_REPORTS_TEST_KEY'),
    other: env('PAGE_REPORTS_TEST_OTHER_KEY'),
    forbidden: env('PAGE_REPORTS_TEST_FORBIDDEN_KEY'),
  };
}

/**
 * {@link adminCall} of the suite's service: one of its /__admin endpoints (faults, requests,
 * shape, reports, reset), answering its JSON; throws on a non-2xx answer.
 *
 *   await admin('faults', { path: '/api/v1/reports', status: 502, body: 'html' });
 *   const requests = await admin<RecordedRequest[]>('requests');
 *   await admin('faults', undefined, 'DELETE');
 */
export function admin<T = unknown>(endpoint: string, body?: unknown, method?: string): Promise<T> {
  return adminCall<T>(serviceUrl(), endpoint, body, method);
}

/** A report id the main account owns (seeded). */
export async function someReportId(): Promise<number | string> {
  const answer = await fetch(`${serviceUrl()}/api/v1/reports?per_page=10`, {
    headers: { Authorization: `Bearer ${keys().main}`, Accept: 'application/json' },
  });
  const body = (await answer.json()) as { data: { id: number | string }[] };
  const first = body.data[0];
  if (!first) throw new Error('the service has no seeded reports');
  return first.id;
}

/** Clears queued faults and the request log, and restores the default answer shapes. Data stays. */
export async function resetService(): Promise<void> {
  await admin('faults', undefined, 'DELETE');
  await admin('requests', undefined, 'DELETE');
  await admin('shape', undefined, 'DELETE');
}

/** The extension, activated. */
export async function activate(): Promise<vscode.Extension<unknown>> {
  const extension = vscode.extensions.getExtension(extensionId);
  if (!extension) throw new Error(`extension ${extensionId} is not installed in this host`);
  await extension.activate();
  return extension;
}

/**
 * Points the extension at the service and stores a key through its own commands, the way a
 * user would but without input boxes: `pageReports.setServiceUrl` and `pageReports.setApiKey`
 * take the value as their argument (the key is still checked with the service). Throws when
 * either command reports failure.
 */
export async function configure(url: string = serviceUrl(), key: string = keys().main): Promise<void> {
  await activate();
  const urlSet = await vscode.commands.executeCommand<boolean>('pageReports.setServiceUrl', url);
  if (urlSet !== true) throw new Error(`pageReports.setServiceUrl ${url} did not succeed`);
  const keySet = await vscode.commands.executeCommand<boolean>('pageReports.setApiKey', key);
  if (keySet !== true) throw new Error('pageReports.setApiKey did not succeed');
}

/** Removes the stored key (confirmation skipped, tests only) and clears the service URL setting. */
export async function disconnect(): Promise<void> {
  await activate();
  await vscode.commands.executeCommand('pageReports.removeApiKey', { confirmed: true });
  await vscode.workspace
    .getConfiguration('pageReports')
    .update('serviceUrl', undefined, vscode.ConfigurationTarget.Global);
}

/**
 * Polls `probe` until it returns a truthy value and resolves with it. Rejects after
 * `timeoutMs` (default 5000) with `message`, naming the last value seen.
 */
export async function waitFor<T>(
  probe: () => T | Promise<T>,
  options: { timeoutMs?: number; intervalMs?: number; message?: string } = {},
): Promise<NonNullable<T>> {
  const { timeoutMs = 5000, intervalMs = 50, message = 'condition' } = options;
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  for (;;) {
    last = await probe();
    if (last) return last;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${message} (last: ${String(last)})`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** The command ids package.json declares (contributes.commands). */
export function declaredCommands(extension: vscode.Extension<unknown>): string[] {
  const contributes = (extension.packageJSON as { contributes?: { commands?: { command: string }[] } }).contributes;
  return (contributes?.commands ?? []).map((c) => c.command);
}

/**
 * The user data folder of the VS Code running the tests: code-server puts its session socket
 * there; a runner that knows it may say so with PAGE_REPORTS_TEST_USER_DATA_DIR.
 */
export function userDataDir(): string {
  const given = process.env.PAGE_REPORTS_TEST_USER_DATA_DIR;
  if (given) return given;
  const socket = process.env.CODE_SERVER_SESSION_SOCKET;
  if (socket) return path.dirname(socket);
  throw new Error('cannot locate the user data folder: set PAGE_REPORTS_TEST_USER_DATA_DIR');
}

/** Every regular file under `dir` (sockets, pipes and unreadable entries skipped). */
export function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true })
    .map((entry) => path.join(dir, String(entry)))
    .filter((file) => {
      try {
        return fs.statSync(file).isFile();
      } catch {
        return false;
      }
    });
}

/**
 * The text of the Page Reports log once it holds `marker` (the channel writes its file a
 * moment after each entry): every `Page Reports.log` of this session, joined. With `after`,
 * only what follows that text in the file holding it, so lines of earlier runs or other
 * windows cannot meet the marker.
 */
export async function pageReportsLogWith(marker: string | RegExp, timeoutMs = 10_000, after?: string): Promise<string> {
  const read = (): string[] =>
    filesUnder(path.join(userDataDir(), 'logs'))
      .filter((file) => path.basename(file) === 'Page Reports.log')
      .map((file) => fs.readFileSync(file, 'utf8'));
  const holds = (text: string): boolean => (typeof marker === 'string' ? text.includes(marker) : marker.test(text));
  return waitFor(
    () => {
      if (after === undefined) {
        const text = read().join('\n');
        return holds(text) ? text : undefined;
      }
      return read()
        .filter((text) => text.includes(after))
        .map((text) => text.slice(text.lastIndexOf(after)))
        .find(holds);
    },
    {
      timeoutMs,
      message: `the Page Reports log holding ${String(marker)}${after === undefined ? '' : ` after ${after}`}`,
    },
  );
}

/** The report panels' tabs, in every editor group. */
export function panelTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter((tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith('pageReports.report'));
}

/** The webview panel of report `id`, if one is open (read through the extension's test hook, set only in its test mode). */
export function reportWebviewPanel(id: number | string): vscode.WebviewPanel | undefined {
  const hook = (globalThis as Record<symbol, unknown>)[TestHook.accounts] as
    { panels: { openPanels(): readonly { id: unknown; panel: vscode.WebviewPanel }[] } } | undefined;
  return hook?.panels.openPanels().find((p) => String(p.id) === String(id))?.panel;
}

/** Opens report `id`'s panel through Open Report and answers the panel's HTML once it is set. */
export async function openedPanelHtml(id: number | string): Promise<string> {
  await vscode.commands.executeCommand('pageReports.openReport', id);
  return waitFor(
    () => {
      const html = reportWebviewPanel(id)?.webview.html;
      return html !== undefined && html !== '' ? html : undefined;
    },
    { message: `the HTML of report ${String(id)}'s panel` },
  );
}

/** Asserts that a report panel's HTML carries its page script and stylesheet under its nonce and loads neither by URI. */
export function assertInlinePage(html: string): void {
  // The policy sits in an attribute, its quotes escaped (&#39;).
  const nonce = /script-src (?:'|&#39;)nonce-([A-Za-z0-9+/=]+)/.exec(html)?.[1];
  if (nonce === undefined) throw new Error('the panel HTML has no script nonce');
  const checks: [boolean, string][] = [
    [html.includes(`<script nonce="${nonce}">`), 'an inline script with the nonce'],
    [html.includes('acquireVsCodeApi'), 'the page script itself in the HTML'],
    [html.includes(`<style nonce="${nonce}">`), 'an inline stylesheet with the nonce'],
    [!/<script[^>]*\bsrc=/i.test(html), 'no script loaded by URI'],
    [!/<link[^>]*stylesheet/i.test(html), 'no stylesheet loaded by URI'],
  ];
  const failed = checks.filter(([ok]) => !ok).map(([, what]) => what);
  if (failed.length > 0) throw new Error(`the report panel's HTML lacks: ${failed.join(', ')}`);
}
