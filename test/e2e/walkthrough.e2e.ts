/**
 * The Get Started walkthrough as a new user meets it: opened from the Command Palette, its first
 * step's button asks for the service URL, and steps 1-3 tick as the user connects, opens a report
 * and reads it. Screenshots: walkthrough-start.png and walkthrough-ticked.png.
 */
import * as assert from 'node:assert/strict';
import type { Locator } from 'playwright-core';
import { screenshotOnFailure, startWorkbench, type Workbench } from './harness';

describe('walkthrough (end to end)', function () {
  this.timeout(240_000);
  let wb: Workbench;

  before(async () => {
    wb = await startWorkbench({ name: 'walkthrough' });
  });
  after(async () => {
    await wb?.stop();
  });
  afterEach(async function () {
    await screenshotOnFailure(this, wb);
  });

  /** The walkthrough's step buttons in the Welcome page, by their titles. */
  function step(title: string): Locator {
    return wb.page.locator('.getting-started-step', { hasText: title }).first();
  }

  /** Whether VS Code shows the step as done: its check icon carries the class `complete`. */
  async function isTicked(title: string): Promise<boolean> {
    return (await step(title).locator('.codicon.complete').count()) > 0;
  }

  async function waitTicked(title: string): Promise<void> {
    const deadline = Date.now() + 20_000;
    while (!(await isTicked(title))) {
      if (Date.now() > deadline) assert.fail(`step "${title}" is not ticked`);
      await wb.page.waitForTimeout(200);
    }
  }

  it('opens from the Command Palette with every step and none ticked', async () => {
    // The activity bar icon shows once the extension's contributions are in: its commands too.
    await wb.activityIcon.waitFor({ state: 'visible' });
    await wb.runCommand('Page Reports: Get Started');
    await wb.page.locator('.gettingStartedContainer', { hasText: 'Get Started with Page Reports' }).waitFor();
    for (const title of [
      'Connect to your report service',
      'Browse and filter reports',
      'Read a report',
      'Analyze a page',
      "See a project's health",
      'Findings in your code',
    ]) {
      assert.equal(await step(title).count(), 1, `the walkthrough lists "${title}"`);
      assert.equal(await isTicked(title), false, `"${title}" starts unticked`);
    }
    await wb.screenshot('walkthrough-start');
  });

  it("runs the first step's button: Set Service URL asks for the URL, then the key", async () => {
    await step('Connect to your report service').click();
    const button = wb.page.locator('.getting-started-step .button-link, .getting-started-step a.monaco-button', {
      hasText: 'Set Service URL',
    });
    await button.first().click();
    const input = wb.page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    await input.fill(wb.service.url);
    await input.press('Enter');
    const keyBox = wb.page.locator('.quick-input-widget input[type="password"]');
    await keyBox.waitFor({ state: 'visible' });
    await keyBox.fill(wb.keys.main);
    await keyBox.press('Enter');
    await waitTicked('Connect to your report service');
    assert.equal(await isTicked('Read a report'), false, 'reading is not ticked by connecting');
  });

  it('ticks Browse and Read a report when the user opens a report from the Reports view', async () => {
    await wb.openView();
    const row = wb.view('Reports').locator('.pane-body .monaco-list-row').first();
    await row.waitFor({ state: 'visible' });
    await row.click();
    await wb.page.locator('iframe.webview.ready').first().waitFor({ state: 'attached' });
    await wb.runCommand('Page Reports: Get Started');
    await waitTicked('Browse and filter reports');
    await waitTicked('Read a report');
    assert.equal(await isTicked('Analyze a page'), false, 'a step the user did not take stays unticked');
    await wb.screenshot('walkthrough-ticked');
  });
});
