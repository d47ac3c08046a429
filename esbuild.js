// Builds the extension (cjs for the Node extension host), its browser entry (cjs for the web
// worker extension host, dist/web/extension.js), the report panel's page script (iife for the
// webview) and the integration tests (cjs, run inside the extension host).
//   node esbuild.js               development build with source maps
//   node esbuild.js --production  minified, no source maps (what the VSIX ships)
//   node esbuild.js --watch       rebuild on change
//
// Plain esbuild otherwise; each plugin stays for the reason (and, for speed, the figure) given:
//   problems    not for speed: prints every build error with its file and line.
//   mainApart   activation reads only the entry (10,130 B, `npm run bench` row "Size: extension
//               entry (activation)"), not the 175,410 B main.js loaded on first use: activation
//               10.1 ms against an empty extension's 5.32 ms in the last full run (bench rows
//               "Activation: …", budget 2x the floor: passed; 11.4 against 5.29 ms, over by
//               0.8 ms, in an earlier one; CONTRIBUTING.md's Performance table).
//   splitCheck  not for speed: keeps mainApart correct (no module with state in both files; the
//               entry's imports are the lint rule of src/extension.ts, ARCHITECTURE.md).
//   vscodeOnce  one `vscode` module object instead of 21 copies: ~5 ms at load (measured when added).
//   l10nFromVscode  not for speed: every module's `@vscode/l10n` is VS Code's own
//               `l10n` in the extension's bundles, as the library asks (1.3 KB and 3.1 KB less).
//   browserApart  the Node entry without the browser-only answer handling: extension JS 185,540 B
//               instead of 187,447 B (bench size row "Size: extension JS, Node host in all",
//               budget 150 KB, over; every kilobyte counts there; measured at bec23fb).
//   noNodeBuiltins, and for the web tests browserAssert, mochaGlobal, nodeOnlyStubs: not for
//               speed; the browser entry and its tests build and run in a web worker.
//   inlinable   not for speed: the report panel inlines its page script, which must not hold
//               `</script` or `<!--`.
const esbuild = require('esbuild');
const fs = require('node:fs');
const path = require('node:path');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const root = __dirname;

function listTests(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => path.join(dir, f));
}

/** @type {import('esbuild').Plugin} */
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
 * Gives the bundle one `vscode` module object. esbuild turns each module's
 * `import * as vscode from 'vscode'` into its own `__toESM(require("vscode"))`, which copies
 * the whole API object every time (21 copies, ~5 ms at load); here every module imports one
 * bundled module that re-exports the external `vscode` once, when first needed.
 * @type {import('esbuild').Plugin}
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
 * In the extension's own bundles, `@vscode/l10n` is VS Code's `l10n` API. Every module
 * translates with `@vscode/l10n` (one import for all; the vscode-free ones, src/common, src/api's
 * messages, the views' words, also run outside VS Code: unit tests, the webviews); in the extension host
 * the library's README says not to use it ("The translations are loaded into the main process
 * by VS Code itself"), and `vscode.l10n.t` takes the same arguments and reads the same bundle.
 * Not for speed: the library and its `config` call out of the bundles, 1,348 B of the browser
 * entry and 3,128 B of the Node host's files (its Node build reads bundles from disk) at
 * de1c339 (bench size rows "Size: browser entry", budget 200 KB, and "Size: extension JS",
 * budget 150 KB).
 * @type {import('esbuild').Plugin}
 */
const l10nFromVscode = {
  name: 'l10n-from-vscode',
  setup(build) {
    build.onResolve({ filter: /^@vscode\/l10n$/ }, () => ({ path: '@vscode/l10n', namespace: 'l10n-from-vscode' }));
    build.onLoad({ filter: /.*/, namespace: 'l10n-from-vscode' }, () => ({
      // `t` only: the extension's modules need nothing else, and any other name fails the
      // build (see the onEnd check below) rather than reading undefined at run time.
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
 * Ships `src/main.ts` (everything activation defers) as its own file, dist/main.js:
 * `src/activation/loadMain.ts`'s `require('../main')` stays a runtime require of that file instead of
 * bundling main.ts into the entry, so activation loads and parses only the small entry.
 * Modules both files import (the `vscode` module, src/ids.ts, the state note) are then
 * in both; each holds only constants and functions, no state: SHARED_STATELESS lists them
 * and every build fails when another module lands in both files.
 * @type {import('esbuild').Plugin}
 */
const mainApart = {
  name: 'main-apart',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/main$/ }, (args) =>
      path.resolve(args.importer) === path.resolve(root, 'src', 'activation', 'loadMain.ts')
        ? { path: './main', external: true }
        : undefined,
    );
  },
};

/**
 * A plugin named `name` that builds with src/`to`.ts wherever a module imports src/`from`
 * (both without extension, e.g. `api/browser`).
 * @returns {import('esbuild').Plugin}
 */
function swapModule(name, from, to) {
  return {
    name,
    setup(build) {
      build.onResolve({ filter: new RegExp(`/${path.basename(from)}$`) }, (args) =>
        path.resolve(args.resolveDir, args.path) === path.resolve(root, 'src', from)
          ? { path: path.resolve(root, 'src', `${to}.ts`) }
          : undefined,
      );
    },
  };
}

/**
 * Builds the Node entry with src/api/browserNode.ts in place of src/api/browser.ts: Node's
 * fetch never answers as a browser does, so the browser handling would only be bytes there
 * (bench size row: extension JS 187,447 B with it, 185,540 B without, at bec23fb; budget 150 KB).
 * The browser entry keeps it.
 */
const browserApart = swapModule('browser-apart', 'api/browser', 'api/browserNode');

/**
 * The only sources allowed in both dist/extension.js and dist/main.js. Each copy would have its
 * own module state, so a module with state (the l10n function's, the connection's, a cache)
 * must stay in one file; these hold constants and pure functions only, but for globalMemento.ts,
 * which keeps its state on globalThis for both.
 */
const SHARED_STATELESS = new Set([
  'vscode-once:vscode',
  // VS Code's l10n.t (l10nFromVscode): a function, no state.
  'l10n-from-vscode:@vscode/l10n',
  'src/ids.ts',
  'src/activation/stateNote.ts',
  'src/activation/shell.ts',
  // The accounts part in the entry (provider, status bar) and main.ts (connection, Switch
  // Service…) share these: functions over SecretStorage and global state, no module state.
  'src/accounts/keyIndex.ts',
  'src/accounts/knownServices.ts',
  'src/accounts/labels.ts',
  // The account labels' loopback check: functions, no state.
  'src/common/urls.ts',
  // Keeps its wrappers on globalThis (one per memento for both files), not in module state.
  'src/common/globalMemento.ts',
]);

/** Sources an extension build put into both of its outputs that are not known to be stateless. */
function duplicatedModules(metafile) {
  const [a, b] = Object.values(metafile.outputs).filter((o) => o.entryPoint);
  if (!a || !b) return [];
  return Object.keys(a.inputs).filter((input) => input in b.inputs && !SHARED_STATELESS.has(input));
}

/** @type {import('esbuild').Plugin} */
const splitCheck = {
  name: 'split-check',
  setup(build) {
    build.onEnd((result) => {
      if (!result.metafile) return;
      const twice = duplicatedModules(result.metafile);
      if (twice.length > 0) {
        result.errors.push({
          text: `in both dist/extension.js and dist/main.js (each copy would keep its own state): ${twice.join(', ')}`,
        });
      }
    });
  },
};

/**
 * Fails the browser entry's build on any Node built-in (`fs`, `node:crypto`, …): the web worker
 * extension host has none, and esbuild's browser platform would only warn or leave a `require`
 * that throws at run time. Names the importer so the fix is obvious.
 * @type {import('esbuild').Plugin}
 */
const noNodeBuiltins = {
  name: 'no-node-builtins',
  setup(build) {
    const builtins = new Set(require('node:module').builtinModules);
    build.onResolve({ filter: /^[a-z_:/]+$/ }, (args) => {
      const name = args.path.replace(/^node:/, '');
      if (!args.path.startsWith('node:') && !builtins.has(name) && !builtins.has(name.split('/')[0])) return undefined;
      return {
        errors: [
          {
            text: `Node built-in "${args.path}" imported by ${path.relative(root, args.importer)}: the browser entry runs in a web worker, which has no Node modules. Use a web API, or keep the code in a Node-only module.`,
          },
        ],
      };
    });
  },
};

/**
 * Fails the webview build when the report page's script holds `</script` or `<!--`: the report
 * panel puts the script into its HTML (src/panels/pageAssets.ts), where the first would end the
 * element and the second could keep it from ending. Not for speed; esbuild already writes
 * `<\/script` inside strings.
 * @type {import('esbuild').Plugin}
 */
const inlinable = {
  name: 'inlinable',
  setup(build) {
    build.onEnd((result) => {
      const file = path.join(root, 'dist', 'webview', 'panel.js');
      if (result.errors.length > 0 || !fs.existsSync(file)) return;
      if (/<\/script|<!--/i.test(fs.readFileSync(file, 'utf8'))) {
        result.errors.push({ text: 'dist/webview/panel.js holds "</script" or "<!--" and cannot be inlined into the report panel' });
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
  plugins: [problems],
};

/** The extension bundle's own options (bench/lib/builds.ts builds it the same way for analysis). */
function extensionOptions() {
  return {
    entryPoints: { extension: 'src/extension.ts', main: 'src/main.ts' },
    format: 'cjs',
    platform: 'node',
    target: 'node22',
    // Non-ASCII characters of strings as they are (3 bytes in UTF-8), not as \u escapes (6).
    charset: 'utf8',
    external: ['vscode'],
    mainFields: ['module', 'main'],
    plugins: [vscodeOnce, l10nFromVscode, mainApart, browserApart],
    // One "use strict" for the whole file instead of one in each lazily run module (~0.5 KB):
    // tsconfig.json's strict would make esbuild repeat it inside every module wrapper.
    tsconfigRaw: { compilerOptions: { target: 'ES2023', alwaysStrict: false } },
    banner: { js: '"use strict";' },
  };
}

/**
 * Builds the browser entry with src/activation/loadMainWeb.ts in place of loadMain.ts: one file
 * holds everything, so main.ts is imported rather than required on first use, and esbuild does
 * not wrap each of its modules to run later.
 */
const mainAtOnce = swapModule('main-at-once', 'activation/loadMain', 'activation/loadMainWeb');

/**
 * The browser entry's own options (also used by bench/lib/builds.ts): the same activation
 * and features for the web worker extension host, in one file (main.ts imported through
 * mainAtOnce; its `start` still runs on first use only), with no Node built-ins.
 */
function webExtensionOptions() {
  return {
    entryPoints: { extension: 'src/extension.ts' },
    format: 'cjs',
    platform: 'browser',
    target: 'es2022',
    charset: 'utf8',
    external: ['vscode'],
    mainFields: ['browser', 'module', 'main'],
    plugins: [noNodeBuiltins, vscodeOnce, l10nFromVscode, mainAtOnce],
    tsconfigRaw: { compilerOptions: { target: 'ES2022', alwaysStrict: false } },
    banner: { js: '"use strict";' },
  };
}

/** The webview script's own options (also used by bench/lib/builds.ts). */
function webviewOptions() {
  return {
    // Each page its own script: Chart.js is only in the insights page's (insights.js).
    entryPoints: { panel: 'src/webview/panel.ts', insights: 'src/webview/insights.ts' },
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    charset: 'utf8',
    tsconfig: 'src/webview/tsconfig.json',
  };
}

const builds = [
  {
    ...common,
    ...extensionOptions(),
    plugins: [splitCheck, ...common.plugins, ...extensionOptions().plugins],
    metafile: true,
    outdir: 'dist',
  },
  {
    ...common,
    ...webExtensionOptions(),
    plugins: [...common.plugins, ...webExtensionOptions().plugins],
    outdir: 'dist/web',
  },
  {
    ...common,
    ...webviewOptions(),
    plugins: [...common.plugins, inlinable],
    outdir: 'dist/webview',
  },
];

// test/integration/web/ is the web worker host's own bundle (webTestOptions), not the Node host's.
const integrationTests = listTests(path.join(root, 'test', 'integration')).filter(
  (file) => !file.startsWith(path.join(root, 'test', 'integration', 'web') + path.sep),
);
if (!production && integrationTests.length > 0) {
  builds.push({
    ...common,
    minify: false,
    sourcemap: 'inline',
    entryPoints: integrationTests,
    outbase: 'test',
    outdir: 'out/test',
    format: 'cjs',
    platform: 'node',
    target: 'node22',
    external: ['vscode', 'mocha'],
    mainFields: ['module', 'main'],
  });
}

/**
 * Node's `assert/strict` in the web test bundle: the `assert` package (Node's assert for the
 * browser), so the same suites run in both extension hosts.
 * @type {import('esbuild').Plugin}
 */
const browserAssert = {
  name: 'browser-assert',
  setup(build) {
    build.onResolve({ filter: /^(node:)?assert(\/strict)?$/ }, () => ({ path: 'assert/strict', namespace: 'browser-assert' }));
    build.onLoad({ filter: /.*/, namespace: 'browser-assert' }, () => ({
      contents: 'module.exports = require("assert/").strict;',
      resolveDir: root,
      loader: 'js',
    }));
  },
};

/**
 * mocha's browser build is a UMD file in an ES module package: bundled as is, its
 * `typeof exports` test would see the bundle's own `module`. Hiding those makes it take its
 * browser branch and set `globalThis.mocha`, as a page's script tag would.
 * @type {import('esbuild').Plugin}
 */
const mochaGlobal = {
  name: 'mocha-global',
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/]mocha[\\/]mocha\.js$/ }, (args) => ({
      contents: `var exports, module, define;\n${fs.readFileSync(args.path, 'utf8')}`,
      loader: 'js',
    }));
  },
};

/**
 * Node built-ins in the web test bundle: an empty module each, so the shared test harness
 * (which also holds Node-only helpers: log files, the user data folder) loads in a web
 * worker; only tests skipped there (`itInNode`) would call into them.
 * @type {import('esbuild').Plugin}
 */
const nodeOnlyStubs = {
  name: 'node-only-stubs',
  setup(build) {
    const builtins = new Set(require('node:module').builtinModules);
    build.onResolve({ filter: /^[a-z_:/]+$/ }, (args) => {
      const name = args.path.replace(/^node:/, '');
      if (!args.path.startsWith('node:') && !builtins.has(name)) return undefined;
      return { path: args.path, namespace: 'node-only' };
    });
    build.onLoad({ filter: /.*/, namespace: 'node-only' }, () => ({ contents: 'module.exports = {};', loader: 'js' }));
  },
};

/**
 * The integration tests for the web worker extension host (test/integration/web/index.ts), one
 * file. `config` (the service's address and keys) is written in, as a web worker has no
 * environment to read it from; scripts/run-integration.ts builds this once the service listens.
 * @param {Record<string, string>} config
 */
function webTestOptions(config) {
  return {
    ...common,
    minify: false,
    sourcemap: 'inline',
    entryPoints: { index: 'test/integration/web/index.ts' },
    outdir: 'out/test/web',
    format: 'cjs',
    platform: 'browser',
    target: 'es2022',
    external: ['vscode'],
    mainFields: ['browser', 'module', 'main'],
    // browserAssert first: it takes node:assert before the stubs would.
    plugins: [...common.plugins, browserAssert, mochaGlobal, nodeOnlyStubs],
    // The `assert` package and its `util` read `process` (env, stderr) here and there.
    define: { PAGE_REPORTS_TEST_CONFIG: JSON.stringify(config), process: JSON.stringify({ env: {}, stderr: {} }) },
  };
}

async function main() {
  const present = builds.filter((b) => Object.values(b.entryPoints).every((e) => fs.existsSync(path.resolve(root, e))));
  if (watch) {
    for (const b of present) await (await esbuild.context(b)).watch();
    console.log('[watch] watching for changes');
    return;
  }
  const results = await Promise.all(present.map((b) => esbuild.build(b)));
  // esbuild fails a build on its own errors only; the split check's error fails it here.
  if (results.some((r) => r.errors.length > 0)) process.exitCode = 1;
}

module.exports = { extensionOptions, webExtensionOptions, webTestOptions, webviewOptions, duplicatedModules, noNodeBuiltins, l10nFromVscode };

if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
