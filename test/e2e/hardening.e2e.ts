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
      .evaluateAll((anchors) => anchors.filter((a) => a.hasAttribute('href') || a.classList.contains('monaco-link')).map((a) => a.outerHTML));
    assert.deepEqual(links, [], 'no link element under the quick input');
    assert.equal(await message().locator('a').count(), 0, 'no anchor in the message');
    const text = await message().innerText();
    assert.ok(text.includes('[Renew] (command:workbench.action.terminal.sendSequence'), `readable: ${text}`);
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
    assert.match(await wb.welcome('Projects').innerText(), /Add the API key/, 'nothing saved: the view still asks for the key');
  });
});
