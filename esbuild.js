// Builds the extension (cjs for the extension host), the report panel's page script
// (iife for the webview) and the integration tests (cjs, run inside the extension host).
//   node esbuild.js               development build with source maps
//   node esbuild.js --production  minified, no source maps (what the VSIX ships)
//   node esbuild.js --watch       rebuild on change
const esbuild = require('esbuild');
const fs = require('node:fs');
const path = require('node:path');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const root = __dirname;

/** Copies the codicon font and stylesheet next to the webview script. */
function copyCodicons() {
  const from = path.join(root, 'node_modules', '@vscode', 'codicons', 'dist');
  const to = path.join(root, 'dist', 'codicons');
  fs.mkdirSync(to, { recursive: true });
  for (const file of ['codicon.css', 'codicon.ttf']) fs.copyFileSync(path.join(from, file), path.join(to, file));
}

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

const common = {
  bundle: true,
  minify: production,
  sourcemap: production ? false : 'linked',
  sourcesContent: false,
  logLevel: 'warning',
  legalComments: 'none',
  plugins: [problems],
};

const builds = [
  {
    ...common,
    entryPoints: { extension: 'src/extension.ts' },
    outdir: 'dist',
    format: 'cjs',
    platform: 'node',
    target: 'node22',
    external: ['vscode'],
    mainFields: ['module', 'main'],
  },
  {
    ...common,
    entryPoints: { panel: 'src/webview/panel.ts' },
    outdir: 'dist/webview',
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    tsconfig: 'src/webview/tsconfig.json',
  },
];

const integrationTests = listTests(path.join(root, 'test', 'integration'));
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

async function main() {
  copyCodicons();
  const present = builds.filter((b) => Object.values(b.entryPoints).every((e) => fs.existsSync(path.resolve(root, e))));
  if (watch) {
    for (const b of present) await (await esbuild.context(b)).watch();
    console.log('[watch] watching for changes');
    return;
  }
  await Promise.all(present.map((b) => esbuild.build(b)));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
