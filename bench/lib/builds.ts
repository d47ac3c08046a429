/**
 * The production builds of esbuild.js (`node esbuild.js --production`), repeated in memory
 * for analysis: esbuild's metafile says which modules a bundle's bytes come from. The options
 * come from esbuild.js itself (the size section still compares the result with what shipped).
 */
import * as path from 'node:path';
import * as esbuild from 'esbuild';

// esbuild.js is the single source of these options (it builds only when run as a script).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const shared = require('../../esbuild.js') as {
  extensionOptions(): esbuild.BuildOptions;
  webExtensionOptions(): esbuild.BuildOptions;
  webviewOptions(): esbuild.BuildOptions;
};

export const EXTENSION_BUILD: esbuild.BuildOptions = shared.extensionOptions();

export const WEBVIEW_BUILD: esbuild.BuildOptions = shared.webviewOptions();

export const WEB_EXTENSION_BUILD: esbuild.BuildOptions = shared.webExtensionOptions();

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
