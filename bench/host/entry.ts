/**
 * Runs inside a cold code-server extension host as the `extensionTestsPath` of one benchmark
 * launch (bundled by bench/host.ts with esbuild; `vscode` stays external). Times the first
 * `activate()` of the target extension with `performance.now()`; for Page Reports it then
 * builds 100 real `TreeItem`s (src/views/items.ts against the real API), shows the Reports view
 * (its list answer fills the recent-reports cache) and opens reports with 60 checks in the
 * report panel from their tree rows (the list summary the views hold), timing
 * each open's phases: the command's host work, the page's first paint and the analysis drawn.
 * The result goes to the driver as one console line (see protocol.ts).
 */
import * as fs from 'node:fs';
import Module, { createRequire } from 'node:module';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { createClient } from '../../src/api/client';
import type { Report } from '../../src/api/types';
import { reportTreeItem } from '../../src/views/items';
import { toListSummary } from '../../src/views/summary';
import {
  CONFIG_ENV,
  OPEN_BARE_REPORT_PAGE,
  OPEN_FLOOR_WEBVIEW,
  RESULT_MARKER,
  type ActivationPhases,
  type ActivationSplit,
  type ApiCall,
  type HostConfig,
  type HostResult,
  type PanelSample,
} from './protocol';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The first webview of a launch (the report panel or the floor's) opens this long after the
 * timed activation, whatever the launch did before (the Page Reports launches build tree
 * items and connect first): both first-in-window opens then meet a window equally settled.
 */
const FIRST_OPEN_AFTER_ACTIVATION_MS = 4000;

/** Waits until the first webview of the launch may open; notes it when the launch's own work ran past that. */
async function waitForFirstOpen(activatedAt: number, result: HostResult): Promise<void> {
  const left = activatedAt + FIRST_OPEN_AFTER_ACTIVATION_MS - performance.now();
  if (left > 0) await sleep(left);
  else result.errors.push(`the first webview opened ${Math.round(-left)} ms later than planned`);
}

function readConfig(): HostConfig {
  const raw = process.env[CONFIG_ENV];
  if (!raw) throw new Error(`${CONFIG_ENV} is not set: this file runs only under npm run bench`);
  return JSON.parse(raw) as HostConfig;
}

/** Files under `dir` (recursively) whose name ends with `suffix`; a missing folder has none. */
function findFiles(dir: string, suffix: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(suffix))
    .map((f) => path.join(dir, f));
}

/** `2026-11-21 07:02:05.123` (local time, as the extension host's log writes it) as epoch ms. */
function logTime(text: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})\.(\d{3})$/.exec(text);
  if (!m) return Number.NaN;
  const [y, mo, d, h, mi, s, ms] = m.slice(1).map(Number) as [number, number, number, number, number, number, number];
  return new Date(y, mo - 1, d, h, mi, s, ms).getTime();
}

/**
 * Waits for the extension's log line that the panel of report `id` drew the report
 * (`Report panel ID: shown N ms after opening (first paint M ms).`, the panel's one render
 * event, written when the page's `rendered` message for the whole report arrives) and returns
 * the line's time, N and M. The log's time has millisecond resolution.
 */
async function waitForShown(
  logRoots: readonly string[],
  id: number | string,
  timeoutMs: number,
): Promise<{ at: number; loggedMs: number; firstPaintMs: number }> {
  const pattern = new RegExp(
    `^(\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}\\.\\d{3}) \\[info\\] Report panel ${String(id).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: shown (\\d+) ms after opening \\(first paint (\\d+) ms\\)\\.$`,
    'm',
  );
  const deadline = Date.now() + timeoutMs;
  let files: string[] = [];
  while (Date.now() < deadline) {
    if (files.length === 0) files = logRoots.flatMap((root) => findFiles(root, 'Page Reports.log'));
    for (const file of files) {
      const m = pattern.exec(fs.readFileSync(file, 'utf8'));
      if (m) return { at: logTime(m[1]), loggedMs: Number(m[2]), firstPaintMs: Number(m[3]) };
    }
    await sleep(5);
  }
  throw new Error(
    files.length === 0
      ? `no "Page Reports.log" under ${logRoots.join(', ')}`
      : `the panel of report ${String(id)} did not log "shown" within ${timeoutMs} ms (${files.join(', ')})`,
  );
}

/** Waits until the extension's log has a line matching `pattern`. */
async function waitForLogLine(logRoots: readonly string[], pattern: RegExp, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const files = logRoots.flatMap((root) => findFiles(root, 'Page Reports.log'));
    if (files.some((file) => pattern.test(fs.readFileSync(file, 'utf8')))) return;
    await sleep(20);
  }
  throw new Error(`no line matching ${String(pattern)} in the Page Reports log within ${timeoutMs} ms`);
}

async function buildTreeItems(reports: readonly Report[]): Promise<number> {
  const started = performance.now();
  let ids = 0;
  for (const report of reports) {
    const item = reportTreeItem(
      { kind: 'report', report },
      { busy: false, search: undefined, now: Date.now(), showHost: true, hasSource: false },
    );
    if (item.id) ids++;
  }
  const elapsed = performance.now() - started;
  if (ids !== reports.length) throw new Error(`built ${ids} tree items with ids of ${reports.length}`);
  return elapsed;
}

async function extras(
  config: NonNullable<HostConfig['extras']>,
  result: HostResult,
  activatedAt: number,
): Promise<void> {
  // 100 real reports from the service, through the extension's client (bundled here).
  const api = createClient({ baseUrl: config.serviceUrl, getKey: () => config.key });
  const page = await api.listReports({ perPage: 100 }, 1);
  if (page.items.length !== 100) throw new Error(`expected 100 reports, got ${page.items.length}`);
  result.treeItemsColdMs = await buildTreeItems(page.items);
  result.treeItemsMs = [];
  for (let i = 0; i < config.treeItemRounds; i++) result.treeItemsMs.push(await buildTreeItems(page.items));

  // Connect the extension the way a user would (its own commands, values as arguments).
  if ((await vscode.commands.executeCommand<boolean>('pageReports.setServiceUrl', config.serviceUrl)) !== true)
    throw new Error('pageReports.setServiceUrl did not succeed');
  if ((await vscode.commands.executeCommand<boolean>('pageReports.setApiKey', config.key)) !== true)
    throw new Error('pageReports.setApiKey did not succeed');

  // The Reports view shows and lists its first page, as a user's would before clicking a row:
  // the list answer's whole reports go to the extension's recent-reports cache.
  await vscode.commands.executeCommand('pageReports.reports.focus');
  await waitForLogLine(config.logRoots, /\[info\] GET \/api\/v1\/reports\?\S* \S+ 200 in \d+ ms/, 15_000);
  // Then the Explorer again, as in the floor's launches: both open their webviews beside the
  // same sidebar, so the figures compare webviews, not sidebars.
  await vscode.commands.executeCommand('workbench.view.explorer');

  // Each report as the Reports view holds it: its tree node with the list summary.
  const nodes = [];
  for (const id of config.panelReportIds)
    nodes.push({ kind: 'report' as const, report: toListSummary(await api.getReport(id)) });

  const samples: PanelSample[] = [];
  await waitForFirstOpen(activatedAt, result);
  for (const node of nodes) {
    const id = node.report.id;
    try {
      const started = Date.now();
      const startedPrecise = performance.now();
      // Open Report from the row: resolves once the panel is created and its first state posted.
      await vscode.commands.executeCommand('pageReports.openReport', node);
      const hostMs = performance.now() - startedPrecise;
      const shown = await waitForShown(config.logRoots, id, 15_000);
      // From a listed row the first paint is the whole report (the recent-reports cache); a
      // summary first would mean the panel fetched, and these figures would time that path.
      if (shown.firstPaintMs !== shown.loggedMs)
        result.errors.push(`report ${String(id)} drew its row's summary first: not found in the recent-reports cache`);
      const commandToRenderedMs = shown.at - started;
      samples.push({
        id,
        hostMs,
        commandToFirstPaintMs: commandToRenderedMs - (shown.loggedMs - shown.firstPaintMs),
        commandToRenderedMs,
        loggedMs: shown.loggedMs,
      });
    } catch (error) {
      result.errors.push(error instanceof Error ? error.message : String(error));
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await sleep(300);
  }
  result.panel = samples;
}

/** The path of `extension`'s main module, as its package.json names it. */
function mainModule(extension: vscode.Extension<unknown>): string {
  const main = (extension.packageJSON as { main?: string }).main;
  if (!main) throw new Error(`${extension.id} has no main module`);
  return path.join(extension.extensionPath, main);
}

type ModuleLoader = (this: unknown, module: NodeModule, filename: string) => void;
type Marks = Partial<Record<'moduleStart' | 'moduleEnd' | 'activateStart' | 'activateEnd', number>>;

/**
 * Watches the next activation of `extension`, for {@link ActivationPhases}: Node's CommonJS
 * loader for `.js` files is wrapped for the extension's main module alone (reading, compiling
 * and running its top level), and the `activate` that module exports is replaced by a timed
 * one. The returned function, called once `extension.activate()` resolved with the times it
 * was called and resolved, unwraps the loader and gives the phases (undefined when the module
 * was not seen loading). The floor and Page Reports are watched alike: the wrapper's own cost
 * falls on both.
 */
function watchActivation(
  extension: vscode.Extension<unknown>,
): (started: number, activatedAt: number) => ActivationPhases | undefined {
  // As Node's loader names it: the real path.
  const file = fs.realpathSync(mainModule(extension));
  const loaders = (Module as unknown as { _extensions: Record<string, ModuleLoader> })._extensions;
  const loadJs = loaders['.js'];
  const marks: Marks = {};
  loaders['.js'] = function (module, filename) {
    if (filename !== file) return loadJs.call(this, module, filename);
    marks.moduleStart = performance.now();
    try {
      loadJs.call(this, module, filename);
    } finally {
      marks.moduleEnd = performance.now();
    }
    const exported = module.exports as { activate?: unknown; deactivate?: unknown };
    const { activate, deactivate } = exported;
    if (typeof activate !== 'function') return;
    module.exports = {
      activate(...args: unknown[]): unknown {
        marks.activateStart = performance.now();
        try {
          return (activate as (...a: unknown[]) => unknown).apply(exported, args);
        } finally {
          marks.activateEnd = performance.now();
        }
      },
      ...(typeof deactivate === 'function' ? { deactivate: deactivate.bind(exported) as unknown } : {}),
    };
  };
  return (started, activatedAt) => {
    loaders['.js'] = loadJs;
    const { moduleStart, moduleEnd, activateStart, activateEnd } = marks;
    if (
      moduleStart === undefined ||
      moduleEnd === undefined ||
      activateStart === undefined ||
      activateEnd === undefined
    ) {
      return undefined;
    }
    return {
      beforeModuleMs: moduleStart - started,
      moduleMs: moduleEnd - moduleStart,
      contextMs: activateStart - moduleEnd,
      activateMs: activateEnd - activateStart,
      afterMs: activatedAt - activateEnd,
    };
  };
}

/**
 * Wraps every function of the `vscode` API's namespaces (`window.createTreeView`,
 * `commands.registerCommand`, …) of one extension's API object with a timer, so activate()'s
 * time splits into the API calls it makes and its own code. Calls made from inside another
 * wrapped call count only for the outer one. Returns the table the timers fill.
 */
function timeApiCalls(api: Record<string, unknown>): Map<string, ApiCall> {
  const calls = new Map<string, ApiCall>();
  let depth = 0;
  for (const [namespace, value] of Object.entries(api)) {
    if (typeof value !== 'object' || value === null) continue;
    for (const name of Object.getOwnPropertyNames(value)) {
      const descriptor = Object.getOwnPropertyDescriptor(value, name);
      const original: unknown = descriptor?.value;
      if (typeof original !== 'function' || !descriptor?.writable) continue;
      const key = `${namespace}.${name}`;
      const wrapped = function (this: unknown, ...args: unknown[]): unknown {
        depth++;
        const started = performance.now();
        try {
          return (original as (...a: unknown[]) => unknown).apply(this, args);
        } finally {
          depth--;
          if (depth === 0) {
            const entry = calls.get(key) ?? { name: key, count: 0, ms: 0 };
            entry.count++;
            entry.ms += performance.now() - started;
            calls.set(key, entry);
          }
        }
      };
      try {
        (value as Record<string, unknown>)[name] = wrapped;
      } catch {
        // A frozen namespace keeps its functions untimed.
      }
    }
  }
  return calls;
}

/**
 * The analysis launch: the `vscode` API object is built for the extension first (the host
 * builds one per extension, on its first `require('vscode')`), its functions get timers, then
 * the activation's phases are timed as in every launch, with activate()'s API calls.
 */
async function splitActivation(extension: vscode.Extension<unknown>): Promise<ActivationSplit> {
  let started = performance.now();
  const api = createRequire(mainModule(extension))('vscode') as Record<string, unknown>;
  const vscodeApiMs = performance.now() - started;
  const calls = timeApiCalls(api);
  const phasesOf = watchActivation(extension);
  started = performance.now();
  await extension.activate();
  const phases = phasesOf(started, performance.now());
  if (!phases) throw new Error(`the activation of ${extension.id} was not seen: its main module had loaded before`);
  const apiCalls = [...calls.values()].sort((a, b) => b.ms - a.ms);
  return { vscodeApiMs, phases, apiCalls };
}

/** Runs `command` (of the probe extension) and answers the ms until its page drew; then closes it. */
async function timedOpen(command: string, ...args: unknown[]): Promise<number> {
  const started = performance.now();
  await vscode.commands.executeCommand(command, ...args);
  const ms = performance.now() - started;
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await sleep(300);
  return ms;
}

/**
 * Opens the probe extension's floor webview `opens` times, each closed before the next; with
 * `barePageReport`, the report page alone after each later floor open (paired with it).
 */
async function floorWebview(
  opens: number,
  barePageReport: unknown,
  result: HostResult,
  activatedAt: number,
): Promise<void> {
  result.floorWebviewMs = [];
  if (barePageReport !== undefined) result.barePageMs = [];
  await waitForFirstOpen(activatedAt, result);
  for (let i = 0; i < opens; i++) {
    result.floorWebviewMs.push(await timedOpen(OPEN_FLOOR_WEBVIEW));
    if (i > 0 && result.barePageMs) result.barePageMs.push(await timedOpen(OPEN_BARE_REPORT_PAGE, barePageReport));
  }
}

/** Called by the extension host's test runner. */
export async function run(): Promise<void> {
  const config = readConfig();
  const extension = vscode.extensions.getExtension(config.target);
  if (!extension) throw new Error(`extension ${config.target} is not installed in this host`);
  const wasActive = extension.isActive;
  // The workbench activates its own extensions while it starts; let that settle first.
  await sleep(config.settleMs);
  if (config.split) {
    const result: HostResult = { target: config.target, wasActive, activationMs: Number.NaN, errors: [] };
    result.split = await splitActivation(extension);
    console.log(`${RESULT_MARKER}${JSON.stringify(result)}`);
    return;
  }
  const phasesOf = watchActivation(extension);
  const started = performance.now();
  await extension.activate();
  const activatedAt = performance.now();
  const activationMs = activatedAt - started;
  const phases = phasesOf(started, activatedAt);
  const result: HostResult = { target: config.target, wasActive, activationMs, phases, errors: [] };
  if (!phases) result.errors.push('the activation phases were not seen: the main module had loaded before');
  try {
    if (config.extras) await extras(config.extras, result, activatedAt);
    if (config.floorWebviewOpens)
      await floorWebview(config.floorWebviewOpens, config.barePageReport, result, activatedAt);
  } catch (error) {
    result.errors.push(error instanceof Error ? (error.stack ?? error.message) : String(error));
  }
  console.log(`${RESULT_MARKER}${JSON.stringify(result)}`);
}
