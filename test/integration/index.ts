/**
 * Entry point the extension host loads as `extensionTestsPath` (built to
 * out/test/integration/index.js by scripts/lib/testBuilds.ts). Runs every out/test/integration/**\/*.test.js
 * with mocha and rejects when a test failed, which makes the launcher (or desktop VS Code)
 * exit non-zero. PAGE_REPORTS_TEST_GREP filters tests by name.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type MochaType from 'mocha';

/** mocha 12 is an ES module; `require` of it (Node >= 20.19) yields its namespace, whose default is the class. */
function loadMocha(): typeof MochaType {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const loaded = require('mocha') as typeof MochaType & { default?: typeof MochaType };
  return loaded.default ?? loaded;
}

/**
 * The suites to run: those under locale/ in a locale run (PAGE_REPORTS_TEST_LOCALE set by
 * `run-integration.ts --locale`), every other one otherwise.
 */
function testFiles(dir: string): string[] {
  const localeRun = Boolean(process.env.PAGE_REPORTS_TEST_LOCALE);
  return fs
    .readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.test.js') && f.startsWith(`locale${path.sep}`) === localeRun)
    .sort()
    .map((f) => path.join(dir, f));
}

/** Called by VS Code's test runner inside the extension host. */
export async function run(): Promise<void> {
  const Mocha = loadMocha();
  const mocha = new Mocha({ ui: 'bdd', timeout: 20_000, color: false, reporter: 'spec' });
  const grep = process.env.PAGE_REPORTS_TEST_GREP;
  if (grep) mocha.grep(grep);
  const files = testFiles(__dirname);
  if (files.length === 0) throw new Error(`no *.test.js files under ${__dirname}`);
  for (const file of files) mocha.addFile(file);
  await new Promise<void>((resolve, reject) => {
    mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} integration test(s) failed`)) : resolve()));
  });
}
