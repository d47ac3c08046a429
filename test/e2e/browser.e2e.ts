/**
 * The packaged extension in the web worker extension host of code-server (its browser entry,
 * dist/web/extension.js), forced there with the user setting `remote.extensionKind`, clicked
 * through as a user: set the service URL and key, browse, open a report, re-analyze it from
 * the panel, against the reference service answering CORS as Laravel does by default. Every
 * API request then carries the workbench's `Origin` (a browser's cross-origin call; the Node
 * host sends none), which is how the test knows where the extension ran. With CORS off, the
 * key check says the service does not allow requests from the browser (CORS).
 * Screenshots: .test-output/screenshots/browser-*.png.
 */
import * as assert from 'node:assert/strict';
import type { FrameLocator, Locator } from 'playwright-core';
import type { RecordedRequest } from '../service/types';
import { screenshotOnFailure, startWorkbench, type Workbench } from './harness';

/** Runs the extension in the web worker extension host (it has a `browser` entry). */
const webHost = { 'remote.extensionKind': { 'page-reports.page-reports': ['web'] } };

describe('in the browser: the web worker extension host (end to end)', function () {
  this.timeout(300_000);

  describe('against a service with CORS', () => {
    let wb: Workbench;
    before(async () => (wb = await startWorkbench({ name: 'browser', settings: webHost })));
    after(() => wb?.stop());
    afterEach(function () {
      return screenshotOnFailure(this, wb);
    });

    const panel = (): FrameLocator => wb.page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
    const reportRows = (): Locator => wb.view('Reports').locator('.pane-body .monaco-list-row');

    it('configures, browses, opens a report and re-analyzes it, every request from the browser', async () => {
      // Configure: Set Service URL… goes on to the key's password box. The views show once
      // the web worker extension host has the extension.
      await wb.openView();
      await wb.runCommand('Page Reports: Set Service URL…');
      await wb.quickInput(wb.service.url);
      const keyBox = wb.page.locator('.quick-input-widget input[type="password"]');
      await keyBox.waitFor({ state: 'visible', timeout: 20_000 });
      await keyBox.fill(wb.keys.main);
      await keyBox.press('Enter');
      await keyBox.waitFor({ state: 'hidden', timeout: 20_000 });

      // Browse.
      await wb.openView();
      await reportRows().first().waitFor({ state: 'visible', timeout: 30_000 });
      const rows = await wb.treeRows('Reports');
      assert.ok(rows.length >= 10, `a page of reports: ${rows.join(' | ')}`);
      await wb
        .view('Projects')
        .locator('.pane-body .monaco-list-row')
        .first()
        .waitFor({ state: 'visible', timeout: 20_000 });

      // Open a report.
      await reportRows().first().click();
      await panel().locator('h1.title').waitFor({ state: 'visible', timeout: 30_000 });
      await panel().locator('.gauge-svg').first().waitFor({ state: 'visible' });
      await wb.screenshot('browser-panel');

      // One write: Re-analyze from the panel's toolbar.
      await wb.admin('requests', undefined, 'DELETE');
      await panel().getByRole('button', { name: 'Re-analyze' }).click();
      const deadline = Date.now() + 30_000;
      let patched: RecordedRequest | undefined;
      while (!patched && Date.now() < deadline) {
        await wb.page.waitForTimeout(250);
        const requests = await wb.admin<RecordedRequest[]>('requests');
        patched = requests.find((r) => r.method === 'PATCH' && r.status === 200);
      }
      assert.ok(patched, 'the service saw the re-analysis (PATCH answered 200)');
      assert.deepEqual(patched.bodyFields, ['update']);
      assert.equal(patched.hasAuthorization, true);
      await wb.screenshot('browser-reanalyzed');
    });

    it('sent every API request from the browser: each carries the workbench origin', async () => {
      const requests = await wb.admin<RecordedRequest[]>('requests');
      assert.ok(requests.length > 0);
      const workbenchOrigin = new URL(wb.url).origin;
      assert.deepEqual([...new Set(requests.map((r) => r.origin))], [workbenchOrigin]);
    });
  });

  describe('against a service without CORS', () => {
    let wb: Workbench;
    before(
      async () =>
        (wb = await startWorkbench({
          name: 'browser-no-cors',
          settings: webHost,
          serviceUrl: true,
          service: { cors: false },
        })),
    );
    after(() => wb?.stop());
    afterEach(function () {
      return screenshotOnFailure(this, wb);
    });

    it('says the service does not allow requests from the browser (CORS), not that it cannot be reached', async () => {
      await wb.openView();
      await wb.enterApiKey();
      const host = new URL(wb.service.url).host;
      const message = wb.page.locator('.quick-input-widget .quick-input-message');
      await message
        .filter({ hasText: `The service at ${host} does not allow requests from the browser (CORS).` })
        .waitFor({ state: 'visible', timeout: 30_000 });
      assert.doesNotMatch(await message.innerText(), /Cannot reach/);
      await wb.screenshot('browser-cors-refused');
    });
  });
});
