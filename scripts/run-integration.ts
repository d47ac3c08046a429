/**
 * Integration level of `npm test`: mocha inside the real extension host.
 *
 *   scripts/node24.sh scripts/run-integration.ts             (or: npm run test:integration)
 *   scripts/node24.sh scripts/run-integration.ts --host web  (or: npm run test:integration-web)
 *
 * `--host web` runs the suites that need no Node in the web worker extension host instead, with
 * the extension's browser entry: the user setting `remote.extensionKind` (written before the
 * launch) makes code-server run the extension there, and the tests' bundle
 * (test/integration/web/index.ts) is built after the service listens, with its address written
 * in, since a web worker has no environment. The service answers CORS as Laravel does by default.
 *
 * Builds the extension (`node esbuild.js`) and the tests (scripts/lib/testBuilds.ts), starts the reference service with
 * fault injection on loopback, then hands over to @vscode/test-electron's `runTests`, which
 * launches scripts/code-server-launcher.sh in place of the VS Code executable. With
 * PAGE_REPORTS_VSCODE=desktop it omits the launcher, so test-electron downloads and runs
 * desktop VS Code instead (needs the internet, and a display or xvfb-run on Linux);
 * PAGE_REPORTS_VSCODE_VERSION picks its version (default: stable).
 *
 * With `--locale LANGUAGE` (`de`, or `qps-ploc` for a generated pseudo-translation of every
 * message) it runs test/integration/locale/ only, in that display language: it installs a
 * minimal language pack for it (scripts/lib/languagePack.ts) and loads the extension from a copy
 * of the built extension that also holds the tests and, for qps-ploc, the pseudo bundles.
 *
 * The tests find the service through the environment (see test/integration/harness):
 *   PAGE_REPORTS_TEST_SERVICE_URL, PAGE_REPORTS_TEST_KEY, PAGE_REPORTS_TEST_OTHER_KEY,
 *   PAGE_REPORTS_TEST_FORBIDDEN_KEY; PAGE_REPORTS_TEST_GREP filters tests by name.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';
import * as esbuild from 'esbuild';
import { writeUserSettings } from './lib/codeServer';
import { startService } from '../test/service/server';
import { PSEUDO_LOCALE, writePseudoTranslations } from './lib/l10n';
import { installLanguagePack } from './lib/languagePack';
import { makeTempDir, removeDir } from './lib/processes';
import { nodeTestOptions, webTestOptions } from './lib/testBuilds';
import { ensureTools, repoRoot } from './lib/tools';

/** Keys the integration service knows; the harness reads them back from the environment. */
const integrationKeys = { main: 'test-key', other: 'other-key', forbidden: 'forbidden-key' } as const;

const outDir = path.join(repoRoot, 'out', 'test', 'integration');

async function build(): Promise<void> {
  const result = spawnSync(process.execPath, [path.join(repoRoot, 'esbuild.js')], { cwd: repoRoot, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('the build failed (node esbuild.js)');
  // Stale bundles of deleted or renamed tests would still run.
  removeDir(outDir);
  await esbuild.build(nodeTestOptions());
}

/** The extension's id, as `remote.extensionKind` names it. */
const extensionId = 'page-reports.page-reports';

/** Builds the web host's test bundle with the service's address and keys in it; answers its path. */
async function buildWebTests(env: Record<string, string>): Promise<string> {
  const options = webTestOptions(env);
  removeDir(path.join(repoRoot, String(options.outdir)));
  await esbuild.build(options);
  return path.join(repoRoot, String(options.outdir), 'index.js');
}

function hostArg(argv: readonly string[]): 'node' | 'web' {
  const at = argv.indexOf('--host');
  const host = at === -1 ? 'node' : argv[at + 1];
  if (host !== 'node' && host !== 'web') throw new Error(`--host takes node or web, not ${String(host)}`);
  return host;
}

/** The `--locale LANGUAGE` argument, if any. */
function localeArgument(argv: readonly string[]): string | undefined {
  const at = argv.indexOf('--locale');
  if (at === -1) return undefined;
  const language = argv[at + 1];
  if (!language || !/^[a-z]{2,3}(-[a-z0-9]+)*$/i.test(language))
    throw new Error('--locale needs a language, e.g. de or qps-ploc');
  return language;
}

/**
 * A copy of the built extension (what the VSIX holds, plus the built tests inside it, so their
 * `vscode.l10n` is the extension's) with, for the pseudo-locale, its generated translations.
 */
function stageExtension(dir: string, language: string): void {
  const copy = (from: string): void => fs.cpSync(path.join(repoRoot, from), path.join(dir, from), { recursive: true });
  for (const item of ['package.json', 'dist', 'media', 'l10n', 'out']) copy(item);
  for (const file of fs.readdirSync(repoRoot).filter((f) => /^package\.nls(\..+)?\.json$/.test(f))) copy(file);
  // The tests' runner requires mocha from node_modules (the bundles leave it external).
  fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  if (language === PSEUDO_LOCALE) writePseudoTranslations(dir);
}

async function main(): Promise<number> {
  const host = hostArg(process.argv.slice(2));
  const language = localeArgument(process.argv.slice(2));
  await build();
  const nodeTestsIndex = path.join(outDir, 'index.js');
  if (!fs.existsSync(nodeTestsIndex)) throw new Error(`${nodeTestsIndex} was not built`);

  const temp = makeTempDir('integration');
  const service = await startService({
    port: 0,
    keys: [integrationKeys.main, integrationKeys.other],
    forbiddenKeys: [integrationKeys.forbidden],
    seed: 40,
    faults: true,
    // Many tests share one key; a test that needs a 429 injects it with /__admin/faults.
    rateLimit: 0,
    quiet: true,
  });
  try {
    const workspace = path.join(temp, 'workspace');
    fs.mkdirSync(workspace);
    fs.writeFileSync(path.join(workspace, 'README.md'), '# Integration test workspace\n');
    const testsEnv = {
      PAGE_REPORTS_TEST_SERVICE_URL: service.url,
      PAGE_REPORTS_TEST_KEY: integrationKeys.main,
      PAGE_REPORTS_TEST_OTHER_KEY: integrationKeys.other,
      PAGE_REPORTS_TEST_FORBIDDEN_KEY: integrationKeys.forbidden,
    };
    const userDataDir = path.join(temp, 'user-data');
    let testsIndex = nodeTestsIndex;
    if (host === 'web') {
      testsIndex = await buildWebTests({
        ...testsEnv,
        PAGE_REPORTS_TEST_GREP: process.env.PAGE_REPORTS_TEST_GREP ?? '',
      });
      writeUserSettings(userDataDir, { 'remote.extensionKind': { [extensionId]: ['web'] } });
    }
    const desktop = process.env.PAGE_REPORTS_VSCODE === 'desktop';
    const extensionsDir = path.join(temp, 'extensions');
    let extensionDevelopmentPath = repoRoot;
    let extensionTestsPath = testsIndex;
    if (language) {
      extensionDevelopmentPath = path.join(temp, 'extension');
      stageExtension(extensionDevelopmentPath, language);
      extensionTestsPath = path.join(extensionDevelopmentPath, path.relative(repoRoot, testsIndex));
      const dirs = { userDataDir, extensionsDir, stateDir: path.join(temp, 'install-state') };
      await installLanguagePack(ensureTools(), dirs, language, path.join(temp, 'language-pack'));
    }
    await runTests({
      ...(desktop
        ? {
            version: process.env.PAGE_REPORTS_VSCODE_VERSION ?? 'stable',
            cachePath: path.join(repoRoot, '.cache', 'vscode-test'),
          }
        : { vscodeExecutablePath: path.join(repoRoot, 'scripts', 'code-server-launcher.sh') }),
      extensionDevelopmentPath,
      extensionTestsPath,
      launchArgs: [
        workspace,
        '--disable-extensions',
        `--user-data-dir=${userDataDir}`,
        ...(host === 'web' ? ['--extensionDevelopmentKind=web'] : []),
        `--extensions-dir=${extensionsDir}`,
      ],
      extensionTestsEnv: { ...testsEnv, ...(language ? { PAGE_REPORTS_TEST_LOCALE: language } : {}) },
    });
    return 0;
  } catch (e) {
    // runTests rejects with "Test run failed with code 1" once the tests' own report is printed.
    console.error(e instanceof Error ? e.message : String(e));
    return 1;
  } finally {
    await service.stop();
    removeDir(temp);
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
    process.exit(1);
  },
);
