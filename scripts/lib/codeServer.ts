/**
 * Starts code-server (VS Code's own server and web workbench, see
 * /work/shared/real-vscode-offline.md in the project notes) on loopback, installs VSIX files
 * into it, and opens its workbench in Debian's Chromium through playwright-core. Shared by
 * the integration launcher, the end-to-end harness and the demo.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { spawnGroup, stopGroup } from './processes';
import type { Tools } from './tools';

/** Where a code-server keeps its state; every folder is the caller's to create and remove. */
export interface CodeServerDirs {
  userDataDir: string;
  extensionsDir: string;
  /** HOME, XDG_CONFIG_HOME, XDG_DATA_HOME, XDG_CACHE_HOME, XDG_STATE_HOME and TMPDIR go here, so nothing lands in the real home folder. */
  stateDir: string;
}

export interface CodeServerOptions extends CodeServerDirs {
  tools: Tools;
  /** Loopback port; 0 (the default) lets the kernel choose. */
  port?: number;
  /** Turns on the smoke-test driver that runs an `extensionTestsPath` payload (integration tests only: it also hides toasts). */
  smokeTestDriver?: boolean;
  /** Disables every extension except one under development (integration tests). */
  disableExtensions?: boolean;
  /** Extra environment for the server; its extension hosts inherit it. */
  env?: NodeJS.ProcessEnv;
  /** File that receives the server's own output (it is noisy: gallery look-ups that fail offline and so on). */
  logFile: string;
}

/** A running code-server. */
export interface CodeServer {
  /** Base URL, e.g. http://127.0.0.1:41234 */
  url: string;
  port: number;
  process: ChildProcess;
  /** The workbench URL for a folder, optionally with a smoke-test payload. */
  workbenchUrl(folder: string, payload?: ReadonlyArray<readonly [string, string]>): string;
  /** Ends code-server and everything it started (its process group). */
  stop(): Promise<void>;
}

/** Settings that keep a test or demo workbench quiet and quick; callers add their own. */
export const quietSettings: Readonly<Record<string, unknown>> = {
  'workbench.startupEditor': 'none',
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'chat.disableAIFeatures': true,
  'github.gitAuthentication': false,
  'git.enabled': false,
  'security.workspace.trust.enabled': false,
};

/** Writes user settings (User/settings.json of the user data folder). */
export function writeUserSettings(userDataDir: string, settings: Record<string, unknown>): void {
  const dir = path.join(userDataDir, 'User');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'settings.json'), JSON.stringify(settings, null, 2));
}

function serverEnv(dirs: CodeServerDirs, tools: Tools, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const xdg = (name: string): string => {
    const dir = path.join(dirs.stateDir, name);
    fs.mkdirSync(dir, { recursive: true });
    return dir;
  };
  return {
    ...process.env,
    ...extra,
    HOME: xdg('home'),
    XDG_CONFIG_HOME: xdg('config'),
    XDG_DATA_HOME: xdg('data'),
    XDG_CACHE_HOME: xdg('cache'),
    XDG_STATE_HOME: xdg('state'),
    TMPDIR: xdg('tmp'),
    // Native modules and child processes of the server use Node 24, not the machine's Node.
    PATH: `${path.dirname(tools.node24)}${path.delimiter}${process.env.PATH ?? ''}`,
  };
}

function commonArgs(dirs: CodeServerDirs): string[] {
  return ['--user-data-dir', dirs.userDataDir, '--extensions-dir', dirs.extensionsDir];
}

/**
 * Installs a packaged extension into the given folders with `code-server --install-extension`.
 * Throws with code-server's output when it fails.
 */
export async function installExtension(tools: Tools, dirs: CodeServerDirs, vsix: string): Promise<void> {
  const child = spawn(tools.node24, [tools.codeServer, ...commonArgs(dirs), '--force', '--install-extension', vsix], {
    env: serverEnv(dirs, tools),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', resolve);
  });
  if (code !== 0 || !/successfully installed/i.test(output)) {
    throw new Error(`code-server --install-extension ${vsix} failed (exit ${code}):\n${output}`);
  }
}

/**
 * Starts code-server on 127.0.0.1 without authentication, in a process group of its own,
 * and resolves once it listens. Rejects (and ends it) when it does not start within `timeoutMs`.
 */
export async function startCodeServer(options: CodeServerOptions, timeoutMs = 30_000): Promise<CodeServer> {
  const { tools } = options;
  fs.mkdirSync(options.userDataDir, { recursive: true });
  fs.mkdirSync(options.extensionsDir, { recursive: true });
  fs.mkdirSync(path.dirname(options.logFile), { recursive: true });
  const args = [
    tools.codeServer,
    '--bind-addr',
    `127.0.0.1:${options.port ?? 0}`,
    '--auth',
    'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--disable-proxy',
    '--ignore-last-opened',
    // Extension hosts outlive a closed browser tab for this long.
    '--reconnection-grace-time',
    '5',
    ...commonArgs(options),
  ];
  if (options.smokeTestDriver) args.push('--vscode-option', 'enable-smoke-test-driver');
  if (options.disableExtensions) args.push('--vscode-option', 'disable-extensions');
  const log = fs.createWriteStream(options.logFile);
  const child = spawnGroup(tools.node24, args, {
    env: serverEnv(options, tools, options.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stop = async (): Promise<void> => {
    await stopGroup(child);
    await new Promise<void>((resolve) => log.end(resolve));
  };
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let seen = '';
      const timer = setTimeout(
        () => reject(new Error(`code-server did not start within ${timeoutMs} ms; see ${options.logFile}`)),
        timeoutMs,
      );
      const onData = (d: Buffer): void => {
        log.write(d);
        seen += d.toString();
        const m = /HTTP server listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(seen);
        if (m) {
          clearTimeout(timer);
          resolve(Number(m[1]));
        }
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.on('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
      child.on('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`code-server exited (${code ?? signal}) before listening; see ${options.logFile}`));
      });
    });
    const url = `http://127.0.0.1:${port}`;
    return {
      url,
      port,
      process: child,
      workbenchUrl(folder, payload) {
        let u = `${url}/?folder=${encodeURIComponent(folder)}`;
        if (payload) u += `&payload=${encodeURIComponent(JSON.stringify(payload))}`;
        return u;
      },
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}

/** Chromium flags from the offline recipe: the networking ones stop it from calling home on a closed network. */
export const chromiumArgs: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/**
 * Launches headless Chromium with a fresh profile under `dir` (the caller's folder, removed by
 * the caller). Its home and XDG folders point there too, so it writes nothing into the home
 * folder (crash reports, dconf). Closing the returned context ends the browser, and so does
 * the process's exit. Signals are left to the caller: Playwright's own SIGTERM handler would
 * close the browser and keep the process running, and its SIGINT handler would exit before
 * the caller has stopped code-server.
 */
export async function launchChromium(
  tools: Tools,
  dir: string,
  viewport = { width: 1280, height: 800 },
): Promise<BrowserContext> {
  const home = path.join(dir, 'home');
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined) env[name] = value;
  Object.assign(env, {
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
  });
  fs.mkdirSync(home, { recursive: true });
  return chromium.launchPersistentContext(path.join(dir, 'profile'), {
    executablePath: tools.chromium,
    headless: true,
    args: [...chromiumArgs],
    viewport,
    env,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
}
