/**
 * Size: the minified extension JS and webview scripts as `npm run package` builds them
 * (`node esbuild.js --production`), as info rows, and the VSIX it packs, held to 1 MB: the
 * download of every user. Sizes are deterministic, so each is one sample. The JSON keeps each
 * file's bytes per package or source folder (esbuild's metafile of the same build); a VSIX
 * over budget names its largest files.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as esbuild from 'esbuild';
import { EXTENSION_BUILD, inMemory, WEB_EXTENSION_BUILD, WEBVIEW_BUILD } from './lib/builds';
import type { BenchContext, SectionResult } from './lib/context';
import { assertOk, exec } from './lib/exec';
import { failed, measured, type Budget, type Row } from './lib/report';
import { zipEntries, type ZipEntry } from '../scripts/lib/zip';

/** 1 KB = 1000 bytes here: the stricter reading of the budgets. */
const KB = 1000;
/**
 * The VSIX as shipped, with the README's screenshots: every user's download. The bundles are
 * info rows: their bytes are not what users wait for.
 */
const VSIX_BUDGET: Budget = { kind: 'max', value: 1000 * KB, text: '≤ 1 MB' };
const SCREENSHOT_ENTRY = /^extension\/media\/screenshots\//;
const VSIX_NAME = 'page-reports.vsix';
/** The extension's bundle (package.json "main") and the webview's script. */
const ENTRY_FILE = 'dist/extension.js';
const WEBVIEW_FILE = 'dist/webview/panel.js';
/** The browser entry (package.json "browser"). */
const WEB_FILE = 'dist/web/extension.js';

/** Bytes per contributor of one bundle, largest first. */
interface Contributor {
  name: string;
  bytes: number;
}

/** One output file of an in-memory build: its bytes and what they are made of. */
interface OutputAnalysis {
  /** The file's name under dist/ as the build's outdir would hold it, e.g. `extension.js`. */
  file: string;
  bytes: number;
  contributors: Contributor[];
}

/** Groups each .js output's minified bytes by npm package or source folder (esbuild's metafile). */
async function bundleContributors(root: string, options: esbuild.BuildOptions): Promise<OutputAnalysis[]> {
  const { metafile } = await inMemory(root, options);
  const outputs = Object.entries(metafile.outputs).filter(([file]) => file.endsWith('.js'));
  if (outputs.length === 0) throw new Error('esbuild wrote no .js output');
  return outputs.map(([file, output]) => {
    const totals = new Map<string, number>();
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1];
      // Inputs of a plugin's namespace (esbuild.js's one `vscode` module) are named by it.
      const name = pkg ? `npm:${pkg}` : input.includes(':') ? input.slice(0, input.indexOf(':')) : path.dirname(input);
      totals.set(name, (totals.get(name) ?? 0) + bytesInOutput);
    }
    const contributors = [...totals].map(([name, bytes]) => ({ name, bytes })).sort((a, b) => b.bytes - a.bytes);
    return { file: path.basename(file), bytes: output.bytes, contributors };
  });
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
        failed('size.entry', 'Size: extension entry (activation)', 'bytes', why),
        failed('size.bundle', 'Size: extension JS, Node host in all', 'bytes', why),
        failed('size.webview', 'Size: webview script', 'bytes', why),
        failed('size.web', 'Size: browser entry (web worker host)', 'bytes', why),
        failed('size.webviews', 'Size: webview scripts together', 'bytes', why),
        failed('size.vsixScreenshots', 'Size: VSIX with screenshots', 'bytes', why, VSIX_BUDGET),
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
  const missing = (file: string, id: string, label: string, budget?: Budget): Row =>
    failed(id, label, 'bytes', `${file} is missing from ${VSIX_NAME}`, budget);
  const outOfStep = (file: string, onDisk: number, inVsix: number): string =>
    `${file} is ${onDisk} B on disk but ${inVsix} B in the VSIX: another build changed dist/ during the run; the VSIX's copy is measured`;

  // The extension's JS, and the budget on it. The total counts every .js the VSIX ships
  // outside the webview's and the browser entry's folders, so code moved into another file
  // still counts.
  const extensionFiles = entries
    .filter(
      (e) =>
        /^extension\/dist\/.+\.js$/.test(e.name) &&
        !e.name.startsWith('extension/dist/webview/') &&
        !e.name.startsWith('extension/dist/web/'),
    )
    .map((e) => ({ file: e.name.replace(/^extension\//, ''), bytes: e.size }));
  const analysis = await bundleContributors(root, EXTENSION_BUILD);
  const notes: string[] = [];
  for (const { id, label, file } of [
    { id: 'size.entry', label: 'Size: extension entry (activation)', file: ENTRY_FILE },
  ]) {
    const inVsix = shipped(file);
    if (inVsix === undefined) {
      rows.push(missing(file, id, label));
      continue;
    }
    const onDisk = fs.statSync(path.join(root, file)).size;
    rows.push(
      measured(id, label, 'bytes', [inVsix], { note: onDisk !== inVsix ? outOfStep(file, onDisk, inVsix) : undefined }),
    );
  }
  const total = extensionFiles.reduce((sum, f) => sum + f.bytes, 0);
  const analysedTotal = analysis.reduce((sum, o) => sum + o.bytes, 0);
  details['size.bundle'] = { files: extensionFiles, bytes: total, analysis };
  const unexpected = extensionFiles.filter((f) => !analysis.some((o) => `dist/${o.file}` === f.file));
  if (unexpected.length > 0) notes.push(`the VSIX also ships ${unexpected.map((f) => f.file).join(', ')} (counted)`);
  if (analysedTotal !== total) {
    notes.push(
      `the analysis build of the extension is ${analysedTotal} B, not ${total} B: bench/lib/builds.ts is out of step with esbuild.js`,
    );
  }
  rows.push(
    extensionFiles.length === 0
      ? missing(ENTRY_FILE, 'size.bundle', 'Size: extension JS, Node host in all')
      : measured('size.bundle', 'Size: extension JS, Node host in all', 'bytes', [total], {
          note: notes.length > 0 ? notes.join('; ') : undefined,
        }),
  );

  /**
   * The row of one shipped file that `build` makes (`file` under its outdir; the webview build
   * makes one script per page), an info row.
   */
  async function fileRow(id: string, label: string, file: string, build: esbuild.BuildOptions): Promise<Row> {
    const inVsix = shipped(file);
    if (inVsix === undefined) return missing(file, id, label);
    const notes: string[] = [];
    const onDisk = fs.statSync(path.join(root, file)).size;
    if (onDisk !== inVsix) notes.push(outOfStep(file, onDisk, inVsix));
    const output = (await bundleContributors(root, build)).find((o) => `${path.dirname(file)}/${o.file}` === file);
    if (!output) throw new Error(`the analysis build made no ${file}`);
    details[id] = { file, bytes: inVsix, analysis: output };
    if (output.bytes !== inVsix) {
      notes.push(
        `the analysis build of ${file} is ${output.bytes} B, not ${inVsix} B: bench/lib/builds.ts is out of step with esbuild.js`,
      );
    }
    return measured(id, label, 'bytes', [inVsix], { note: notes.length > 0 ? notes.join('; ') : undefined });
  }

  rows.push(
    await fileRow('size.webview', 'Size: webview script', WEBVIEW_FILE, WEBVIEW_BUILD),
    await fileRow('size.web', 'Size: browser entry (web worker host)', WEB_FILE, WEB_EXTENSION_BUILD),
  );

  // Every page's script together (the report panel's and the insights page's, which carries
  // Chart.js): what a user who opens both loads.
  const webviewScripts = entries.filter((e) => /^extension\/dist\/webview\/[^/]+\.js$/.test(e.name));
  const webviewsTotal = webviewScripts.reduce((sum, e) => sum + e.size, 0);
  details['size.webviews'] = webviewScripts.map((e) => ({ file: e.name.replace(/^extension\//, ''), bytes: e.size }));
  rows.push(
    webviewScripts.length === 0
      ? missing(WEBVIEW_FILE, 'size.webviews', 'Size: webview scripts together')
      : measured('size.webviews', 'Size: webview scripts together', 'bytes', [webviewsTotal], {
          note: `${webviewScripts.map((e) => `${e.name.replace(/^extension\/dist\/webview\//, '')} ${(e.size / KB).toFixed(1)} KB`).join(', ')}`,
        }),
  );

  // Without screenshots: the whole archive less what its screenshot entries take in it.
  const screenshots = entries.filter((e) => SCREENSHOT_ENTRY.test(e.name));
  const screenshotBytes = screenshots.reduce((sum, e) => sum + e.compressed, 0);
  const withoutScreenshots = vsixBytes - screenshotBytes;
  rows.push(
    measured('size.vsix', 'Size: VSIX without screenshots', 'bytes', [withoutScreenshots]),
    measured('size.vsixScreenshots', 'Size: VSIX with screenshots', 'bytes', [vsixBytes], {
      budget: VSIX_BUDGET,
      note: `${screenshots.length} screenshots, ${(screenshotBytes / KB).toFixed(1)} KB${
        vsixBytes > VSIX_BUDGET.value ? `; largest files: ${describeVsix(entries, vsixBytes)}` : ''
      }`,
    }),
  );
  return { rows, details };
}
