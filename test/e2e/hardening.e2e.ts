/**
 * Hardening (issue 13) where only the workbench can show it: what the Set API Key box
 * renders. Server text in its message is never a link (a `command:` link would run on
 * click), and a key that cannot be sent is refused in the box before any request.
 * Screenshots go to .test-output/screenshots/hardening-*.png.
 */
import * as assert from 'node:assert/strict';
import { screenshotOnFailure, startWorkbench, type Workbench } from './harness';

/** The 403 message of the issue: a Markdown link to a command that types into a terminal. */
const COMMAND_LINK = '[Renew](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22x%22%7D)';

describe('hardening (end to end)', function () {
  this.timeout(240_000);
  let wb: Workbench;

  const quickInput = () => wb.page.locator('.quick-input-widget');
  const passwordBox = () => wb.page.locator('.quick-input-widget input[type="password"]');
  const message = () => wb.page.locator('.quick-input-widget .quick-input-message');

  before(async () => {
    wb = await startWorkbench({ name: 'hardening', serviceUrl: true });
    await wb.openView();
  });

  after(async () => {
    await wb?.stop();
  });

  afterEach(function () {
    return screenshotOnFailure(this, wb);
  });

  it('item 1: a 403 message with a command link shows as text in the Set API Key box, no link element', async () => {
    await wb.admin('faults', { path: '/api/v1/projects', status: 403, body: { message: COMMAND_LINK } });
    await wb.runCommand('Page Reports: Set API Key…');
    await passwordBox().fill(wb.keys.main);
    await passwordBox().press('Enter');
    await message().filter({ hasText: 'Renew' }).waitFor({ state: 'visible' });
    await wb.screenshot('hardening-403-command-link');
    // The box's own toolbar buttons are anchors too (`a.action-label`, no href); a link from
    // the message would be an `a.monaco-link` with an href.
    const links = await quickInput()
      .locator('a')
      .evaluateAll((anchors) =>
        anchors.filter((a) => a.hasAttribute('href') || a.classList.contains('monaco-link')).map((a) => a.outerHTML),
      );
    assert.deepEqual(links, [], 'no link element under the quick input');
    assert.equal(await message().locator('a').count(), 0, 'no anchor in the message');
    const text = await message().innerText();
    assert.ok(text.includes('[Renew] (command:workbench.action.terminal.sendSequence'), `readable: ${text}`);
    // A 403 answers the same again: the box offers saving unchecked, not Enter.
    assert.ok(text.includes('To keep it anyway, use Save Without Checking') && !text.includes('Press Enter'), text);
    await passwordBox().press('Escape');
    await quickInput().waitFor({ state: 'hidden' });
  });

  it('item 4: a key with characters outside visible ASCII is refused in the box; nothing sent, nothing saved', async () => {
    await wb.admin('requests', undefined, 'DELETE');
    await wb.runCommand('Page Reports: Set API Key…');
    await passwordBox().fill('clé-secrète');
    await message()
      .filter({ hasText: 'An API key has only visible ASCII characters (no spaces).' })
      .waitFor({ state: 'visible' });
    await passwordBox().press('Enter');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    assert.equal(
      (await message().innerText()).trim(),
      'An API key has only visible ASCII characters (no spaces).',
      'still the same message after Enter',
    );
    await wb.screenshot('hardening-key-not-ascii');
    assert.deepEqual(await wb.admin('requests'), [], 'nothing is sent');
    await passwordBox().press('Escape');
    await quickInput().waitFor({ state: 'hidden' });
    assert.match(
      await wb.welcome('Projects').innerText(),
      /Add the API key/,
      'nothing saved: the view still asks for the key',
    );
  });

  it('item 1: a URL holding a command link shows as text in the New Report progress notification, no link element', async () => {
    await wb.admin('faults', undefined, 'DELETE');
    await wb.enterApiKey();
    await wb.welcome('Projects').waitFor({ state: 'hidden', timeout: 30_000 });
    // The service takes its time, so the progress notification stays on screen.
    await wb.admin('faults', {
      method: 'POST',
      path: '/api/v1/reports',
      delayMs: 8000,
      status: 503,
      body: { message: 'busy' },
    });
    const url = `http://e2e.localhost/${COMMAND_LINK}`;
    await wb.runCommand('Page Reports: New Report…');
    const urlBox = wb.page.locator('.quick-input-widget input');
    await urlBox.fill(url);
    await urlBox.press('Enter');
    const privacy = wb.page.locator('.quick-input-widget input[placeholder*="Who may open"]');
    await privacy.waitFor({ state: 'visible' });
    await privacy.fill('Public');
    await privacy.press('Enter');
    const toast = wb.page.locator('.notification-toast').filter({ hasText: 'Renew' });
    await toast.waitFor({ state: 'visible', timeout: 10_000 });
    await wb.page.waitForTimeout(500); // the toast slides in
    await wb.screenshot('hardening-progress-command-link');
    const links = await toast
      .locator('.notification-list-item-message a')
      .evaluateAll((anchors) => anchors.map((a) => a.outerHTML));
    assert.deepEqual(links, [], 'no link in the progress message');
    const text = await toast.locator('.notification-list-item-message').first().innerText();
    assert.ok(text.includes('[Renew] (command:workbench.action.terminal.sendSequence'), `readable: ${text}`);
  });
});
