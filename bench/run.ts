/**
 * `npm run bench`: measures size, activation, client overhead, long lists, loads at a
 * service's latency and the report panel on this machine, prints one table (each figure the median of repeated runs with its
 * spread, against its budget) and writes it as JSON into .bench/ (git-ignored).
 *
 *   npm run bench                         every section
 *   npm run bench -- --only size,loads    some sections (size, client, lists, insights, loads, writes, host)
 *   npm run bench -- --launches 3         code-server launches per extension (default 15: the
 *                                         first-in-window panel ratio needs 15 pairs)
 *   npm run bench -- --analyze            time the parts of activation even when within budget
 *                                         (one more launch does whenever it is over)
 *
 * Runs with Node 24 and `--expose-gc` (scripts/node24.sh installs the tools first). Exits 1
 * when a figure is over its budget or could not be measured: an over-budget figure is a bug.
 */
import { execFileSync } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import { runClient } from './client';
import { runLists } from './lists';
import { createContext, type BenchContext, type SectionResult } from './lib/context';
import { failed, machineInfo, ordered, renderTable, writeResults, type Row } from './lib/report';
import { runHost } from './host';
import { runInsights } from './insights';
import { runLoads } from './loads';
import { runWrites } from './writes';
import { packageVsix, runSize } from './size';

interface Options {
  sections: SectionName[];
  launches: number;
  analyze: boolean;
}

const SECTIONS = ['size', 'client', 'lists', 'insights', 'loads', 'writes', 'host'] as const;
type SectionName = (typeof SECTIONS)[number];

function usage(): string {
  return (
    'usage: npm run bench [-- --only SECTIONS] [--launches N]\n  SECTIONS: comma-separated, of ' + SECTIONS.join(', ')
  );
}

function parseArgs(argv: readonly string[]): Options {
  const options: Options = { sections: [...SECTIONS], launches: 15, analyze: false };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2) as [string, string | undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value\n${usage()}`);
      return v;
    };
    if (flag === '--only') {
      const names = value()
        .split(',')
        .map((s) => s.trim());
      for (const n of names)
        if (!(SECTIONS as readonly string[]).includes(n)) throw new Error(`unknown section "${n}"\n${usage()}`);
      options.sections = names as SectionName[];
    } else if (flag === '--launches') {
      const n = Number(value());
      if (!Number.isInteger(n) || n < 1) throw new Error(`--launches needs a whole number ≥ 1\n${usage()}`);
      options.launches = n;
    } else if (flag === '--analyze') {
      options.analyze = true;
    } else if (flag === '--help' || flag === '-h') {
      console.log(usage());
      process.exit(0);
    } else throw new Error(`unknown argument "${argv[i]}"\n${usage()}`);
  }
  return options;
}

function git(root: string, args: string[]): string | undefined {
  try {
    return execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

/** Runs one section; a section that throws becomes one ERROR row, and the others still run. */
async function section(
  name: SectionName,
  run: () => Promise<SectionResult>,
  ctx: BenchContext,
): Promise<SectionResult> {
  const started = performance.now();
  try {
    const result = await run();
    ctx.progress(`${name}: done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return result;
  } catch (error) {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    ctx.progress(`${name}: failed: ${message}`);
    const first = message.split('\n')[0];
    return { rows: [failed(`${name}.error`, `${name}: not measured`, 'ms', first)], details: { error: message } };
  }
}

async function main(): Promise<number> {
  const options = parseArgs(process.argv.slice(2));
  const root = path.resolve(__dirname, '..');
  const ctx = createContext(root);
  const startedAt = new Date();
  const loadAtStart = os.loadavg()[0];
  const started = performance.now();
  if (typeof global.gc !== 'function') ctx.progress('note: run with --expose-gc for heap figures (npm run bench does)');

  const runners: Record<SectionName, () => Promise<SectionResult>> = {
    size: () => runSize(ctx),
    client: () => runClient(ctx),
    lists: () => runLists(ctx),
    insights: () => runInsights(ctx),
    loads: () => runLoads(ctx),
    writes: () => runWrites(ctx),
    host: async () =>
      runHost(ctx, ctx.vsix ?? (await packageVsix(ctx)), { launches: options.launches, analyze: options.analyze }),
  };
  const rows: Row[] = [];
  const details: Record<string, unknown> = {};
  for (const name of options.sections) {
    const result = await section(name, runners[name], ctx);
    rows.push(...result.rows);
    details[name] = result.details;
  }

  const loadAtEnd = os.loadavg()[0];
  const table = renderTable(ordered(rows));
  console.log(`\n${table}\n`);
  const file = writeResults(
    ctx.outDir,
    {
      startedAt: startedAt.toISOString(),
      durationMs: Math.round(performance.now() - started),
      commit: git(root, ['rev-parse', 'HEAD']),
      dirty: git(root, ['status', '--porcelain']) !== '',
      ...machineInfo(),
      loadAverage: { start: loadAtStart, end: loadAtEnd },
      sections: options.sections,
    },
    ordered(rows),
    details,
  );
  const over = rows.filter((r) => r.verdict === 'OVER').length;
  const errors = rows.filter((r) => r.verdict === 'ERROR').length;
  console.log(
    `${rows.length} figures: ${over} over budget, ${errors} not measured; ${((performance.now() - started) / 1000).toFixed(0)} s; ${path.relative(root, file)}`,
  );
  // Times from a busy machine are not comparable with a quiet one's; say how busy it was.
  console.log(
    `${os.cpus().length} CPUs, load average ${loadAtStart.toFixed(1)} at the start and ${loadAtEnd.toFixed(1)} at the end`,
  );
  return over + errors > 0 ? 1 : 0;
}

// Ctrl+C: end through process.exit, so the sections' exit handlers stop code-server and remove temp folders.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(2);
  },
);
