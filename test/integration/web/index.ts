/**
 * Entry point of the integration tests in the web worker extension host (the extension's
 * browser entry), built to out/test/web/index.js by scripts/run-integration.ts with the
 * service's address written in (a web worker has no environment). Runs mocha's browser build
 * over the suites that need no Node; the rest run in the Node extension host only:
 *   secrets.test.ts  searches the user data folder's files for the secrets (needs the file system)
 *   views.test.ts    starts a service of its own inside the extension host (needs node:http)
 * and single tests that need Node are skipped with `itInNode` (harness).
 */
declare const PAGE_REPORTS_TEST_CONFIG: Readonly<Record<string, string>>;

interface BrowserMocha {
  setup(options: { ui: 'bdd'; reporter: string; timeout: number; color: boolean }): void;
  grep(pattern: string): void;
  run(done: (failures: number) => void): void;
}

/** Called by the web worker extension host's test runner. */
export async function run(): Promise<void> {
  // mocha's browser build sets `globalThis.mocha` (see scripts/lib/testBuilds.ts, mochaGlobal).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('mocha/mocha.js');
  const mocha = (globalThis as unknown as { mocha: BrowserMocha }).mocha;
  mocha.setup({ ui: 'bdd', reporter: 'spec', timeout: 20_000, color: false });
  const grep = PAGE_REPORTS_TEST_CONFIG.PAGE_REPORTS_TEST_GREP;
  if (grep) mocha.grep(grep);
  // Required after setup: the suites call the `describe` and `it` it defines as they load.
  /* eslint-disable @typescript-eslint/no-require-imports */
  require('../extension.test');
  require('../connection.test');
  require('../panel.test');
  require('../writes.test');
  require('../agent.test');
  require('../globalState.test');
  require('./browser.test');
  /* eslint-enable @typescript-eslint/no-require-imports */
  await new Promise<void>((resolve, reject) => {
    mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} integration test(s) failed`)) : resolve()));
  });
}
