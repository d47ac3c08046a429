/**
 * The production builds of esbuild.js (`node esbuild.js --production`), repeated in memory
 * for analysis: esbuild's metafile says which modules a bundle's bytes come from. Keep the
 * options in step with esbuild.js (the size section compares the result with what shipped).
 */
import * as path from 'node:path';
import * as esbuild from 'esbuild';

export const EXTENSION_BUILD: esbuild.BuildOptions = {
  entryPoints: { extension: 'src/extension.ts' },
  format: 'cjs',
  platform: 'node',
  target: 'node22',
  external: ['vscode'],
  mainFields: ['module', 'main'],
};

export const WEBVIEW_BUILD: esbuild.BuildOptions = {
  entryPoints: { panel: 'src/webview/panel.ts' },
  format: 'iife',
  platform: 'browser',
  target: 'es2022',
  tsconfig: 'src/webview/tsconfig.json',
};

export interface InMemoryBuild {
  code: string;
  metafile: esbuild.Metafile;
}

/** Builds minified as `--production` does, writing nothing. */
export async function inMemory(root: string, options: esbuild.BuildOptions): Promise<InMemoryBuild> {
  const result = await esbuild.build({
    absWorkingDir: root,
    bundle: true,
    minify: true,
    sourcesContent: false,
    legalComments: 'none',
    write: false,
    metafile: true,
    logLevel: 'silent',
    outdir: path.join(root, '.bench', 'build'),
    ...options,
  });
  const files = result.outputFiles ?? [];
  const js = files.find((f) => f.path.endsWith('.js'));
  if (!js || !result.metafile) throw new Error('esbuild wrote no .js output');
  return { code: js.text, metafile: result.metafile };
}
