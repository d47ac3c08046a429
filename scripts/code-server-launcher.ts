/**
 * Stands in for the VS Code executable so that @vscode/test-electron's `runTests` (and
 * @vscode/test-cli's `useInstallation.fromPath`) run extension tests in code-server, VS Code's
 * own server, with headless Chromium as the window. Takes VS Code's command line:
 *
 *   code-server-launcher.sh --extensionDevelopmentPath=DIR --extensionTestsPath=FILE
 *     [--extensionDevelopmentKind=web] [--user-data-dir=DIR] [--extensions-dir=DIR]
 *     [--disable-extensions] [FOLDER]
 *
 * starts code-server with the smoke-test driver, opens the workbench with a payload that runs
 * the tests in the extension host, relays the extension host's console to stdout and exits
 * with the tests' result: 0 when `run()` resolved, 1 when it rejected or anything broke.
 * Always ends code-server's process group and removes the folders it created.
 *
 * Environment: PAGE_REPORTS_LAUNCHER_TIMEOUT (seconds, default 900) bounds the whole run;
 * PAGE_REPORTS_LAUNCHER_LOGS names the folder for code-server's output and the full workbench
 * console (default .test-output/logs); PAGE_REPORTS_LAUNCHER_VERBOSE=1 prints the workbench's
 * own chatter too.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { format } from 'node:util';
import { launchChromium, startCodeServer, type CodeServer } from './lib/codeServer';
import { killGroupNow, makeTempDir, removeDir } from './lib/processes';
import { ensureTools, repoRoot } from './lib/tools';
import type { BrowserContext } from 'playwright-core';

interface LaunchArgs {
  extensionDevelopmentPath: string;
  extensionTestsPath: string;
  /** `web` runs the extension under development in the web worker extension host (its browser entry). */
  extensionDevelopmentKind?: string;
  userDataDir?: string;
  extensionsDir?: string;
  disableExtensions: boolean;
  folder?: string;
}

/** Parses the part of VS Code's command line that matters here; other flags (e.g. --no-sandbox) are for Electron. */
function parseArgs(argv: readonly string[]): LaunchArgs {
  const values = new Map<string, string>();
  const flags = new Set<string>();
  const positional: string[] = [];
  const withValue = new Set(['extensionDevelopmentPath', 'extensionTestsPath', 'extensionDevelopmentKind', 'user-data-dir', 'extensions-dir']);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    if (eq !== -1) values.set(name, arg.slice(eq + 1));
    else if (withValue.has(name) && i + 1 < argv.length) values.set(name, argv[++i]);
    else flags.add(name);
  }
  const dev = values.get('extensionDevelopmentPath');
  const tests = values.get('extensionTestsPath');
  if (!dev || !tests)
    throw new Error('usage: code-server-launcher --extensionDevelopmentPath=DIR --extensionTestsPath=FILE [FOLDER]');
  return {
    extensionDevelopmentPath: path.resolve(dev),
    extensionTestsPath: path.resolve(tests),
    extensionDevelopmentKind: values.get('extensionDevelopmentKind'),
    userDataDir: values.get('user-data-dir'),
    extensionsDir: values.get('extensions-dir'),
    disableExtensions: flags.has('disable-extensions'),
    folder: positional.length > 0 ? path.resolve(positional[positional.length - 1]) : undefined,
  };
}

/**
 * code-server serves the local file system under a remote authority: `remote` is enough for
 * its Node extension host, but the workbench itself knows only the authority it was opened
 * with (host and port), and places extensions in its web worker host only under that one.
 */
function remoteUri(file: string, authority = 'remote'): string {
  return `vscode-remote://${authority}${file.split(path.sep).map(encodeURIComponent).join('/')}`;
}

/**
 * The workbench's own chatter that reaches codeAutomationLog alongside the extension host's
 * console: connection set-up, built-in chat and agent features, failed gallery look-ups on a
 * closed network. It goes to the workbench log file only.
 */
const workbenchNoise = [
  /^\[(AgentHost|AgentHost:[^\]]*|ChatModelSelection|AccountPolicyGate|reconnection-grace-time|Service Worker)\]/,
  /^(Resolving|Resolved) connection token/,
  /^Creating a socket/,
  /^Updating additional builtin extensions cache/,
  /^Timed out waiting for authentication provider 'github'/,
  /getaddrinfo (ENOTFOUND|EAI_AGAIN)[\s\S]*Gallery/,
];

/** Writes what the workbench logged (the extension host's console included) to the log file, and all but the noise to stdout/stderr. */
function relayTo(log: fs.WriteStream): (type: string, args: unknown) => void {
  return (type, args) => {
    const text = Array.isArray(args) ? format(...(args as unknown[])) : format(args);
    log.write(`[${type}] ${text}\n`);
    if (process.env.PAGE_REPORTS_LAUNCHER_VERBOSE !== '1' && workbenchNoise.some((re) => re.test(text))) return;
    (type === 'error' || type === 'warn' ? process.stderr : process.stdout).write(`${text}\n`);
  };
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  const tools = ensureTools();
  const temp = makeTempDir('launcher');
  const timeoutSec = Number(process.env.PAGE_REPORTS_LAUNCHER_TIMEOUT ?? 900);
  const logDir = process.env.PAGE_REPORTS_LAUNCHER_LOGS ?? path.join(repoRoot, '.test-output', 'logs');
  const logFile = path.join(logDir, 'integration-code-server.log');
  fs.mkdirSync(logDir, { recursive: true });
  const workbenchLog = fs.createWriteStream(path.join(logDir, 'integration-workbench.log'));
  let server: CodeServer | undefined;
  let browser: BrowserContext | undefined;
  const cleanup = async (): Promise<void> => {
    await browser?.close().catch(() => undefined);
    await server?.stop();
    await new Promise<void>((resolve) => workbenchLog.end(resolve));
    removeDir(temp);
  };
  // The result: from codeAutomationExit, or a failure, a time-out or a signal, whichever comes first.
  let settle: (code: number, why?: string) => void = () => undefined;
  const exitCode = new Promise<number>((resolve) => {
    let settled = false;
    settle = (code, why) => {
      if (settled) return;
      settled = true;
      if (why) console.error(`[launcher] ${why}`);
      resolve(code);
    };
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => (server ? settle(130, `${signal}: stopping`) : process.exit(130)));
  }
  // Should the process end before cleanup() has run, code-server (its own process group) must not outlive it.
  process.once('exit', () => {
    if (server) killGroupNow(server.process);
    removeDir(temp);
  });
  try {
    const folder = args.folder ?? path.join(temp, 'workspace');
    fs.mkdirSync(folder, { recursive: true });
    server = await startCodeServer({
      tools,
      userDataDir: args.userDataDir ?? path.join(temp, 'user-data'),
      extensionsDir: args.extensionsDir ?? path.join(temp, 'extensions'),
      stateDir: path.join(temp, 'state'),
      smokeTestDriver: true,
      disableExtensions: args.disableExtensions,
      logFile,
    });
    server.process.on('exit', () => settle(1, `code-server exited early; see ${logFile}`));
    setTimeout(() => settle(1, `no result after ${timeoutSec} s; giving up`), timeoutSec * 1000).unref();
    browser = await launchChromium(tools, path.join(temp, 'chromium'));
    const page = browser.pages()[0] ?? (await browser.newPage());
    page.on('crash', () => settle(1, 'the workbench page crashed'));
    // Both before the workbench loads: the smoke-test driver looks for them at start-up.
    await page.exposeFunction('codeAutomationExit', (code: number) => settle(code));
    await page.exposeFunction('codeAutomationLog', relayTo(workbenchLog));
    const authority = args.extensionDevelopmentKind === 'web' ? new URL(server.url).host : 'remote';
    const payload: [string, string][] = [
      ['extensionDevelopmentPath', remoteUri(args.extensionDevelopmentPath, authority)],
      ['extensionTestsPath', remoteUri(args.extensionTestsPath, authority)],
      ['skipWelcome', 'true'],
    ];
    // The workbench's own name for VS Code's --extensionDevelopmentKind.
    if (args.extensionDevelopmentKind) payload.push(['extensionDevelopmentKind', args.extensionDevelopmentKind]);
    await page.goto(server.workbenchUrl(folder, payload));
    return await exitCode;
  } catch (e) {
    console.error(`[launcher] ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    return 1;
  } finally {
    await cleanup();
  }
}

void main().then((code) => process.exit(code));
