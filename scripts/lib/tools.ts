/**
 * Where the tools of the real-VS-Code test levels and the demo live: Node 24, code-server
 * and Chromium. scripts/ensure-tools.sh installs them into the git-ignored cache folder and
 * prints `export` lines; callers started through scripts/test.mjs or scripts/node24.sh find
 * them in the environment already, anyone else gets them installed on first use.
 */
import { execFileSync, spawn } from 'node:child_process';
import * as path from 'node:path';

/** The repository's root folder. */
export const repoRoot = path.resolve(__dirname, '..', '..');

/** Absolute paths of the tools. */
export interface Tools {
  /** Node 24 binary (code-server needs it). */
  node24: string;
  /** code-server's `out/node/entry.js`, run with `node24`. */
  codeServer: string;
  /** Debian's Chromium, driven by playwright-core. */
  chromium: string;
}

const envNames = {
  node24: 'PAGE_REPORTS_NODE24',
  codeServer: 'PAGE_REPORTS_CODE_SERVER',
  chromium: 'PAGE_REPORTS_CHROMIUM',
} as const;

let cached: Tools | undefined;

/**
 * Returns the tools, installing what is missing (once per process). Throws with
 * ensure-tools.sh's message when they cannot be installed (e.g. not root and Chromium missing).
 */
export function ensureTools(): Tools {
  if (cached) return cached;
  const fromEnv = {
    node24: process.env[envNames.node24],
    codeServer: process.env[envNames.codeServer],
    chromium: process.env[envNames.chromium],
  };
  if (fromEnv.node24 && fromEnv.codeServer && fromEnv.chromium) {
    cached = { node24: fromEnv.node24, codeServer: fromEnv.codeServer, chromium: fromEnv.chromium };
    return cached;
  }
  // stderr is inherited so the one-time install shows its progress.
  const out = execFileSync('bash', [path.join(repoRoot, 'scripts', 'ensure-tools.sh')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const vars = parseExports(out);
  const tools: Tools = {
    node24: required(vars, envNames.node24),
    codeServer: required(vars, envNames.codeServer),
    chromium: required(vars, envNames.chromium),
  };
  for (const [key, name] of Object.entries(envNames)) process.env[name] = tools[key as keyof Tools];
  cached = tools;
  return tools;
}

/** Parses `export NAME='value'` lines as printed by ensure-tools.sh. */
export function parseExports(text: string): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^export ([A-Z0-9_]+)='([^']*)'$/.exec(line.trim());
    if (m) vars[m[1]] = m[2]!;
  }
  return vars;
}

function required(vars: Record<string, string>, name: string): string {
  const value = vars[name];
  if (!value) throw new Error(`scripts/ensure-tools.sh did not print ${name}`);
  return value;
}

/**
 * Builds and packages the extension (`npm run package`: production build, vsce, the VSIX
 * check) and returns the VSIX's path. The command's output is shown only when it fails.
 */
export async function packageVsix(): Promise<string> {
  const output: string[] = [];
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn('npm', ['run', 'package'], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d: Buffer) => output.push(d.toString()));
    child.stderr.on('data', (d: Buffer) => output.push(d.toString()));
    child.on('error', reject);
    child.on('exit', resolve);
  });
  if (code !== 0) throw new Error(`npm run package failed (exit ${code}):\n${output.join('')}`);
  return path.join(repoRoot, 'page-reports.vsix');
}
