/**
 * Bulk writes at the speed of a real service: Re-analyze of 30 selected reports, each analysis
 * taking 300 ms on the service (as one fetching a real page does), from the command to its
 * outcome, against the analyses three at a time: 30 × 300 ms / 3.
 *
 * The command runs in the real extension host, through the integration level's runner (its
 * confirmation is skipped only there) with one test: `bench: bulk Re-analyze` of
 * test/integration/speed.test.ts, which writes its time to a file this section reads.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { BenchContext, SectionResult } from './lib/context';
import { assertOk, exec } from './lib/exec';
import { failed, measured, type Budget } from './lib/report';

const REPORTS = 30;
const ANALYSIS_MS = 300;
const WRITES_AT_ONCE = 3;
const LIMIT_MS = (REPORTS * ANALYSIS_MS) / WRITES_AT_ONCE;
const BUDGET: Budget = { kind: 'max', value: 1.5, text: '≤ 1.5× (30 × 300 ms / 3)' };
const LABEL = `Bulk Re-analyze, ${REPORTS} reports at ${ANALYSIS_MS} ms ÷ limit`;

export async function runWrites(ctx: BenchContext): Promise<SectionResult> {
  ctx.progress(`writes: bulk Re-analyze of ${REPORTS} reports at ${ANALYSIS_MS} ms an analysis, in the extension host`);
  const out = path.join(ctx.outDir, 'bulk-reanalyze.json');
  fs.rmSync(out, { force: true });
  const result = await exec(process.execPath, ['--import', 'tsx', path.join('scripts', 'run-integration.ts')], {
    cwd: ctx.root,
    logFile: path.join(ctx.logsDir, 'writes.log'),
    env: { ...process.env, PAGE_REPORTS_TEST_GREP: 'bench: bulk Re-analyze', PAGE_REPORTS_BENCH_OUT: out },
  });
  assertOk(result, 'the bulk Re-analyze run (see .bench/logs/writes.log)');
  if (!fs.existsSync(out)) {
    return { rows: [failed('writes.bulkReanalyze', LABEL, 'ratio', 'the run wrote no time', BUDGET)], details: {} };
  }
  const { ms } = JSON.parse(fs.readFileSync(out, 'utf8')) as { ms: number };
  return {
    rows: [
      measured('writes.bulkReanalyze', LABEL, 'ratio', [ms / LIMIT_MS], {
        budget: BUDGET,
        note: `${Math.round(ms)} ms against ${LIMIT_MS} ms`,
      }),
    ],
    details: { reports: REPORTS, analysisMs: ANALYSIS_MS, limitMs: LIMIT_MS, ms },
  };
}
