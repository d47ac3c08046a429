/**
 * Connecting, as a user does it: Set Service URL… from the command palette, which goes on to
 * the API key's password box; a wrong key is rejected next to the input with what was typed
 * kept; the right key takes both views out of their welcome content. An `http:` URL to
 * another machine needs a confirmation, and cancelling it changes nothing. Screenshots go to
 * .test-output/screenshots/connection-*.png.
 */
import * as assert from 'node:assert/strict';
import { screenshotOnFailure, startWorkbench, type Workbench } from './harness';

describe('connection (end to end)', function () {
  this.timeout(240_000);
  let wb: Workbench;

  const quickInput = () => wb.page.locator('.quick-input-widget');
  const inputBox = () => wb.page.locator('.quick-input-widget input');
  const passwordBox = () => wb.page.locator('.quick-input-widget input[type="password"]');
  const message = () => wb.page.locator('.quick-input-widget .quick-input-message');

  before(async () => {
    wb = await startWorkbench({ name: 'connection' });
    await wb.openView();
  });

  after(async () => {
    await wb?.stop();
  });

  afterEach(function () {
    return screenshotOnFailure(this, wb);
  });

  it('asks before an unencrypted http: URL to another machine; cancelling sets nothing', async () => {
    await wb.runCommand('Page Reports: Set Service URL…');
    await inputBox().fill('http://reports.example.test');
    // The input warns while typing (Enter is still allowed).
    await message().filter({ hasText: 'unencrypted' }).waitFor({ state: 'visible' });
    await inputBox().press('Enter');
    const dialog = wb.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible' });
    assert.match(await dialog.innerText(), /unencrypted/i);
    await wb.screenshot('connection-insecure-confirmation');
    await dialog.locator('.dialog-buttons a.monaco-button', { hasText: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    // Still the first welcome: no URL was set.
    await wb.welcome('Projects').filter({ hasText: 'Connect to a report service' }).waitFor({ state: 'visible' });
  });

  it('refuses a URL that is not an absolute http(s) URL, next to the input', async () => {
    await wb.runCommand('Page Reports: Set Service URL…');
    await inputBox().fill('ftp://example.com');
    await message().filter({ hasText: 'http' }).waitFor({ state: 'visible' });
    await inputBox().press('Enter');
    // Enter is refused: the box stays with the text.
    assert.equal(await inputBox().inputValue(), 'ftp://example.com');
    await inputBox().press('Escape');
    await quickInput().waitFor({ state: 'hidden' });
  });

  it('sets the URL from the palette and goes on to the API key; the welcome now asks for the key', async () => {
    await wb.admin('requests', undefined, 'DELETE');
    await wb.runCommand('Page Reports: Set Service URL…');
    await inputBox().fill(wb.service.url);
    await inputBox().press('Enter');
    await passwordBox().waitFor({ state: 'visible' });
    await wb.welcome('Projects').filter({ hasText: 'Add the API key' }).waitFor({ state: 'visible' });
    await wb.screenshot('connection-key-box');
    assert.deepEqual(await wb.admin('requests'), [], 'nothing is sent before there is a key');
  });

  it('rejects a wrong key next to the input, keeping what was typed, and saves nothing', async () => {
    await passwordBox().fill('wrong-key');
    await passwordBox().press('Enter');
    await message().filter({ hasText: 'The service rejected the API key.' }).waitFor({ state: 'visible' });
    assert.equal(await passwordBox().inputValue(), 'wrong-key', 'the typed key is still there');
    await wb.screenshot('connection-key-rejected');
    const checks = await wb.admin<{ method: string; path: string; hasAuthorization: boolean }[]>('requests');
    assert.equal(checks.length, 1, 'one check request');
    assert.equal(checks[0]?.hasAuthorization, true);
    // Nothing saved: the welcome still asks for the key.
    assert.match(await wb.welcome('Projects').innerText(), /Add the API key/);
  });

  it('a check that shows the URL is wrong (404) points at the URL and offers no Save Without Checking', async () => {
    await wb.admin('faults', { method: 'GET', path: '/api/v1/projects', status: 404, body: { message: 'Not Found' }, times: 1 });
    await passwordBox().fill(wb.keys.main);
    await passwordBox().press('Enter');
    const said = message().filter({ hasText: 'Check the service URL (Set Service URL…).' });
    await said.waitFor({ state: 'visible' });
    assert.equal(
      await wb.page.locator('.quick-input-widget .action-label[aria-label="Save Without Checking"]').count(),
      0,
      'a key saved unchecked would not work with this URL either',
    );
    assert.equal(await passwordBox().inputValue(), wb.keys.main, 'the typed key is still there');
    await wb.screenshot('connection-key-wrong-url');
    assert.match(await wb.welcome('Projects').innerText(), /Add the API key/, 'nothing saved');
  });

  it('accepts the right key: the box closes and both views leave their welcome content', async () => {
    await passwordBox().fill(wb.keys.main);
    await passwordBox().press('Enter');
    await quickInput().waitFor({ state: 'hidden' });
    for (const name of ['Projects', 'Reports'] as const) {
      await wb.view(name).locator('.pane-body .monaco-list-row').first().waitFor({ state: 'visible', timeout: 30_000 });
      assert.equal(await wb.welcome(name).count(), 0, `${name} shows no welcome content`);
    }
    await wb.page.mouse.move(640, 700);
    await wb.screenshot('connection-ready');
  });

  it('keeps the key across a window reload (it lives in secret storage)', async () => {
    await wb.page.reload();
    await wb.page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    // The workbench restores the Page Reports sidebar by itself; clicking its icon while
    // that happens would hide it again, so only open the view when it does not come back.
    try {
      await wb.view('Projects').waitFor({ state: 'visible', timeout: 10_000 });
    } catch {
      await wb.openView();
    }
    await wb.view('Reports').locator('.pane-body .monaco-list-row').first().waitFor({ state: 'visible', timeout: 30_000 });
  });

  it('gives one prompt with Set API Key when several requests are rejected (401) at once', async () => {
    await wb.admin('faults', { path: '/api/v1/', status: 401, times: 6 });
    try {
      await wb.runCommand('Page Reports: Refresh Reports');
      await wb.runCommand('Page Reports: Refresh Projects');
      const prompts = wb.page.locator('.notification-toast', { hasText: 'The service rejected the API key.' });
      await prompts.first().waitFor({ state: 'visible', timeout: 20_000 });
      // Both lists failed; give a second prompt the time to show, should there be one.
      // Issue 45: said once above the Projects rows (no error rows); the rows stay.
      await wb.view('Projects').locator('.pane-body .message', { hasText: 'rejected the API key' }).first().waitFor();
      await wb.page.waitForTimeout(1500);
      assert.equal(await prompts.count(), 1, 'one prompt');
      assert.equal(await prompts.locator('.monaco-button', { hasText: 'Set API Key' }).count(), 1);
      for (const name of ['Projects', 'Reports'] as const) {
        const rows = wb.view(name).locator('.pane-body .monaco-list-row');
        assert.ok((await rows.count()) > 0, `${name} keeps its rows`);
        assert.equal(await rows.filter({ hasText: 'rejected the API key' }).count(), 0, `${name} has no error row`);
      }
      assert.equal(await wb.view('Reports').locator('.pane-body .message', { hasText: 'rejected' }).count(), 0, 'Reports says nothing more');
      await wb.screenshot('connection-one-401-prompt');
    } finally {
      await wb.admin('faults', undefined, 'DELETE');
    }
  });

  it('Remove API Key asks first, then brings the key welcome back', async () => {
    await wb.runCommand('Page Reports: Remove API Key');
    const dialog = wb.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible' });
    await dialog.locator('.dialog-buttons a.monaco-button', { hasText: 'Remove Key' }).click();
    await wb.welcome('Projects').filter({ hasText: 'Add the API key' }).waitFor({ state: 'visible', timeout: 20_000 });
  });
});
