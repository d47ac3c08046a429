// `npm test`: every test level in order, stopping at the first failure, then a summary.
//
//   npm test                              all stages
//   npm test -- --only unit               one stage (or several: --only unit,conformance)
//   npm test -- --skip e2e                all but some
//   npm test -- --grep "report panel"     only tests whose name matches, in every mocha stage
//
// Stages: lint (tsc for the extension and the webview, eslint, the import rules), unit, conformance
// (the reference service's suite), integration (mocha in the real extension host via
// code-server; then its locale suite in German and in a pseudo-locale), integration-web (the
// suites that need no Node, in code-server's web worker extension host, with the browser
// entry), e2e (Chromium clicking through code-server with the packaged VSIX, in both hosts).
// Runs under the machine's Node (20 is enough, with tsx); the stages after lint run with Node 24,
// which scripts/ensure-tools.sh installs into .cache/ together with code-server and Chromium.
// The last line is always "N passed, N failed" (mocha's counts summed; a stage that fails
// without reporting a failing test counts as one failure), for CI to read.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseExports } from './lib/tools';

const root = path.resolve(__dirname, '..');
const bin = {
  tsc: path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'),
  eslint: path.join(root, 'node_modules', 'eslint', 'bin', 'eslint.js'),
  mocha: path.join(root, 'node_modules', 'mocha', 'bin', 'mocha.js'),
  tsx: path.join(root, 'node_modules', 'tsx', 'dist', 'loader.mjs'),
};

interface Stage {
  name: string;
  what: string;
  /** Needs Node 24 and the other tools of scripts/ensure-tools.sh. */
  needsTools: boolean;
  /** Skipped with a note when this folder holds no file ending in testSuffix. */
  testDir?: string;
  testSuffix?: string;
  commands(node24: string, grep: string | undefined): string[][];
}

interface Row {
  stage: string;
  result: string;
  tests: string;
  ms?: number;
}

const color = process.stdout.isTTY ? ['--color'] : [];

/** mocha with Node 24 and tsx over DIR/**\/*SUFFIX, spec reporter (its summary lines are counted). */
function mocha(node24: string, dir: string, suffix: string, grep: string | undefined, extra: string[] = []): string[] {
  const filter = grep ? ['--grep', grep] : [];
  return [
    node24,
    '--import',
    bin.tsx,
    bin.mocha,
    '--reporter',
    'spec',
    ...color,
    ...filter,
    ...extra,
    `${dir}/**/*${suffix}`,
  ];
}

const stages: Stage[] = [
  {
    name: 'lint',
    what: 'type checks, ESLint and the import rules',
    needsTools: false,
    commands: () => [
      [process.execPath, bin.tsc, '-p', 'tsconfig.json'],
      [process.execPath, bin.tsc, '-p', 'src/webview/tsconfig.json'],
      [process.execPath, bin.eslint, '.'],
      [process.execPath, '--import', bin.tsx, path.join('scripts', 'deps.ts')],
    ],
  },
  {
    name: 'unit',
    what: 'mocha in plain Node',
    needsTools: true,
    testDir: 'test/unit',
    testSuffix: '.test.ts',
    commands: (node24, grep) => [mocha(node24, 'test/unit', '.test.ts', grep)],
  },
  {
    name: 'conformance',
    what: "the reference service's conformance suite",
    needsTools: true,
    testDir: 'test/conformance',
    testSuffix: '.test.ts',
    commands: (node24, grep) => [mocha(node24, 'test/conformance', '.test.ts', grep)],
  },
  {
    name: 'integration',
    what: 'mocha inside the real extension host (code-server)',
    needsTools: true,
    testDir: 'test/integration',
    testSuffix: '.test.ts',
    // The grep reaches the extension host as PAGE_REPORTS_TEST_GREP (see main()). Then the
    // locale suite in German and in a pseudo-locale (every message pseudo-translated).
    commands: (node24) =>
      [[], ['--locale', 'de'], ['--locale', 'qps-ploc']].map((locale) => [
        node24,
        '--import',
        bin.tsx,
        path.join('scripts', 'run-integration.ts'),
        ...locale,
      ]),
  },
  {
    name: 'integration-web',
    what: 'mocha inside the web worker extension host (code-server), with the browser entry',
    needsTools: true,
    testDir: 'test/integration/web',
    testSuffix: '.test.ts',
    commands: (node24) => [[node24, '--import', bin.tsx, path.join('scripts', 'run-integration.ts'), '--host', 'web']],
  },
  {
    name: 'e2e',
    what: 'Chromium clicking through code-server with the packaged VSIX',
    needsTools: true,
    testDir: 'test/e2e',
    testSuffix: '.e2e.ts',
    commands: (node24, grep) => [mocha(node24, 'test/e2e', '.e2e.ts', grep, ['--timeout', '120000'])],
  },
];

function usage(): string {
  return [
    'usage: npm test [-- [--only STAGES] [--skip STAGES] [--grep PATTERN]]',
    `  STAGES: comma-separated, of ${stages.map((s) => s.name).join(', ')}`,
    ...stages.map((s) => `  ${s.name.padEnd(12)} ${s.what}`),
  ].join('\n');
}

interface Options {
  only?: string[];
  skip: string[];
  grep?: string;
}

function parseArgs(argv: string[]): Options {
  const opts: Options = { skip: [] };
  const names = new Set(stages.map((s) => s.name));
  const list = (value: string | undefined, flag: string): string[] => {
    if (!value) fail(`${flag} needs a value`);
    const items = value
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean);
    for (const item of items) if (!names.has(item)) fail(`unknown stage "${item}"`);
    return items;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const flag = eq === -1 ? arg : arg.slice(0, eq);
    const inline = eq === -1 ? undefined : arg.slice(eq + 1);
    const value = (): string | undefined => inline ?? argv[++i];
    if (flag === '--only') opts.only = [...(opts.only ?? []), ...list(value(), flag)];
    else if (flag === '--skip') opts.skip.push(...list(value(), flag));
    else if (flag === '--grep' || flag === '-g') opts.grep = value() ?? fail('--grep needs a pattern');
    else if (flag === '--help' || flag === '-h') {
      console.log(usage());
      process.exit(0);
    } else fail(`unknown argument "${arg}"`);
  }
  return opts;
}

function fail(message: string): never {
  console.error(`${message}\n${usage()}`);
  process.exit(2);
}

/** Runs scripts/ensure-tools.sh (installs what is missing) and returns its variables, or undefined when it failed. */
function ensureTools(): Record<string, string> | undefined {
  const result = spawnSync('bash', [path.join(root, 'scripts', 'ensure-tools.sh')], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return result.status === 0 ? parseExports(result.stdout) : undefined;
}

function hasTests(dir: string, suffix: string): boolean {
  const abs = path.join(root, dir);
  return fs.existsSync(abs) && fs.readdirSync(abs, { recursive: true }).some((f) => String(f).endsWith(suffix));
}

/** Exit code once a signal arrived (128 + its number); the summary still prints. */
let interruptedCode = 0;
let current: ChildProcess | undefined;
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
  ['SIGHUP', 129],
] as const) {
  process.on(signal, () => {
    // A terminal's Ctrl+C reaches the child too; a cancelled job may signal only this process.
    interruptedCode = code;
    current?.kill(signal);
  });
}

/** Runs one command, streaming its output, and resolves with its exit code and output. */
function run(command: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const [file, ...args] = command as [string, ...string[]];
    const child = spawn(file, args, { cwd: root, env, stdio: ['inherit', 'pipe', 'pipe'] });
    current = child;
    let output = '';
    child.stdout.on('data', (d: Buffer) => {
      process.stdout.write(d);
      output += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      process.stderr.write(d);
      output += d.toString();
    });
    child.on('error', (e) => {
      console.error(`cannot run ${file}: ${e.message}`);
      resolve({ code: 127, output });
    });
    child.on('close', (code, signal) => {
      current = undefined;
      resolve({ code: code ?? (signal ? 128 : 1), output });
    });
  });
}

/** Mocha's own summary lines ("  12 passing (3s)", "  1 failing", "  2 pending"), summed. */
function mochaCounts(output: string): { passed: number; failed: number; pending: number; seen: boolean } {
  // eslint-disable-next-line no-control-regex
  const plain = output.replace(/\x1b\[[0-9;]*m/g, '');
  const counts = { passed: 0, failed: 0, pending: 0, seen: false };
  for (const m of plain.matchAll(/^\s*(\d+) (passing|failing|pending)\b/gm)) {
    counts.seen = true;
    const n = Number(m[1]);
    if (m[2] === 'passing') counts.passed += n;
    else if (m[2] === 'failing') counts.failed += n;
    else counts.pending += n;
  }
  return counts;
}

function duration(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`;
}

async function main(): Promise<number> {
  const opts = parseArgs(process.argv.slice(2));
  const selected = stages.filter((s) => (!opts.only || opts.only.includes(s.name)) && !opts.skip.includes(s.name));
  const rows: Row[] = [];
  const totals = { passed: 0, failed: 0, pending: 0 };
  let env: NodeJS.ProcessEnv = { ...process.env };
  let node24 = '';
  let stopped = false;

  if (selected.some((s) => s.needsTools)) {
    const started = Date.now();
    console.log('\n▶ tools: Node 24, code-server, Chromium (scripts/ensure-tools.sh)');
    const vars = ensureTools();
    if (vars?.PAGE_REPORTS_NODE24) {
      env = { ...env, ...vars };
      node24 = vars.PAGE_REPORTS_NODE24;
      rows.push({ stage: 'tools', result: 'ready', tests: '', ms: Date.now() - started });
    } else {
      rows.push({ stage: 'tools', result: 'FAILED', tests: '', ms: Date.now() - started });
      totals.failed += 1;
      stopped = true;
    }
  }

  for (const stage of selected) {
    if (stopped || interruptedCode) {
      rows.push({ stage: stage.name, result: 'not run', tests: '' });
      continue;
    }
    if (stage.testDir && stage.testSuffix && !hasTests(stage.testDir, stage.testSuffix)) {
      console.log(`\n▶ ${stage.name}: no *${stage.testSuffix} files under ${stage.testDir}/, skipped`);
      rows.push({ stage: stage.name, result: 'skipped', tests: 'no tests' });
      continue;
    }
    console.log(`\n▶ ${stage.name}: ${stage.what}`);
    const started = Date.now();
    const stageEnv = stage.name.startsWith('integration') && opts.grep ? { ...env, PAGE_REPORTS_TEST_GREP: opts.grep } : env;
    let code = 0;
    let output = '';
    for (const command of stage.commands(node24, opts.grep)) {
      const shown = command.map((a) =>
        path.isAbsolute(a) && a.startsWith(root + path.sep) ? path.relative(root, a) : a,
      );
      console.log(`$ ${shown.join(' ')}`);
      const r = await run(command, stageEnv);
      output += r.output;
      code = r.code;
      if (code !== 0 || interruptedCode) break;
    }
    const ms = Date.now() - started;
    const counts = mochaCounts(output);
    const failedTests = code !== 0 && counts.failed === 0 ? 1 : counts.failed;
    totals.passed += counts.passed;
    totals.failed += failedTests;
    totals.pending += counts.pending;
    const tests = counts.seen
      ? [
          `${counts.passed} passed`,
          counts.failed ? `${counts.failed} failed` : '',
          counts.pending ? `${counts.pending} pending` : '',
        ]
          .filter(Boolean)
          .join(', ')
      : '';
    const result = interruptedCode ? 'INTERRUPTED' : code === 0 ? 'passed' : 'FAILED';
    rows.push({ stage: stage.name, result, tests, ms });
    if (code !== 0 || interruptedCode) stopped = true;
  }

  const header: Row = { stage: 'Stage', result: 'Result', tests: 'Tests' };
  const width = (key: 'stage' | 'result' | 'tests'): number => Math.max(...[header, ...rows].map((r) => r[key].length));
  const [w1, w2, w3] = [width('stage'), width('result'), width('tests')];
  const line = (r: Row, d: string): string =>
    `${r.stage.padEnd(w1)}  ${r.result.padEnd(w2)}  ${r.tests.padEnd(w3)}  ${d}`.trimEnd();
  console.log('\nSummary');
  console.log(line(header, 'Duration'));
  for (const r of rows) console.log(line(r, r.ms === undefined ? '' : duration(r.ms)));
  const total = rows.reduce((sum, r) => sum + (r.ms ?? 0), 0);
  console.log(`Total time ${duration(total)}${totals.pending ? `; ${totals.pending} pending` : ''}`);
  console.log(`${totals.passed} passed, ${totals.failed} failed`);
  return interruptedCode || (stopped ? 1 : 0);
}

void main().then((code) => process.exit(code));
