/**
 * Row 1, size: the minified extension bundle and webview script as `npm run package` builds
 * them (`node esbuild.js --production`), and the VSIX it packs. Sizes are deterministic, so
 * each is one sample. When a figure is over budget, the analysis says what it is made of:
 * the bundle's bytes per package or source folder (esbuild's metafile of the same build) and
 * the VSIX's compressed bytes per file.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as esbuild from 'esbuild';
import { EXTENSION_BUILD, inMemory, WEBVIEW_BUILD } from './lib/builds';
import type { BenchContext, SectionResult } from './lib/context';
import { assertOk, exec } from './lib/exec';
import { failed, measured, type Budget, type Row } from './lib/report';
import { zipEntries, type ZipEntry } from './lib/zip';

/** 1 KB = 1000 bytes here: the stricter reading of the budgets. */
const KB = 1000;
const BUNDLE_BUDGET: Budget = { kind: 'max', value: 100 * KB, text: '≤ 100 KB' };
const VSIX_BUDGET: Budget = { kind: 'max', value: 300 * KB, text: '≤ 300 KB' };
const VSIX_NAME = 'page-reports.vsix';

/** Bytes per contributor of one bundle, largest first. */
interface Contributor {
  name: string;
  bytes: number;
}

/** Groups a bundle's minified bytes by npm package or source folder (esbuild's metafile). */
async function bundleContributors(
  root: string,
  options: esbuild.BuildOptions,
): Promise<{ bytes: number; contributors: Contributor[] }> {
  const { metafile } = await inMemory(root, options);
  const output = Object.entries(metafile.outputs).find(([file]) => file.endsWith('.js'));
  if (!output) throw new Error('esbuild wrote no .js output');
  const totals = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(output[1].inputs)) {
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1];
    // Inputs of a plugin's namespace (esbuild.js's one `vscode` module) are named by it.
    const name = pkg ? `npm:${pkg}` : input.includes(':') ? input.slice(0, input.indexOf(':')) : path.dirname(input);
    totals.set(name, (totals.get(name) ?? 0) + bytesInOutput);
  }
  const contributors = [...totals].map(([name, bytes]) => ({ name, bytes })).sort((a, b) => b.bytes - a.bytes);
  return { bytes: output[1].bytes, contributors };
}

function describeContributors(contributors: readonly Contributor[], total: number): string {
  return contributors
    .slice(0, 8)
    .map((c) => `${c.name} ${(c.bytes / KB).toFixed(1)} KB (${Math.round((c.bytes / total) * 100)}%)`)
    .join(', ');
}

function describeVsix(entries: readonly ZipEntry[], total: number): string {
  return [...entries]
    .sort((a, b) => b.compressed - a.compressed)
    .slice(0, 6)
    .map((e) => `${e.name.replace(/^extension\//, '')} ${(e.compressed / KB).toFixed(1)} KB`)
    .join(', ')
    .concat(` (compressed; ${(total / KB).toFixed(1)} KB in all)`);
}

/** Packs the VSIX with `npm run package` (for the host section when the size section did not run) and returns its path. */
export async function packageVsix(ctx: BenchContext): Promise<string> {
  ctx.progress('npm run package');
  assertOk(
    await exec('npm', ['run', 'package'], { cwd: ctx.root, logFile: path.join(ctx.logsDir, 'package.log') }),
    'npm run package',
  );
  ctx.vsix = path.join(ctx.root, VSIX_NAME);
  return ctx.vsix;
}

export async function runSize(ctx: BenchContext): Promise<SectionResult> {
  const { root } = ctx;
  const rows: Row[] = [];
  const details: Record<string, unknown> = {};
  ctx.progress('size: npm run package (production build, vsce package, check)');
  const started = performance.now();
  const packaged = await exec('npm', ['run', 'package'], { cwd: root, logFile: path.join(ctx.logsDir, 'package.log') });
  try {
    assertOk(packaged, 'npm run package');
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    const why = `${reason}; see .bench/logs/package.log`;
    return {
      rows: [
        failed('size.bundle', 'Size: extension bundle', 'bytes', why, BUNDLE_BUDGET),
        failed('size.webview', 'Size: webview script', 'bytes', why, BUNDLE_BUDGET),
        failed('size.vsix', 'Size: VSIX', 'bytes', why, VSIX_BUDGET),
      ],
      details,
    };
  }
  details.packageMs = Math.round(performance.now() - started);

  const vsixPath = path.join(root, VSIX_NAME);
  ctx.vsix = vsixPath;
  const vsixBytes = fs.statSync(vsixPath).size;
  const entries = zipEntries(fs.readFileSync(vsixPath));
  details.vsixEntries = entries;

  // The VSIX's copies are what ships; dist/ is checked against them, since another build
  // running in the same work tree (a watch, a test run) could have replaced dist/ meanwhile.
  const shipped = (name: string): number | undefined => entries.find((e) => e.name === `extension/${name}`)?.size;
  const bundles: { id: string; label: string; file: string; build: esbuild.BuildOptions }[] = [
    {
      id: 'size.bundle',
      label: 'Size: extension bundle',
      file: 'dist/extension.js',
      build: EXTENSION_BUILD,
    },
    {
      id: 'size.webview',
      label: 'Size: webview script',
      file: 'dist/webview/panel.js',
      build: WEBVIEW_BUILD,
    },
  ];
  for (const bundle of bundles) {
    const inVsix = shipped(bundle.file);
    const onDisk = fs.statSync(path.join(root, bundle.file)).size;
    if (inVsix === undefined) {
      rows.push(failed(bundle.id, bundle.label, 'bytes', `${bundle.file} is missing from ${VSIX_NAME}`, BUNDLE_BUDGET));
      continue;
    }
    const notes: string[] = [];
    if (onDisk !== inVsix) {
      notes.push(
        `${bundle.file} is ${onDisk} B on disk but ${inVsix} B in the VSIX: another build changed dist/ during the run; the VSIX's copy is measured`,
      );
    }
    const analysis = await bundleContributors(root, bundle.build);
    details[bundle.id] = {
      file: bundle.file,
      bytes: inVsix,
      metafileBytes: analysis.bytes,
      contributors: analysis.contributors,
    };
    if (analysis.bytes !== inVsix) {
      notes.push(
        `the analysis build of ${bundle.file} is ${analysis.bytes} B, not ${inVsix} B: bench/lib/builds.ts is out of step with esbuild.js`,
      );
    }
    if (inVsix > BUNDLE_BUDGET.value) {
      notes.push(
        `${bundle.file} over budget by ${((inVsix - BUNDLE_BUDGET.value) / KB).toFixed(1)} KB; minified bytes by source (esbuild metafile): ${describeContributors(analysis.contributors, analysis.bytes)}`,
      );
    }
    rows.push(
      measured(bundle.id, bundle.label, 'bytes', [inVsix], {
        budget: BUNDLE_BUDGET,
        note: notes.length > 0 ? notes.join('; ') : undefined,
      }),
    );
  }

  rows.push(
    measured('size.vsix', 'Size: VSIX', 'bytes', [vsixBytes], {
      budget: VSIX_BUDGET,
      note:
        vsixBytes > VSIX_BUDGET.value
          ? `VSIX over budget; largest files: ${describeVsix(entries, vsixBytes)}`
          : undefined,
    }),
  );
  return { rows, details };
}
