// Builds the extension for the Node extension host (dist/extension.js), the same for the web
// worker extension host (dist/web/extension.js) and the pages' scripts (dist/webview/).
//   node esbuild.js               development build with source maps
//   node esbuild.js --production  minified, no source maps (what the VSIX ships)
//   node esbuild.js --watch       rebuild on change
// The integration tests build in scripts/lib/testBuilds.ts, which the test runner calls.
const esbuild = require('esbuild');
const fs = require('node:fs');
const path = require('node:path');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const root = __dirname;

/** Prints every build error with its file and line, for the editor's problem matcher. */
const problems = {
  name: 'problems',
  setup(build) {
    build.onEnd((result) => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
      }
    });
  },
};

/**
 * One `vscode` module object for the bundle. esbuild turns each module's
 * `import * as vscode from 'vscode'` into its own `__toESM(require("vscode"))`, which copies
 * the whole API object each time, at load; here every module imports one module that
 * re-exports `vscode` once.
 */
const vscodeOnce = {
  name: 'vscode-once',
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, (args) =>
      args.namespace === 'vscode-once'
        ? { path: 'vscode', external: true }
        : { path: 'vscode', namespace: 'vscode-once' },
    );
    build.onLoad({ filter: /.*/, namespace: 'vscode-once' }, () => ({
      contents: 'export * from "vscode";',
      loader: 'js',
    }));
  },
};

/**
 * In the extension's bundles `@vscode/l10n` is VS Code's own `l10n`, as the library's README
 * asks: VS Code loads the translations itself, and `vscode.l10n.t` reads the same bundle. The
 * vscode-free modules import `@vscode/l10n` because they also run where VS Code is absent
 * (unit tests, the pages). Any name other than `t` fails the build instead of reading undefined.
 */
const l10nFromVscode = {
  name: 'l10n-from-vscode',
  setup(build) {
    build.onResolve({ filter: /^@vscode\/l10n$/ }, () => ({ path: '@vscode/l10n', namespace: 'l10n-from-vscode' }));
    build.onLoad({ filter: /.*/, namespace: 'l10n-from-vscode' }, () => ({
      contents: 'import { l10n } from "vscode"; export function t(...args) { return l10n.t(...args); }',
      loader: 'js',
    }));
    build.onEnd((result) => {
      // esbuild only warns when a module imports a name the shim does not export.
      for (const { text, location } of result.warnings) {
        if (location?.file.includes('l10n-from-vscode') || /@vscode\/l10n/.test(text)) {
          const error = `@vscode/l10n in the extension is VS Code's l10n, which has only t(): ${text}`;
          console.error(`✘ [ERROR] ${error}`); // the problems plugin printed the errors before this one
          result.errors.push({ text: error });
        }
      }
    });
  },
};

/**
 * The report panel puts its page script into its HTML (src/panels/pageAssets.ts), where
 * `</script` would end the element and `<!--` could keep it from ending: such a script fails
 * the build.
 */
const inlinable = {
  name: 'inlinable',
  setup(build) {
    build.onEnd((result) => {
      const file = path.join(root, 'dist', 'webview', 'panel.js');
      if (result.errors.length > 0 || !fs.existsSync(file)) return;
      if (/<\/script|<!--/i.test(fs.readFileSync(file, 'utf8'))) {
        result.errors.push({
          text: 'dist/webview/panel.js holds "</script" or "<!--" and cannot be inlined into the report panel',
        });
      }
    });
  },
};

const common = {
  bundle: true,
  minify: production,
  sourcemap: production ? false : 'linked',
  sourcesContent: false,
  logLevel: 'warning',
  legalComments: 'none',
  // Non-ASCII characters of strings as they are, not as \u escapes.
  charset: 'utf8',
};

/** The Node host's bundle (bench/lib/builds.ts builds it the same way for analysis). */
function extensionOptions() {
  return {
    entryPoints: { extension: 'src/extension.ts' },
    format: 'cjs',
    platform: 'node',
    target: 'node22',
    external: ['vscode'],
    mainFields: ['module', 'main'],
    plugins: [vscodeOnce, l10nFromVscode],
  };
}

/** The web worker host's bundle: the same extension; esbuild refuses any Node built-in here. */
function webExtensionOptions() {
  return { ...extensionOptions(), platform: 'browser', target: 'es2022', mainFields: ['browser', 'module', 'main'] };
}

/** The pages' scripts, each its own: Chart.js is only in the insights page's. */
function webviewOptions() {
  return {
    entryPoints: { panel: 'src/webview/panel.ts', insights: 'src/webview/insights.ts' },
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    tsconfig: 'src/webview/tsconfig.json',
    plugins: [inlinable],
  };
}

function withCommon(options, outdir) {
  return { ...common, ...options, outdir, plugins: [problems, ...(options.plugins ?? [])] };
}

async function main() {
  const builds = [
    withCommon(extensionOptions(), 'dist'),
    withCommon(webExtensionOptions(), 'dist/web'),
    withCommon(webviewOptions(), 'dist/webview'),
  ];
  if (watch) {
    for (const b of builds) await (await esbuild.context(b)).watch();
    console.log('[watch] watching for changes');
    return;
  }
  const results = await Promise.all(builds.map((b) => esbuild.build(b)));
  // esbuild fails a build on its own errors only; the plugins' errors fail it here.
  if (results.some((r) => r.errors.length > 0)) process.exitCode = 1;
}

module.exports = { extensionOptions, webExtensionOptions, webviewOptions, problems, l10nFromVscode };

if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
