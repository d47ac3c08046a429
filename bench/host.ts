/**
 * Rows 2 and 5 and the real tree items of row 4, measured inside cold code-server extension
 * hosts (VS Code's own server and web workbench, with headless Chromium as the window; see
 * scripts/lib/codeServer.ts). Every launch is fresh: its own code-server, user data,
 * extensions folder and browser profile. Both the packaged extension (the VSIX of
 * `npm run package`) and a floor extension whose `activate()` does nothing are installed in
 * every launch; the launches alternate between timing one and the other, so drift of the
 * machine hits both alike. The code that runs in the host is bench/host/entry.ts.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { format } from 'node:util';
import * as esbuild from 'esbuild';
import type { BrowserContext } from 'playwright-core';
import {
  installExtension,
  launchChromium,
  quietSettings,
  startCodeServer,
  writeUserSettings,
  type CodeServer,
  type CodeServerDirs,
} from '../scripts/lib/codeServer';
import { killGroupNow, makeTempDir, removeDir } from '../scripts/lib/processes';
import { ensureTools, type Tools } from '../scripts/lib/tools';
import { startService } from '../test/service/server';
import {
  CONFIG_ENV,
  OPEN_FLOOR_WEBVIEW,
  RESULT_MARKER,
  type ActivationPhases,
  type ActivationSplit,
  type HostConfig,
  type HostResult,
} from './host/protocol';
import type { BenchContext, SectionResult } from './lib/context';
import { assertOk, exec } from './lib/exec';
import { failed, measured, type Budget, type Row } from './lib/report';
import { median } from './lib/stats';

const EXTENSION_ID = 'page-reports.page-reports';
const FLOOR_ID = 'page-reports-bench.floor';
const PROBE_NAME = 'probe';
const KEY = 'bench-key';
const CHECKS = 60;
const PANEL_OPENS_PER_LAUNCH = 3;
/** Activation at most this many times an empty extension's (peers are 60-100×). */
const ACTIVATION_RATIO_BUDGET = 5;
/** The first report panel in a window at most this many times the floor webview's. */
const PANEL_FIRST_BUDGET = 1.5;
/** Later opens: the page's own script and stylesheet on top of the floor's. */
const PANEL_LATER_BUDGET = 1.6;
/** The first-in-window ratio is a median of paired per-launch ratios: at least this many pairs. */
const MIN_FIRST_PAIRS = 15;
const TREE_ITEM_ROUNDS = 20;
/** Let the workbench's start-up activations finish before timing (same for both extensions). */
const SETTLE_MS = 1500;
const LAUNCH_TIMEOUT_MS = 90_000;

export interface HostOptions {
  /** Launches per extension (the packaged one and the floor each get this many). */
  launches: number;
  /** Time the parts of activation in one more launch even when it is within budget. */
  analyze: boolean;
}

/**
 * The installed extension activates on `onStartupFinished` too (its Accounts menu entry), which
 * would run `activate()` while the workbench settles and leave the timed `activate()` nothing
 * to do. `activate()` is the same code whichever event runs it, so the installed copy drops
 * that one event and the timer starts it as before.
 */
function keepActivationForTheTimer(extensionsDir: string): void {
  for (const name of fs.readdirSync(extensionsDir)) {
    const manifestPath = path.join(extensionsDir, name, 'package.json');
    if (!name.startsWith(`${EXTENSION_ID}-`) || !fs.existsSync(manifestPath)) continue;
    const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as { activationEvents?: string[] };
    manifest.activationEvents = (manifest.activationEvents ?? []).filter((e) => e !== 'onStartupFinished');
    fs.writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
  }
}

/** The floor: package.json and an extension.js whose activate() does nothing. */
function writeFloorExtension(dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
  const [publisher, name] = FLOOR_ID.split('.') as [string, string];
  fs.writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify(
      {
        name,
        displayName: 'Page Reports bench floor',
        description: 'An extension whose activate() does nothing: the floor of activation time.',
        version: '0.0.1',
        publisher,
        license: 'MIT',
        engines: { vscode: '^1.101.0' },
        main: './extension.js',
        activationEvents: [],
      },
      null,
      2,
    ),
  );
  fs.writeFileSync(
    path.join(dir, 'extension.js'),
    'exports.activate = function () {};\nexports.deactivate = function () {};\n',
  );
}

/**
 * The extension the tests entry belongs to (the smoke-test driver needs an
 * `extensionDevelopmentPath`): bench/host/probe.ts, activated only by its command, which the
 * floor launches run after the timed activation.
 */
async function writeProbeExtension(root: string, dir: string): Promise<void> {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({
      name: PROBE_NAME,
      publisher: 'page-reports-bench',
      version: '0.0.1',
      engines: { vscode: '^1.101.0' },
      main: './extension.js',
      activationEvents: [],
      contributes: { commands: [{ command: OPEN_FLOOR_WEBVIEW, title: 'Bench: Open Floor Webview' }] },
    }),
  );
  await bundle(root, path.join(root, 'bench', 'host', 'probe.ts'), path.join(dir, 'extension.js'));
}

/** Bundles a file of bench/host for the extension host (CommonJS, `vscode` external). */
async function bundle(root: string, entry: string, outfile: string): Promise<void> {
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node22',
    external: ['vscode'],
    mainFields: ['module', 'main'],
    logLevel: 'warning',
  });
}

/** code-server serves the local file system under its own remote authority, `remote`. */
function remoteUri(file: string): string {
  return `vscode-remote://remote${file.split(path.sep).map(encodeURIComponent).join('/')}`;
}

/** A report's `results` with `count` checks: a seeded report's real ones, then varied extra ones. */
function sixtyChecks(real: Record<string, unknown>, count: number): Record<string, unknown> {
  const results: Record<string, unknown> = { ...real };
  const importance = ['high', 'medium', 'low'];
  const values: unknown[] = [
    'A value with some text to show',
    42,
    true,
    null,
    ['first', 'second', 'third'],
    { found: 3, limit: 10, items: ['a', 'b'] },
  ];
  for (let i = Object.keys(results).length; i < count; i++) {
    results[`extra_check_${String(i).padStart(2, '0')}`] = {
      passed: i % 3 !== 0,
      importance: importance[i % 3],
      value: values[i % values.length],
    };
  }
  return results;
}

interface Prepared {
  temp: string;
  tools: Tools;
  /** Extensions folder with both VSIX installed; copied for each launch. */
  extensionsTemplate: string;
  probeDir: string;
  entry: string;
}

async function prepare(ctx: BenchContext, vsix: string): Promise<Prepared> {
  const tools = ensureTools();
  const temp = makeTempDir('bench');
  try {
    return await prepareIn(ctx, vsix, tools, temp);
  } catch (error) {
    removeDir(temp);
    throw error;
  }
}

async function prepareIn(ctx: BenchContext, vsix: string, tools: Tools, temp: string): Promise<Prepared> {
  const floorDir = path.join(temp, 'floor');
  writeFloorExtension(floorDir);
  const floorVsix = path.join(temp, 'floor.vsix');
  const vsce = path.join(ctx.root, 'node_modules', '@vscode', 'vsce', 'vsce');
  assertOk(
    await exec(
      process.execPath,
      [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '-o', floorVsix],
      { cwd: floorDir, logFile: path.join(ctx.logsDir, 'floor-package.log') },
    ),
    'vsce package (floor extension)',
  );
  const dirs: CodeServerDirs = {
    userDataDir: path.join(temp, 'template', 'user-data'),
    extensionsDir: path.join(temp, 'template', 'extensions'),
    stateDir: path.join(temp, 'template', 'state'),
  };
  await installExtension(tools, dirs, vsix);
  await installExtension(tools, dirs, floorVsix);
  keepActivationForTheTimer(dirs.extensionsDir);

  const probeDir = path.join(temp, PROBE_NAME);
  await writeProbeExtension(ctx.root, probeDir);
  const entry = path.join(temp, 'host', 'entry.js');
  await bundle(ctx.root, path.join(ctx.root, 'bench', 'host', 'entry.ts'), entry);
  return { temp, tools, extensionsTemplate: dirs.extensionsDir, probeDir, entry };
}

/** One fresh launch: code-server, Chromium, the workbench running the entry; resolves with its result. */
async function launch(ctx: BenchContext, prepared: Prepared, config: HostConfig, index: number): Promise<HostResult> {
  const dir = path.join(prepared.temp, `launch-${index}`);
  const dirs: CodeServerDirs = {
    userDataDir: path.join(dir, 'user-data'),
    extensionsDir: path.join(dir, 'extensions'),
    stateDir: path.join(dir, 'state'),
  };
  fs.cpSync(prepared.extensionsTemplate, dirs.extensionsDir, { recursive: true });
  writeUserSettings(dirs.userDataDir, { ...quietSettings });
  const folder = path.join(dir, 'workspace');
  fs.mkdirSync(folder, { recursive: true });
  if (config.extras) config.extras.logRoots = [dirs.userDataDir, dirs.stateDir];
  const logFile = path.join(ctx.logsDir, `host-${index}-code-server.log`);
  const workbenchLog = fs.createWriteStream(path.join(ctx.logsDir, `host-${index}-workbench.log`));
  let server: CodeServer | undefined;
  let browser: BrowserContext | undefined;
  let onExit: (() => void) | undefined;
  try {
    server = await startCodeServer({
      tools: prepared.tools,
      ...dirs,
      smokeTestDriver: true,
      env: { [CONFIG_ENV]: JSON.stringify(config) },
      logFile,
    });
    // Interrupted (Ctrl+C ends the bench with process.exit): code-server's group goes too.
    const serverProcess = server.process;
    onExit = () => killGroupNow(serverProcess);
    process.on('exit', onExit);
    browser = await launchChromium(prepared.tools, path.join(dir, 'chromium'));
    const page = browser.pages()[0] ?? (await browser.newPage());
    let result: HostResult | undefined;
    const done = new Promise<number>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`launch ${index}: no result within ${LAUNCH_TIMEOUT_MS / 1000} s; see ${logFile}`)),
        LAUNCH_TIMEOUT_MS,
      );
      void page.exposeFunction('codeAutomationExit', (code: number) => {
        clearTimeout(timer);
        resolve(code);
      });
      page.on('crash', () => reject(new Error(`launch ${index}: the workbench page crashed`)));
    });
    await page.exposeFunction('codeAutomationLog', (type: string, args: unknown) => {
      const text = Array.isArray(args) ? format(...(args as unknown[])) : format(args);
      workbenchLog.write(`[${type}] ${text}\n`);
      const at = text.indexOf(RESULT_MARKER);
      if (at !== -1) result = JSON.parse(text.slice(at + RESULT_MARKER.length)) as HostResult;
    });
    const payload = [
      ['extensionDevelopmentPath', remoteUri(prepared.probeDir)],
      ['extensionTestsPath', remoteUri(prepared.entry)],
      ['skipWelcome', 'true'],
    ] as const;
    await page.goto(server.workbenchUrl(folder, payload));
    const code = await done;
    if (code !== 0 || !result)
      throw new Error(`launch ${index}: the host run failed (exit ${code}); see the workbench log`);
    return result;
  } finally {
    await browser?.close().catch(() => undefined);
    await server?.stop();
    if (onExit) process.off('exit', onExit);
    await new Promise<void>((resolve) => workbenchLog.end(resolve));
    removeDir(dir);
  }
}

/** The phases in the order they happen, as the note names them. */
const PHASES: [keyof ActivationPhases, string][] = [
  ['beforeModuleMs', 'the host before the main module'],
  ['moduleMs', 'loading the main module (read, compile, top level)'],
  ['contextMs', "the host readying the extension's context"],
  ['activateMs', 'activate()'],
  ['afterMs', 'after it'],
];

/** `Where it goes (medians …): the host before the main module 1.1 → 1.5 ms; …`, floor → Page Reports. */
function describePhases(floor: ActivationPhases[], real: ActivationPhases[]): string {
  if (floor.length === 0 || real.length === 0) return 'Its phases were not seen.';
  const parts = PHASES.map(([key, label]) => {
    const of = (samples: ActivationPhases[]): string => median(samples.map((p) => p[key])).toFixed(1);
    return `${label} ${of(floor)} → ${of(real)} ms`;
  });
  return (
    `Where it goes, medians of ${floor.length} and ${real.length} launches (floor → Page Reports; ` +
    `Node's loader watched for each main module): ${parts.join('; ')}.`
  );
}

function apiTotal(split: ActivationSplit): number {
  return split.apiCalls.reduce((sum, call) => sum + call.ms, 0);
}

/** `window.createTreeView ×2 3.1 ms, …` (the five longest). */
function describeApiCalls(split: ActivationSplit): string {
  return split.apiCalls
    .slice(0, 5)
    .map((call) => `${call.name} ×${call.count} ${call.ms.toFixed(1)} ms`)
    .join(', ');
}

/** One more launch that times activation with its `vscode` API calls (see `HostConfig.split`). */
async function splitActivation(ctx: BenchContext, prepared: Prepared, index: number): Promise<ActivationSplit> {
  const result = await launch(ctx, prepared, { target: EXTENSION_ID, settleMs: SETTLE_MS, split: true }, index);
  if (!result.split) throw new Error(`the analysis launch gave no figures: ${result.errors.join('; ')}`);
  return result.split;
}

export async function runHost(ctx: BenchContext, vsix: string, options: HostOptions): Promise<SectionResult> {
  ctx.progress('host: preparing (floor extension, installing both VSIX, bundling the host entry)');
  const prepared = await prepare(ctx, vsix);
  const removeTemp = (): void => removeDir(prepared.temp);
  process.on('exit', removeTemp);
  let service: Awaited<ReturnType<typeof startService>> | undefined;
  try {
    service = await startService({ port: 0, keys: [KEY], seed: 100, rateLimit: 0, faults: true, quiet: true });
    // Reports with 60 checks for the panel, from a seeded report's real checks plus extra ones.
    const list = await fetch(`${service.url}/api/v1/reports?per_page=10`, {
      headers: { Authorization: `Bearer ${KEY}` },
    });
    const seeded = ((await list.json()) as { data: { url: string; results: Record<string, unknown> }[] }).data;
    const panelIds: (number | string)[] = [];
    for (let i = 0; i < PANEL_OPENS_PER_LAUNCH; i++) {
      const base = seeded[i];
      const results = sixtyChecks(base.results, CHECKS);
      if (Object.keys(results).length !== CHECKS) throw new Error(`a seeded report has more than ${CHECKS} checks`);
      const inserted = await fetch(`${service.url}/__admin/reports`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          report: {
            url: `${base.url.split('?')[0]}?bench=${i}`,
            result: 'decent',
            score: 61.5,
            privacy: 0,
            results,
            generated_at: new Date().toISOString(),
          },
        }),
      });
      if (!inserted.ok) throw new Error(`POST /__admin/reports answered ${inserted.status}`);
      panelIds.push(((await inserted.json()) as { id: number | string }).id);
    }

    // One of the later-opened reports, as the service sends it, for the report page alone.
    const bareAnswer = await fetch(`${service.url}/api/v1/reports/${String(panelIds[1])}`, {
      headers: { Authorization: `Bearer ${KEY}` },
    });
    if (!bareAnswer.ok) throw new Error(`GET a panel report answered ${bareAnswer.status}`);
    const barePageReport = ((await bareAnswer.json()) as { data: unknown }).data;

    const activation = { [EXTENSION_ID]: [] as number[], [FLOOR_ID]: [] as number[] };
    const phases = { [EXTENSION_ID]: [] as ActivationPhases[], [FLOOR_ID]: [] as ActivationPhases[] };
    const treeItems: number[] = [];
    const treeItemsCold: number[] = [];
    const panelFirst: number[] = [];
    const panelLater: number[] = [];
    const floorFirst: number[] = [];
    const floorLater: number[] = [];
    /** The report page alone in a panel made as the floor's, and each ÷ the floor open just before it. */
    const bareLater: number[] = [];
    const bareRatios: number[] = [];
    // Phases of the panel's opens: the command's host work, the analysis drawn.
    const panelHostFirst: number[] = [];
    const panelHostLater: number[] = [];
    const panelDataFirst: number[] = [];
    const panelDataLater: number[] = [];
    /** Per launch pair (floor launch, then the extension's): first panel ÷ first floor webview. */
    const firstRatios: number[] = [];
    let pairFloorFirst: number | undefined;
    const errors: string[] = [];
    const results: HostResult[] = [];
    for (let i = 0; i < options.launches * 2; i++) {
      // Alternating, starting with the floor: the pairs see the same machine.
      const target = i % 2 === 0 ? FLOOR_ID : EXTENSION_ID;
      ctx.progress(`host: launch ${i + 1} of ${options.launches * 2} (${target})`);
      const config: HostConfig = {
        target,
        settleMs: SETTLE_MS,
        ...(target === EXTENSION_ID
          ? {
              extras: {
                serviceUrl: service.url,
                key: KEY,
                panelReportIds: panelIds,
                treeItemRounds: TREE_ITEM_ROUNDS,
                logRoots: [],
              },
            }
          : { floorWebviewOpens: PANEL_OPENS_PER_LAUNCH, barePageReport }),
      };
      try {
        const result = await launch(ctx, prepared, config, i);
        results.push(result);
        if (result.wasActive) errors.push(`launch ${i}: ${target} was active before the timed activate()`);
        else activation[target].push(result.activationMs);
        if (!result.wasActive && result.phases) phases[target].push(result.phases);
        if (result.treeItemsMs) treeItems.push(...result.treeItemsMs);
        if (result.treeItemsColdMs !== undefined) treeItemsCold.push(result.treeItemsColdMs);
        result.panel?.forEach((sample, n) => {
          (n === 0 ? panelFirst : panelLater).push(sample.commandToFirstPaintMs);
          (n === 0 ? panelHostFirst : panelHostLater).push(sample.hostMs);
          (n === 0 ? panelDataFirst : panelDataLater).push(sample.commandToRenderedMs);
        });
        result.floorWebviewMs?.forEach((ms, n) => (n === 0 ? floorFirst : floorLater).push(ms));
        result.barePageMs?.forEach((ms, n) => {
          bareLater.push(ms);
          const floorBefore = result.floorWebviewMs?.[n + 1];
          if (floorBefore !== undefined) bareRatios.push(ms / floorBefore);
        });
        if (target === FLOOR_ID) pairFloorFirst = result.floorWebviewMs?.[0];
        else {
          const first = result.panel?.[0]?.commandToFirstPaintMs;
          if (pairFloorFirst !== undefined && first !== undefined) firstRatios.push(first / pairFloorFirst);
          pairFloorFirst = undefined;
        }
        errors.push(...result.errors.map((e) => `launch ${i}: ${e}`));
      } catch (error) {
        errors.push(error instanceof Error ? error.message : String(error));
      }
    }
    for (const e of errors) ctx.progress(`host: ${e.split('\n')[0]}`);

    const rows: Row[] = [];
    const floor = activation[FLOOR_ID];
    const real = activation[EXTENSION_ID];
    const errorNote = errors.length > 0 ? `${errors.length} problem(s), first: ${errors[0].split('\n')[0]}` : undefined;
    let split: ActivationSplit | undefined;
    if (floor.length === 0 || real.length === 0) {
      const why = errorNote ?? 'no launch finished';
      rows.push(failed('activation.floor', 'Activation: floor extension', 'ms', why));
      rows.push(failed('activation.extension', 'Activation: Page Reports', 'ms', why));
    } else {
      const floorMedian = median(floor);
      const budget: Budget = {
        kind: 'max',
        value: ACTIVATION_RATIO_BUDGET * floorMedian,
        text: `≤ ${ACTIVATION_RATIO_BUDGET}× floor (${(ACTIVATION_RATIO_BUDGET * floorMedian).toFixed(1)} ms)`,
      };
      const over = median(real) > budget.value;
      let note: string | undefined;
      if (over || options.analyze) {
        note = `Activation${over ? ' over budget' : ''}. ${describePhases(phases[FLOOR_ID], phases[EXTENSION_ID])}`;
        ctx.progress('host: one more launch, timing the vscode API calls of activation');
        try {
          split = await splitActivation(ctx, prepared, options.launches * 2);
          note +=
            ` In one more launch with the API timed: the vscode API object built for the extension beforehand ` +
            `${split.vscodeApiMs.toFixed(1)} ms; activate() ${split.phases.activateMs.toFixed(1)} ms, of which vscode API calls ` +
            `${apiTotal(split).toFixed(1)} ms (${describeApiCalls(split)}).`;
        } catch (error) {
          note += ` The API analysis failed: ${error instanceof Error ? error.message : String(error)}`;
        }
      }
      rows.push(measured('activation.floor', 'Activation: floor extension', 'ms', floor));
      rows.push(measured('activation.extension', 'Activation: Page Reports', 'ms', real, { budget, note }));
    }
    const sample = (
      id: string,
      label: string,
      samples: number[],
      options: { note?: string; iqr?: boolean } = {},
    ): Row =>
      samples.length > 0
        ? measured(id, label, 'ms', samples, { note: options.note, spread: options.iqr ? 'iqr' : 'range' })
        : failed(id, label, 'ms', errorNote ?? 'not measured');
    rows.push(
      sample('lists.treeItems', 'Lists: build 100 TreeItems (in host)', treeItems, { iqr: true }),
      sample('lists.treeItemsFirst', 'Lists: first 100 TreeItems in a host', treeItemsCold),
    );
    const floorLaterMedian = floorLater.length > 0 ? median(floorLater) : undefined;
    const laterBudget: Budget | undefined =
      floorLaterMedian === undefined
        ? undefined
        : {
            kind: 'max',
            value: PANEL_LATER_BUDGET * floorLaterMedian,
            text: `≤ ${PANEL_LATER_BUDGET}× floor (${(PANEL_LATER_BUDGET * floorLaterMedian).toFixed(0)} ms)`,
          };
    const firstRatioRow =
      firstRatios.length === 0
        ? failed('panel.firstRatio', 'Panel: first in window ÷ floor, paired', 'ratio', errorNote ?? 'no pair measured')
        : measured('panel.firstRatio', 'Panel: first in window ÷ floor, paired', 'ratio', firstRatios, {
            budget: { kind: 'max', value: PANEL_FIRST_BUDGET, text: `≤ ${PANEL_FIRST_BUDGET}` },
            note:
              firstRatios.length < MIN_FIRST_PAIRS
                ? `only ${firstRatios.length} launch pairs: the budget holds for ${MIN_FIRST_PAIRS} or more (--launches ${MIN_FIRST_PAIRS})`
                : undefined,
          });
    if (firstRatios.length > 0 && firstRatios.length < MIN_FIRST_PAIRS && firstRatioRow.verdict !== 'OVER')
      firstRatioRow.verdict = 'info';
    rows.push(
      sample('panel.floorFirst', 'Panel: floor webview, first in window', floorFirst),
      sample('panel.first', `Panel: ${CHECKS} checks, first in window, first paint`, panelFirst),
      firstRatioRow,
      sample('panel.firstHost', 'Panel: first in window, host work', panelHostFirst),
      sample('panel.firstData', 'Panel: first in window, analysis drawn', panelDataFirst),
      sample('panel.floorLater', 'Panel: floor webview, later opens', floorLater),
      // The page's share of an open, and by difference the rest's (host, title bar, find widget…).
      sample('panel.barePage', `Panel: report page alone, ${CHECKS} checks, later`, bareLater),
      bareRatios.length > 0
        ? measured('panel.barePageRatio', 'Panel: report page alone ÷ floor, paired', 'ratio', bareRatios)
        : failed(
            'panel.barePageRatio',
            'Panel: report page alone ÷ floor, paired',
            'ratio',
            errorNote ?? 'not measured',
          ),
      panelLater.length > 0 && laterBudget
        ? measured('panel.later', `Panel: ${CHECKS} checks, later opens, first paint`, 'ms', panelLater, {
            budget: laterBudget,
          })
        : sample('panel.later', `Panel: ${CHECKS} checks, later opens, first paint`, panelLater),
      sample('panel.laterHost', 'Panel: later opens, host work', panelHostLater, { iqr: true }),
      // Problems of any launch are noted on the last row, whichever figure they cost.
      sample('panel.laterData', 'Panel: later opens, analysis drawn', panelDataLater, { note: errorNote }),
    );
    return {
      rows,
      details: {
        launches: options.launches,
        settleMs: SETTLE_MS,
        activation,
        phases,
        split,
        treeItemsCold,
        panelFirst,
        panelLater,
        panelHostFirst,
        panelHostLater,
        panelDataFirst,
        panelDataLater,
        firstRatios,
        floorFirst,
        floorLater,
        bareLater,
        bareRatios,
        errors,
        results,
      },
    };
  } finally {
    await service?.stop();
    process.off('exit', removeTemp);
    removeTemp();
  }
}
