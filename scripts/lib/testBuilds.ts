/**
 * The builds of the integration tests, which scripts/run-integration.ts runs: the Node
 * extension host's (out/test/integration/, one file per suite) and the web worker extension
 * host's (test/integration/web/index.ts, one file). The latter has the service's address and
 * keys written in, as a web worker has no environment to read them from.
 */
import * as fs from 'node:fs';
import { builtinModules } from 'node:module';
import * as path from 'node:path';
import type * as esbuild from 'esbuild';
import { repoRoot } from './tools';

/**
 * Node's `assert/strict` as the `assert` package (Node's assert for the browser), so the same
 * suites run in both extension hosts.
 */
const browserAssert: esbuild.Plugin = {
  name: 'browser-assert',
  setup(build) {
    build.onResolve({ filter: /^(node:)?assert(\/strict)?$/ }, () => ({
      path: 'assert/strict',
      namespace: 'browser-assert',
    }));
    build.onLoad({ filter: /.*/, namespace: 'browser-assert' }, () => ({
      contents: 'module.exports = require("assert/").strict;',
      resolveDir: repoRoot,
      loader: 'js',
    }));
  },
};

/**
 * mocha's browser build is a UMD file in an ES module package: bundled as is, its
 * `typeof exports` test would see the bundle's own `module`. Hiding those makes it take its
 * browser branch and set `globalThis.mocha`, as a page's script tag would.
 */
const mochaGlobal: esbuild.Plugin = {
  name: 'mocha-global',
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/]mocha[\\/]mocha\.js$/ }, (args) => ({
      contents: `var exports, module, define;\n${fs.readFileSync(args.path, 'utf8')}`,
      loader: 'js',
    }));
  },
};

/**
 * An empty module for each Node built-in, so the shared test harness (which also holds
 * Node-only helpers: log files, the user data folder) loads in a web worker; only tests
 * skipped there (`itInNode`) would call into them.
 */
const nodeOnlyStubs: esbuild.Plugin = {
  name: 'node-only-stubs',
  setup(build) {
    const builtins = new Set(builtinModules);
    build.onResolve({ filter: /^[a-z_:/]+$/ }, (args) => {
      const name = args.path.replace(/^node:/, '');
      if (!args.path.startsWith('node:') && !builtins.has(name)) return undefined;
      return { path: args.path, namespace: 'node-only' };
    });
    build.onLoad({ filter: /.*/, namespace: 'node-only' }, () => ({ contents: 'module.exports = {};', loader: 'js' }));
  },
};

/** esbuild.js's plugin that prints every build error with its file and line. */
function problems(): esbuild.Plugin {
  // esbuild.js is its one home (it builds only when run as a script).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('../../esbuild.js') as { problems: esbuild.Plugin }).problems;
}

/** The Node host's suites: every .ts under test/integration/ but the web host's folder. */
export function nodeTestOptions(): esbuild.BuildOptions {
  const dir = path.join(repoRoot, 'test', 'integration');
  const entryPoints = fs
    .readdirSync(dir, { recursive: true })
    .map((file) => path.join(dir, String(file)))
    .filter((file) => file.endsWith('.ts') && !file.startsWith(path.join(dir, 'web') + path.sep));
  return {
    absWorkingDir: repoRoot,
    bundle: true,
    logLevel: 'warning',
    sourcemap: 'inline',
    sourcesContent: false,
    entryPoints,
    outbase: 'test',
    outdir: path.join('out', 'test'),
    format: 'cjs',
    platform: 'node',
    target: 'node22',
    external: ['vscode', 'mocha'],
    mainFields: ['module', 'main'],
    plugins: [problems()],
  };
}

/** The web host's test bundle, with `config` written in. */
export function webTestOptions(config: Record<string, string>): esbuild.BuildOptions {
  return {
    absWorkingDir: repoRoot,
    bundle: true,
    logLevel: 'warning',
    sourcemap: 'inline',
    sourcesContent: false,
    entryPoints: { index: 'test/integration/web/index.ts' },
    outdir: path.join('out', 'test', 'web'),
    format: 'cjs',
    platform: 'browser',
    target: 'es2022',
    external: ['vscode'],
    mainFields: ['browser', 'module', 'main'],
    // browserAssert first: it takes node:assert before the stubs would.
    plugins: [problems(), browserAssert, mochaGlobal, nodeOnlyStubs],
    // The `assert` package and its `util` read `process` (env, stderr) here and there.
    define: { PAGE_REPORTS_TEST_CONFIG: JSON.stringify(config), process: JSON.stringify({ env: {}, stderr: {} }) },
  };
}
