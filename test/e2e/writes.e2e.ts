/**
 * The writes clicked through as a user, in the packaged extension in code-server: New Report…
 * from the palette (refused URL, created report selected with its panel open, Password
 * privacy with no password in the log), Re-analyze from the item's menu, Delete Report…
 * cancelled then confirmed, Delete Project…, and three selected reports deleted together (their
 * menu without the commands that act on one report only).
 * Screenshots go to .test-output/screenshots/writes-*.png.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator } from 'playwright-core';
import { screenshotOnFailure, startWorkbench, type Workbench } from './harness';
import type { RawReport } from '../service/types';
import type { RecordedRequest } from '../service/types';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('writes (end to end)', function () {
  this.timeout(240_000);
  let wb: Workbench;
  let port: string;

  const page = (host: string, file = 'good.html'): string => `http://${host}:${port}/demo-site/${file}`;
  /**
   * What a row of the Reports view and a report's tab show for a URL: its page, then its host
   * (the row's description names it, as the list mixes hosts; the tab's title ends with it).
   */
  const label = (url: string): RegExp => {
    const { pathname, search, hostname } = new URL(url);
    return new RegExp(`${escapeRegExp(pathname + search)}[\\s\\S]*${escapeRegExp(hostname)}`);
  };
  /** The page of a URL: what its row shows under its project, where the host would only repeat. */
  const pageOf = (url: string): string => new URL(url).pathname;
  /** A message in the status bar, where successes the views show are told (issue 45: no toast). */
  const statusBar = (text: string): Locator => wb.page.locator('.part.statusbar', { hasText: text });
  /** How messages name a report: its page on its host. */
  const named = (url: string): string => `${new URL(url).pathname} on ${new URL(url).hostname}`;
  const inputBox = (): Locator => wb.page.locator('.quick-input-widget input');
  const message = (): Locator => wb.page.locator('.quick-input-widget .quick-input-message');
  const rows = (view: 'Reports' | 'Projects'): Locator => wb.view(view).locator('.pane-body .monaco-list-row');
  const row = (view: 'Reports' | 'Projects', text: string | RegExp): Locator => rows(view).filter({ hasText: text }).first();
  const dialog = (): Locator => wb.page.locator('.monaco-dialog-box');
  const tab = (text: string | RegExp): Locator => wb.page.locator('.tabs-container .tab').filter({ hasText: text });

  async function api<T>(pathAndQuery: string): Promise<{ status: number; body: T }> {
    const response = await fetch(`${wb.service.url}${pathAndQuery}`, {
      headers: { Authorization: `Bearer ${wb.keys.main}`, Accept: 'application/json' },
    });
    return { status: response.status, body: (await response.json()) as T };
  }

  async function reportsOfProject(project: string): Promise<RawReport[]> {
    return (await api<{ data: RawReport[] }>(`/api/v1/reports?per_page=100&project=${encodeURIComponent(project)}`))
      .body.data;
  }

  /** Inserts a report; `fields` as the admin endpoint takes them (a check's `passed` may be null). */
  async function insert(url: string, fields: Record<string, unknown> = {}): Promise<RawReport> {
    const answer = await wb.admin<{ data: RawReport }>('reports', {
      key: wb.keys.main,
      report: { url, result: 'decent', score: 61, generated_at: '2024-03-01T12:00:00.000000Z', ...fields },
    });
    return answer.data;
  }

  /**
   * Runs a command of a row's context menu, chosen with the keyboard as a user may (a mouse
   * click right after the menu opens is sometimes taken for the end of the right click). A
   * report panel that finishes loading takes the focus, and the menu closes with it: then the
   * menu is opened again, three times at most.
   */
  async function fromMenu(target: Locator, command: string): Promise<void> {
    const menu = wb.page.locator('.context-view .monaco-menu');
    for (let attempt = 1; attempt <= 3; attempt++) {
      await target.click({ button: 'right' });
      const opened = await menu.waitFor({ state: 'visible', timeout: 10_000 }).then(
        () => true,
        () => false,
      );
      if (!opened) continue;
      const count = await menu.locator('.action-item:not(.disabled) .action-menu-item').count();
      for (let i = 0; i < count; i++) {
        if (!(await menu.isVisible())) break;
        await wb.page.keyboard.press('ArrowDown');
        const focused = menu.locator('.action-item.focused');
        // The item's label alone: a command with a keybinding shows it next to the label (Delete).
        const focusedLabel = focused.locator('.action-label').first();
        const label = (await focused.count()) > 0 ? await focusedLabel.innerText({ timeout: 2_000 }).catch(() => '') : '';
        if (label.trim() === command) {
          await wb.page.keyboard.press('Enter');
          await menu.waitFor({ state: 'detached' });
          return;
        }
      }
      if (await menu.isVisible()) {
        await wb.page.keyboard.press('Escape');
        assert.fail(`no ${command} in the context menu`);
      }
    }
    assert.fail(`the context menu closed three times before ${command} could be chosen`);
  }

  /** New Report… from the palette: the URL, then the privacy. */
  async function newReport(url: string, privacy: 'Public' | 'Private' | 'Password'): Promise<void> {
    await wb.runCommand('Page Reports: New Report…');
    await inputBox().fill(url);
    await inputBox().press('Enter');
    await choosePrivacy(privacy);
  }

  /**
   * Waits until the service has the PATCH of `report` (its answer held back by a fault), so an
   * Escape pressed next closes the box while the request is on its way, however loaded the host.
   */
  async function patchOnItsWay(report: RawReport): Promise<void> {
    const deadline = Date.now() + 10_000;
    const sent = async (): Promise<boolean> =>
      (await wb.admin<RecordedRequest[]>('requests')).some(
        (r) => r.method === 'PATCH' && r.path === `/api/v1/reports/${report.id}`,
      );
    while (!(await sent())) {
      if (Date.now() > deadline) throw new Error(`the PATCH of report ${report.id} did not reach the service within 10 s`);
      await wb.page.waitForTimeout(100);
    }
  }

  /** A new report of `host`, its Change Privacy… from its row, Password chosen: the password box. */
  async function passwordStep(host: string): Promise<{ report: RawReport; hidden: Locator }> {
    const report = await insert(page(host));
    await refreshReports();
    const item = row('Reports', label(report.url));
    await item.waitFor({ state: 'visible', timeout: 20_000 });
    await fromMenu(item, 'Change Privacy…');
    await wb.page.locator('.quick-input-widget .monaco-list-row', { hasText: 'current' }).waitFor({ state: 'visible' });
    await wb.page.locator('.quick-input-widget input').fill('Password');
    await wb.page.locator('.quick-input-widget input').press('Enter');
    const hidden = wb.page.locator('.quick-input-widget input[type="password"]');
    await hidden.waitFor({ state: 'visible' });
    return { report, hidden };
  }

  /** The report's privacy as the service holds it. */
  async function privacyOf(report: RawReport): Promise<unknown> {
    return (await api<{ data: RawReport }>(`/api/v1/reports/${report.id}`)).body.data.privacy;
  }

  /** Answers the privacy step of New Report… once it shows. */
  async function choosePrivacy(choice: 'Public' | 'Private' | 'Password'): Promise<void> {
    const pick = wb.page.locator('.quick-input-widget input[placeholder*="Who may open"]');
    await pick.waitFor({ state: 'visible' });
    await pick.fill(choice);
    await pick.press('Enter');
  }

  /**
   * Waits until the report's panel shows its content. A webview takes the focus once it has
   * loaded; acting before that, a menu or the palette would lose the focus to it and close.
   */
  async function panelShown(title: string | RegExp): Promise<void> {
    await tab(title).waitFor({ state: 'visible', timeout: 20_000 });
    const content = wb.page
      .locator('iframe.webview.ready:visible')
      .contentFrame()
      .locator('iframe#active-frame')
      .contentFrame()
      .getByText(title)
      .first();
    await content.waitFor({ state: 'visible', timeout: 20_000 });
    await wb.page.waitForTimeout(500);
  }

  /**
   * Refresh Reports, then waits until the service has answered every request for half a second:
   * a row's menu opened while a list still reloads (this one, or one a write before started)
   * may reach the extension without its row, and the command then asks which report.
   */
  async function refreshReports(): Promise<void> {
    await wb.runCommand('Page Reports: Refresh Reports');
    const deadline = Date.now() + 10_000;
    for (let calm = 0; calm < 3 && Date.now() < deadline; ) {
      await wb.page.waitForTimeout(150);
      // A request unanswered for 5 s is one an earlier test dropped (a New Report's cut connection), no reload.
      const pending = (await wb.admin<RecordedRequest[]>('requests')).some(
        (r) => r.status === null && Date.now() - Date.parse(r.at) < 5_000,
      );
      calm = pending ? 0 : calm + 1;
    }
  }

  /** The user data folder of this workbench (the workspace folder's sibling, see the harness). */
  function userDataDir(): string {
    const folder = new URL(wb.url).searchParams.get('folder');
    assert.ok(folder, 'the workbench URL names its folder');
    return path.join(path.dirname(folder), 'user-data');
  }

  before(async () => {
    wb = await startWorkbench({ name: 'writes', serviceUrl: true, service: { seed: 8 } });
    port = new URL(wb.service.url).port;
    await wb.page.setViewportSize({ width: 1400, height: 1100 });
    await wb.openView();
    await wb.enterApiKey();
    await rows('Reports').first().waitFor({ state: 'visible', timeout: 30_000 });
  });

  after(async () => {
    await wb?.stop();
  });

  afterEach(function () {
    return screenshotOnFailure(this, wb);
  });

  it('refuses an invalid URL at the input; the service receives nothing', async () => {
    await wb.admin('requests', undefined, 'DELETE');
    await wb.runCommand('Page Reports: New Report…');
    await inputBox().fill('example.com/pricing');
    await message().filter({ hasText: 'absolute http' }).waitFor({ state: 'visible' });
    await inputBox().press('Enter');
    // Enter is refused: still the URL step, with the text kept.
    assert.equal(await inputBox().inputValue(), 'example.com/pricing');
    await wb.screenshot('writes-invalid-url');
    await inputBox().press('Escape');
    assert.deepEqual(await wb.admin<RecordedRequest[]>('requests'), []);
  });

  it('creates a report for a demo-site page: selected in the tree, its panel open', async () => {
    const url = page('e2e.localhost');
    await newReport(url, 'Public');
    const created = row('Reports', label(url));
    await created.waitFor({ state: 'visible', timeout: 30_000 });
    await wb
      .view('Reports')
      .locator('.pane-body .monaco-list-row.selected')
      .filter({ hasText: label(url) })
      .waitFor({ state: 'visible', timeout: 10_000 });
    await panelShown(label(url));
    const stored = await reportsOfProject('e2e.localhost');
    assert.equal(stored.length, 1);
    assert.equal(stored[0]?.privacy, 0);
    await wb.screenshot('writes-created');
  });

  it('creates a Password report: the service holds privacy 2, the log holds no password', async () => {
    const password = 'e2e-report-password-8c1f3a';
    const url = page('secret.localhost', 'mediocre.html');
    await newReport(url, 'Password');
    const hidden = wb.page.locator('.quick-input-widget input[type="password"]');
    await hidden.waitFor({ state: 'visible' });
    await hidden.fill(password);
    await hidden.press('Enter');
    await row('Reports', label(url)).waitFor({ state: 'visible', timeout: 30_000 });
    await panelShown(label(url));
    const stored = await reportsOfProject('secret.localhost');
    assert.equal(stored.length, 1);
    assert.equal(stored[0]?.privacy, 2);

    await wb.runCommand('Page Reports: Show Log');
    const logs = fs
      .readdirSync(path.join(userDataDir(), 'logs'), { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('Page Reports.log'))
      .map((f) => path.join(userDataDir(), 'logs', f));
    assert.equal(logs.length, 1, 'the Page Reports log file');
    const text = fs.readFileSync(logs[0], 'utf8');
    assert.match(text, /POST \/api\/v1\/reports/, 'the log holds the store request');
    assert.ok(!text.includes(password), 'the log holds no password');
    await wb.screenshot('writes-password-log');
  });

  it("shows the service's refusal (422) next to the URL input, with what was typed kept", async () => {
    const missing = page('fix.localhost', 'no-such-page.html');
    await newReport(missing, 'Private');
    // Back at the URL step: the service's words next to the input, the URL still there.
    await message().filter({ hasText: 'could not be fetched' }).waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal(await inputBox().inputValue(), missing);
    await wb.screenshot('writes-422-next-to-input');
    // Correct the URL; the privacy chosen before is still the active choice.
    const fixed = page('fix.localhost', 'good.html');
    await inputBox().fill(fixed);
    await inputBox().press('Enter');
    const pick = wb.page.locator('.quick-input-widget input[placeholder*="Who may open"]');
    await pick.waitFor({ state: 'visible' });
    await wb.page.locator('.quick-input-widget .monaco-list-row.focused', { hasText: 'Private' }).waitFor();
    await pick.press('Enter');
    await row('Reports', label(fixed)).waitFor({ state: 'visible', timeout: 30_000 });
    await panelShown(label(fixed));
    const stored = await reportsOfProject('fix.localhost');
    assert.deepEqual(
      stored.map((r) => [r.url, r.privacy]),
      [[fixed, 1]],
    );
  });

  it('keeps a New Report that failed: Retry sends the same URL and privacy again', async () => {
    const url = page('retry.localhost');
    await wb.admin('requests', undefined, 'DELETE');
    await wb.admin('faults', { method: 'POST', path: '/api/v1/reports', status: 503, times: 1 });
    await newReport(url, 'Private');
    const toast = wb.page.locator('.notification-toast', { hasText: 'answered 503' });
    await toast.waitFor({ state: 'visible', timeout: 20_000 });
    await wb.page.locator('.notification-toast', { hasText: 'Analyzing' }).waitFor({ state: 'hidden', timeout: 10_000 });
    await wb.screenshot('writes-create-failed-retry');
    await toast.locator('a.monaco-button', { hasText: 'Retry' }).click();
    await row('Reports', label(url)).waitFor({ state: 'visible', timeout: 30_000 });
    await panelShown(label(url));
    assert.deepEqual(
      (await reportsOfProject('retry.localhost')).map((r) => [r.url, r.privacy]),
      [[url, 1]],
    );
    const stores = (await wb.admin<RecordedRequest[]>('requests')).filter((r) => r.method === 'POST');
    assert.equal(stores.length, 2, 'the store that failed, then the one Retry sent');
    await wb.closeAllEditors();
  });

  it('says a New Report whose connection dropped may have been created, and offers Refresh, not Retry', async () => {
    const url = page('dropped.localhost');
    await wb.admin('requests', undefined, 'DELETE');
    // The connection closes after the store went out: the extension cannot know whether the
    // service created the report (here it did not).
    await wb.admin('faults', { method: 'POST', path: '/api/v1/reports', drop: true, times: 1 });
    await newReport(url, 'Public');
    const toast = wb.page.locator('.notification-toast', { hasText: 'may have created the report' });
    await toast.waitFor({ state: 'visible', timeout: 20_000 });
    assert.match(await toast.innerText(), /Cannot reach 127\.0\.0\.1:\d+ \(connection closed\)/);
    assert.equal(await toast.locator('a.monaco-button', { hasText: 'Retry' }).count(), 0, 'no Retry: it could make a second one');
    await wb.page.locator('.notification-toast', { hasText: 'Analyzing' }).waitFor({ state: 'hidden', timeout: 10_000 });
    await wb.screenshot('writes-create-may-have-created');
    await toast.locator('a.monaco-button', { hasText: 'Refresh' }).click();
    await toast.waitFor({ state: 'hidden', timeout: 10_000 });
    const stores = (await wb.admin<RecordedRequest[]>('requests')).filter((r) => r.method === 'POST');
    assert.equal(stores.length, 1, 'sent once');
    assert.deepEqual(await reportsOfProject('dropped.localhost'), []);
  });

  it('changes privacy from the item menu: current value marked, a password for Password, confirmed', async () => {
    const report = await insert(page('share.localhost'));
    await refreshReports();
    const item = row('Reports', label(report.url));
    await item.waitFor({ state: 'visible', timeout: 20_000 });
    await fromMenu(item, 'Change Privacy…');
    const current = wb.page.locator('.quick-input-widget .monaco-list-row', { hasText: 'current' });
    await current.waitFor({ state: 'visible' });
    assert.match(await current.innerText(), /Public/);
    await wb.screenshot('writes-privacy-pick');
    await wb.page.locator('.quick-input-widget input').fill('Password');
    await wb.page.locator('.quick-input-widget input').press('Enter');
    const hidden = wb.page.locator('.quick-input-widget input[type="password"]');
    await hidden.waitFor({ state: 'visible' });
    await hidden.fill('share-password-51d2');
    await hidden.press('Enter');
    await statusBar(`${named(report.url)} is now password-protected.`).waitFor({ state: 'visible', timeout: 20_000 });
    const stored = (await api<{ data: RawReport }>(`/api/v1/reports/${report.id}`)).body.data;
    assert.equal(stored.privacy, 2);
  });

  it('re-analyzes from the item menu: the generated date shown changes', async () => {
    const report = await insert(page('again.localhost'));
    await refreshReports();
    const item = row('Reports', label(report.url));
    await item.waitFor({ state: 'visible', timeout: 20_000 });
    const before = (await item.innerText()).replace(/\s+/g, ' ');
    assert.match(before, /years? ago/, before);
    await fromMenu(item, 'Re-analyze');
    const deadline = Date.now() + 20_000;
    let after = before;
    while (after === before && Date.now() < deadline) {
      await wb.page.waitForTimeout(200);
      after = (await item.innerText()).replace(/\s+/g, ' ');
    }
    assert.notEqual(after, before, 'the row shows the new generated date');
    assert.doesNotMatch(after, /years? ago/, after);
    const stored = (await api<{ data: RawReport }>(`/api/v1/reports/${report.id}`)).body.data;
    assert.notEqual(stored.generated_at, report.generated_at);
    await wb.screenshot('writes-reanalyzed');
  });

  it('deletes nothing when the confirmation is cancelled; confirmed, the report leaves tree and panel', async () => {
    const report = await insert(page('delete.localhost'));
    await refreshReports();
    const item = row('Reports', label(report.url));
    await item.waitFor({ state: 'visible', timeout: 20_000 });
    await item.click(); // opens the panel
    await panelShown(label(report.url));

    await fromMenu(item, 'Delete Report…');
    await dialog().waitFor({ state: 'visible' });
    // Issue 45: it names the page on its host (the tooltip and panel keep the whole URL).
    assert.ok((await dialog().innerText()).includes(named(report.url)), 'the confirmation names the page');
    await wb.screenshot('writes-delete-confirmation');
    await dialog().locator('.dialog-buttons a.monaco-button', { hasText: 'Cancel' }).click();
    await dialog().waitFor({ state: 'detached' });
    assert.equal((await api(`/api/v1/reports/${report.id}`)).status, 200, 'still on the service');
    assert.ok(await item.isVisible(), 'still in the tree');

    await fromMenu(item, 'Delete Report…');
    await dialog().waitFor({ state: 'visible' });
    await dialog()
      .locator('.dialog-buttons a.monaco-button', { hasText: /^Delete$/ })
      .click();
    await rows('Reports')
      .filter({ hasText: label(report.url) })
      .waitFor({ state: 'detached', timeout: 20_000 });
    await tab(label(report.url)).waitFor({ state: 'detached', timeout: 20_000 });
    assert.equal((await api(`/api/v1/reports/${report.id}`)).status, 404, 'gone from the service');
  });

  it('deletes a project with its reports after a confirmation that counts them', async () => {
    await insert(page('project.localhost', 'good.html'));
    await insert(page('project.localhost', 'bad.html'));
    await wb.runCommand('Page Reports: Refresh Projects');
    await refreshReports();
    const project = row('Projects', 'project.localhost');
    await project.waitFor({ state: 'visible', timeout: 20_000 });
    await fromMenu(project, 'Delete Project…');
    await dialog().waitFor({ state: 'visible' });
    const question = await dialog().innerText();
    assert.match(question, /project\.localhost/);
    assert.match(question, /2 reports/);
    await wb.screenshot('writes-delete-project-confirmation');
    await dialog().locator('.dialog-buttons a.monaco-button', { hasText: 'Delete Project' }).click();
    await rows('Projects').filter({ hasText: 'project.localhost' }).waitFor({ state: 'detached', timeout: 20_000 });
    await rows('Reports')
      .filter({ hasText: 'project.localhost' })
      .first()
      .waitFor({ state: 'detached', timeout: 20_000 });
    assert.deepEqual(await reportsOfProject('project.localhost'), []);
  });

  it('the Delete key in the Projects view: on a report row deletes that report, on a project row the project, each confirmed', async () => {
    const kept = await insert(page('keys.localhost', 'good.html'));
    const victim = await insert(page('keys.localhost', 'bad.html'));
    await wb.runCommand('Page Reports: Refresh Projects');
    const project = row('Projects', 'keys.localhost');
    await project.waitFor({ state: 'visible', timeout: 20_000 });
    await project.click(); // expands it, and the view has the keyboard
    const reportRow = row('Projects', pageOf(victim.url));
    await reportRow.waitFor({ state: 'visible', timeout: 20_000 });
    // Selected with a click, which opens its panel; back in the view, Delete.
    await reportRow.click();
    await panelShown(label(victim.url));
    await wb.runCommand('Page Reports: Focus on Projects View');
    await wb.view('Projects').locator('.monaco-list:focus').waitFor({ state: 'attached', timeout: 10_000 });
    assert.ok(await reportRow.evaluate((e) => e.classList.contains('selected')), 'the report row is selected');
    await wb.page.keyboard.press('Delete');
    await dialog().waitFor({ state: 'visible' });
    assert.ok((await dialog().innerText()).includes(named(victim.url)), 'the confirmation names the page');
    await wb.screenshot('writes-delete-key-projects-report');
    await dialog()
      .locator('.dialog-buttons a.monaco-button', { hasText: /^Delete$/ })
      .click();
    await reportRow.waitFor({ state: 'detached', timeout: 20_000 });
    assert.equal((await api(`/api/v1/reports/${victim.id}`)).status, 404, 'gone from the service');
    assert.equal((await api(`/api/v1/reports/${kept.id}`)).status, 200, 'the other stays');

    await project.click();
    await wb.page.keyboard.press('Delete');
    await dialog().waitFor({ state: 'visible' });
    assert.match(await dialog().innerText(), /Delete project keys\.localhost and its report\?/);
    await dialog().locator('.dialog-buttons a.monaco-button', { hasText: 'Delete Project' }).click();
    await rows('Projects').filter({ hasText: 'keys.localhost' }).waitFor({ state: 'detached', timeout: 20_000 });
    assert.deepEqual(await reportsOfProject('keys.localhost'), []);
  });

  it('keeps the password and its box when the service fails (503): Enter sends it again', async () => {
    const { report, hidden } = await passwordStep('share-again.localhost');
    await wb.admin('faults', { method: 'PATCH', path: '/api/v1/reports', status: 503, times: 1 });
    await hidden.fill('share-password-77c1');
    await hidden.press('Enter');
    await message().filter({ hasText: 'answered 503' }).waitFor({ state: 'visible', timeout: 20_000 });
    assert.equal(await hidden.inputValue(), 'share-password-77c1', 'the password is still typed');
    await wb.screenshot('writes-privacy-password-failed');
    await hidden.press('Enter');
    await statusBar(`${named(report.url)} is now password-protected.`).waitFor({ state: 'visible', timeout: 20_000 });
    assert.equal(await privacyOf(report), 2);
  });

  it('says what became of a password sent from a box closed with Escape while it was on its way', async () => {
    const { report, hidden } = await passwordStep('share-escape.localhost');
    await wb.admin('faults', { method: 'PATCH', path: '/api/v1/reports', delayMs: 5000, times: 1 });
    await hidden.fill('share-password-e5c0');
    await hidden.press('Enter');
    await patchOnItsWay(report);
    await wb.page.keyboard.press('Escape');
    // The box closed while the PATCH was still on its way.
    await wb.page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 2000 });
    const done = statusBar(`${named(report.url)} is now password-protected.`);
    assert.equal(await done.count(), 0, 'not yet answered when the box closed');
    assert.equal(await privacyOf(report), 0, 'not yet changed when the box closed');
    await done.waitFor({ state: 'visible', timeout: 20_000 });
    assert.equal(await privacyOf(report), 2);
  });

  it('reports a password send that failed after its box was closed with Escape, and its Retry asks again', async () => {
    const { report, hidden } = await passwordStep('share-escape-failed.localhost');
    await wb.admin('faults', { method: 'PATCH', path: '/api/v1/reports', delayMs: 3000, status: 503, times: 1 });
    await hidden.fill('share-password-f41d');
    await hidden.press('Enter');
    await patchOnItsWay(report);
    await wb.page.keyboard.press('Escape');
    await wb.page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 2000 });
    // Nothing is left to show the failure next to: a notification says it, with Retry.
    const failure = wb.page.locator('.notification-toast', { hasText: 'answered 503' });
    await failure.waitFor({ state: 'visible', timeout: 20_000 });
    assert.equal(await privacyOf(report), 0, 'unchanged on the service');
    assert.doesNotMatch(await failure.innerText(), /share-password-f41d/);
    await wb.screenshot('writes-privacy-password-failed-after-escape');
    await failure.locator('a.monaco-button', { hasText: 'Retry' }).click();
    // The password went with the box: Retry starts again from the choice of privacy.
    const pick = wb.page.locator('.quick-input-widget input[placeholder*="Who may open"]');
    await pick.waitFor({ state: 'visible', timeout: 10_000 });
    await pick.press('Escape');
    assert.equal(await privacyOf(report), 0);
  });

  it('deletes three selected reports together, with one confirmation', async () => {
    const reports = [
      await insert(page('multi.localhost', 'good.html')),
      await insert(page('multi.localhost', 'bad.html')),
      await insert(page('multi.localhost', 'mediocre.html')),
    ];
    await refreshReports();
    const items = reports.map((r) => row('Reports', label(r.url)));
    for (const item of items) await item.waitFor({ state: 'visible', timeout: 20_000 });
    await items[0].click();
    await panelShown(label(reports[0].url));
    await items[1].click({ modifiers: ['ControlOrMeta'] });
    await items[2].click({ modifiers: ['ControlOrMeta'] });
    // With several rows selected, the commands that act on one report only are not offered.
    const menu = wb.page.locator('.context-view .monaco-menu');
    await items[2].click({ button: 'right' });
    await menu.waitFor({ state: 'visible' });
    const offered = (await menu.locator('.action-label').allInnerTexts()).map((l) => l.trim());
    await wb.screenshot('writes-three-selected-menu');
    await wb.page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    assert.ok(offered.includes('Delete Report…'), offered.join(' | '));
    for (const single of ['Change Privacy…', 'Export Report as JSON…'])
      assert.ok(!offered.includes(single), `${single} offered for three reports: ${offered.join(' | ')}`);
    await fromMenu(items[2], 'Delete Report…');
    await dialog().waitFor({ state: 'visible' });
    assert.match(await dialog().innerText(), /Delete 3 reports\?/);
    await wb.screenshot('writes-delete-three-confirmation');
    await dialog().locator('.dialog-buttons a.monaco-button', { hasText: 'Delete 3 Reports' }).click();
    await rows('Reports')
      .filter({ hasText: 'multi.localhost' })
      .first()
      .waitFor({ state: 'detached', timeout: 20_000 });
    assert.deepEqual(await reportsOfProject('multi.localhost'), []);
    await wb.screenshot('writes-deleted-three');
  });

  it('re-analyzes two selected reports together: the summary counts what improved, Show Changes lists what changed in each', async () => {
    const improving = await insert(page('pair.localhost', 'good.html'), {
      result: 'bad',
      score: 31.5,
      results: {
        title: { passed: false, importance: 'high', value: null },
        charset: { passed: null, importance: 'medium', value: null },
      },
    });
    const worsening = await insert(page('pair.localhost', 'bad.html'), { result: 'good', score: 99.5 });
    await refreshReports();
    const items = [improving, worsening].map((r) => row('Reports', label(r.url)));
    for (const item of items) await item.waitFor({ state: 'visible', timeout: 20_000 });
    await items[0].click();
    await panelShown(label(improving.url));
    await items[1].click({ modifiers: ['ControlOrMeta'] });
    await fromMenu(items[1], 'Re-analyze');
    await dialog().waitFor({ state: 'visible' });
    assert.match(await dialog().innerText(), /Re-analyze 2 reports\?/);
    await dialog().locator('.dialog-buttons a.monaco-button', { hasText: 'Re-analyze' }).click();

    const toast = wb.page.locator('.notification-toast', { hasText: 'improved' });
    await toast.waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(await toast.innerText(), /1 improved, 1 got worse, 0 unchanged/);
    await toast.locator('a.monaco-button', { hasText: 'Show Changes' }).click();
    const picks = wb.page.locator('.quick-input-widget .monaco-list-row');
    await picks.nth(1).waitFor({ state: 'visible' });
    const good = (await picks.filter({ hasText: 'good.html' }).innerText()).replace(/\s+/g, ' ');
    // Title fixed, HTTPS newly failing (an http: page), the character set determined now.
    assert.match(good, /score \+\d+(\.\d)? · Bad → \w+/, good);
    assert.match(good, /1 fixed, 1 newly failing, 1 outcome changed/, good);
    const bad = (await picks.filter({ hasText: 'bad.html' }).innerText()).replace(/\s+/g, ' ');
    assert.match(bad, /score \u2212\d+(\.\d)?/, bad);
    await wb.page.waitForTimeout(1000); // the quick pick fades in; the rows' busy icons clear
    await wb.screenshot('writes-reanalyze-two-changes');
    await wb.page.keyboard.press('Escape');
  });
});
