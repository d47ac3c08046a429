/**
 * The build (esbuild.js). Each extension host gets one bundle, which requires nothing at run
 * time but `vscode`. The rule for translations (`l10nFromVscode`): in the extension's bundles
 * `@vscode/l10n` is VS Code's own `l10n`, which has only `t()`. A module that uses anything
 * else of the library (`config`, `bundle`, …) must fail the build rather than read `undefined`
 * at run time; the vscode-free modules' `t()` must reach VS Code's.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as esbuild from 'esbuild';

// esbuild.js is the single source of the options and the plugin (it builds only when run as a script).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const shared = require('../../esbuild.js') as {
  l10nFromVscode: esbuild.Plugin;
  extensionOptions(): esbuild.BuildOptions;
  webExtensionOptions(): esbuild.BuildOptions;
};
const { l10nFromVscode } = shared;

describe('build: one bundle per extension host', function () {
  this.timeout(60_000);

  for (const [host, options] of [
    ['Node', shared.extensionOptions()],
    ['web worker', shared.webExtensionOptions()],
  ] as const) {
    it(`the ${host} host gets one file, which requires only vscode at run time`, async () => {
      const result = await esbuild.build({
        ...options,
        absWorkingDir: path.resolve(__dirname, '..', '..'),
        bundle: true,
        write: false,
        outdir: 'out/build-test',
        logLevel: 'silent',
      });
      const files = result.outputFiles.filter((f) => f.path.endsWith('.js'));
      assert.deepEqual(
        files.map((f) => path.basename(f.path)),
        ['extension.js'],
      );
      const required = [...files[0].text.matchAll(/\brequire\(([^)]*)\)/g)].map((m) => m[1]);
      assert.deepEqual([...new Set(required)], ['"vscode"']);
    });
  }
});

/**
 * Bundles `source` as the extension's builds do with the alias: its output, or the build's
 * errors. esbuild fails a build on its own errors only; esbuild.js's main() fails it on the
 * errors a plugin adds at its end, as this does.
 */
async function bundle(source: string): Promise<{ code?: string; error?: string }> {
  const printed = console.error;
  console.error = () => {}; // the plugin prints its error for the terminal too
  try {
    const result = await esbuild.build({
      stdin: { contents: source, loader: 'ts', resolveDir: __dirname },
      bundle: true,
      write: false,
      format: 'cjs',
      platform: 'node',
      external: ['vscode'],
      logLevel: 'silent',
      plugins: [l10nFromVscode],
    });
    if (result.errors.length > 0) return { error: result.errors.map((e) => e.text).join('\n') };
    return { code: result.outputFiles[0]?.text };
  } catch (error) {
    return { error: String(error) };
  } finally {
    console.error = printed;
  }
}

describe("build: @vscode/l10n is VS Code's l10n in the extension", function () {
  this.timeout(30_000);

  it("t() builds, and calls VS Code's l10n.t, not the library's", async () => {
    const { code, error } = await bundle(
      "import * as l10n from '@vscode/l10n';\nexport const said = l10n.t('Hello {0}', 'you');",
    );
    assert.equal(error, undefined);
    assert.match(code ?? '', /require\("vscode"\)/);
    assert.doesNotMatch(
      code ?? '',
      /readFileSync|bundle\.l10n|l10n\.config|function config/,
      'none of the library itself',
    );
  });

  it('l10n.config() fails the build (esbuild only warns of it), and the error says why', async () => {
    const { code, error } = await bundle(
      "import * as l10n from '@vscode/l10n';\nl10n.config({ contents: {} });\nexport const said = l10n.t('Hello');",
    );
    assert.equal(code, undefined, 'no output');
    assert.match(
      error ?? '',
      /^@vscode\/l10n in the extension is VS Code's l10n, which has only t\(\): Import "config" will always be undefined/,
    );
  });

  it('a named import other than t fails the build (esbuild itself refuses it)', async () => {
    const { code, error } = await bundle("import { config } from '@vscode/l10n';\nconfig({ contents: {} });");
    assert.equal(code, undefined, 'no output');
    assert.match(error ?? '', /No matching export in "l10n-from-vscode:@vscode\/l10n" for import "config"/);
  });
});
