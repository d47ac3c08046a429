/**
 * The developer workflow clicked through in the packaged extension in code-server: a report
 * whose stored analysis is poor is opened, re-analyzed from its panel's title bar, and the
 * panel shows "Since the previous analysis" with the service's new values (score change,
 * result change, the checks fixed). Screenshot: .test-output/screenshots/workflow-since.png.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import type { FrameLocator, Locator } from 'playwright-core';
import { screenshotOnFailure, startWorkbench, type Workbench } from './harness';
import type { RawReport, RecordedRequest } from '../service/types';

/** Waits until `check` holds (polling), or fails saying what did not come. */
async function until(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} did not come within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('developer workflow (end to end)', function () {
  this.timeout(240_000);
  let wb: Workbench;

  const rows = (): Locator => wb.view('Reports').locator('.pane-body .monaco-list-row');
  const panel = (): FrameLocator => wb.page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');

  before(async () => {
    wb = await startWorkbench({ name: 'workflow', serviceUrl: true, service: { seed: 3 } });
    await wb.page.setViewportSize({ width: 1400, height: 1000 });
    await wb.openView();
    await wb.enterApiKey();
    await rows().first().waitFor({ state: 'visible', timeout: 30_000 });
  });

  after(async () => {
    await wb?.stop();
  });

  afterEach(function () {
    return screenshotOnFailure(this, wb);
  });

  it('re-analyzes a report from its panel and shows what changed since the previous analysis', async () => {
    const port = new URL(wb.service.url).port;
    const url = `http://since.localhost:${port}/demo-site/good.html`;
    const inserted = (
      await wb.admin<{ data: RawReport }>('reports', {
        key: wb.keys.main,
        report: {
          url,
          result: 'bad',
          score: 31.5,
          generated_at: '2024-03-01T12:00:00.000000Z',
          results: {
            title: { passed: false, importance: 'high', value: null },
            viewport: { passed: false, importance: 'medium', value: null },
            charset: { passed: null, importance: 'medium', value: null },
            legacy_check: { passed: true, importance: 'low', value: 'gone after the re-analysis' },
          },
        },
      })
    ).data;
    await wb.runCommand('Page Reports: Refresh Reports');
    // The row names its page, and its host after the score (the list mixes hosts).
    const item = rows()
      .filter({ hasText: /\/demo-site\/good\.html[\s\S]*since\.localhost/ })
      .first();
    await item.waitFor({ state: 'visible', timeout: 20_000 });
    await item.click();
    await panel().locator('.checks-failed').waitFor({ state: 'visible', timeout: 20_000 });
    await wb.page.waitForTimeout(500);

    // The panel's title bar: Re-analyze is an icon there (editor/title, navigation group).
    const reanalyze = wb.page.locator('.editor-actions .action-label[aria-label="Re-analyze"]').first();
    await reanalyze.waitFor({ state: 'visible', timeout: 10_000 });
    await reanalyze.click();

    const section = panel().locator('section.since');
    await section.waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal((await section.locator('h2').innerText()).trim(), 'Since the previous analysis');

    const answer = await fetch(`${wb.service.url}/api/v1/reports/${inserted.id}`, {
      headers: { Authorization: `Bearer ${wb.keys.main}`, Accept: 'application/json' },
    });
    const fresh = ((await answer.json()) as { data: RawReport }).data;
    const delta = Math.round((fresh.score! - 31.5) * 10) / 10;
    const deltaText = delta > 0 ? `+${delta}` : delta < 0 ? `\u2212${Math.abs(delta)}` : '±0';
    assert.equal((await section.locator('.since-delta').innerText()).trim(), deltaText);
    const label = (r: string): string => r.charAt(0).toUpperCase() + r.slice(1);
    assert.equal((await section.locator('.since-result').innerText()).trim(), `Bad → ${label(fresh.result!)}`);
    const fixed = await section.locator('.since-fixed li .check-label').allInnerTexts();
    assert.ok(fixed.includes('Title'), `fixed: ${fixed.join(', ')}`);
    // Checks that went are listed behind their (closed) heading.
    const gone = await section.locator('.since-disappeared li .check-label').allTextContents();
    assert.deepEqual(gone, ['Legacy check']);
    // Not determined before, passed now: neither fixed nor failing, and listed with its outcomes.
    const other = section.locator('.since-other li');
    assert.deepEqual(await other.locator('.check-label').allInnerTexts(), ['Character set']);
    assert.equal((await other.locator('.since-outcome').innerText()).trim(), 'Not determined → Passed');
    await wb.page.waitForTimeout(1000); // the tree row's busy icon clears right after the panel draws
    await wb.screenshot('workflow-since');

    // Again: the page is as it was, so the section says so in one line.
    await reanalyze.click();
    const nothing = section.locator('.since-nothing');
    await nothing.waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal(
      (await nothing.innerText()).trim(),
      'Nothing changed: the same score, the same result, every check as before.',
    );
    assert.equal(await section.locator('.since-facts, .since-group').count(), 0, 'no table of ±0');
    await wb.page.waitForTimeout(1000);
    await wb.screenshot('workflow-since-unchanged');
  });

  it('Export Report as JSON…: the save dialog suggests a name; cancelled, the report still opens in an editor', async () => {
    await wb.runCommand('Page Reports: Export Report as JSON…');
    const quickInput = wb.page.locator('.quick-input-widget');
    const box = quickInput.locator('input.input');
    // The command acts on the active panel (the report re-analyzed above); no folder is open,
    // so the dialog starts in the home folder.
    // code-server's save dialog is a quick input holding the path it suggests.
    await until(
      async () => /^\/.+\/report-\d+-since\.localhost[^/]*\.json$/.test(await box.inputValue()),
      'the suggested file name',
    );
    await box.press('Escape');
    const toast = wb.page.locator('.notification-toast', { hasText: 'Export cancelled: nothing was written.' });
    await toast.waitFor({ state: 'visible', timeout: 10_000 });
    await toast.getByRole('button', { name: 'Open in Editor' }).click();
    const editor = wb.page.locator('.editor-instance .view-lines').first();
    await editor.waitFor({ state: 'visible', timeout: 10_000 });
    await until(async () => (await editor.innerText()).includes('since.localhost'), 'the report in the editor');
    assert.match((await wb.page.locator('.tab.active').innerText()).trim(), /^Untitled/);
    await wb.screenshot('workflow-export-open-in-editor');
  });

  it('Export List as CSV…, cancelled and opened in an editor, saves with its byte-order mark, so a spreadsheet reads it as UTF-8', async () => {
    await wb.runCommand('Page Reports: Export List as CSV…');
    const box = wb.page.locator('.quick-input-widget input.input');
    await until(async () => /\.csv$/.test(await box.inputValue()), 'the save dialog');
    await box.press('Escape');
    const toast = wb.page.locator('.notification-toast', { hasText: 'Export cancelled: nothing was written.' });
    await toast.waitFor({ state: 'visible', timeout: 10_000 });
    await toast.getByRole('button', { name: 'Open in Editor' }).click();
    const editor = wb.page.locator('.editor-instance .view-lines').first();
    await until(async () => (await editor.innerText()).startsWith('id,url,project'), 'the CSV in the editor');
    // The status bar names the encoding a save writes.
    await wb.page.locator('.statusbar-item', { hasText: 'UTF-8 with BOM' }).waitFor({ state: 'visible', timeout: 10_000 });
    await wb.screenshot('workflow-export-csv-open-in-editor');
    await wb.runCommand('File: Save');
    // code-server's save dialog: the quick input, which fills in the workspace folder and then
    // the untitled editor's name (its first line); the test takes the path it suggests.
    await until(async () => (await box.inputValue()).includes('/id,url,project'), 'the save dialog of the editor');
    const file = await box.inputValue();
    try {
      await box.press('Enter');
      await until(async () => fs.existsSync(file) && fs.statSync(file).size > 0, 'the saved CSV');
      const bytes = fs.readFileSync(file);
      assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'the file starts with the byte-order mark');
      assert.match(bytes.subarray(3).toString('utf8'), /^id,url,project,/, 'once: the text itself does not hold it');
    } finally {
      // Without asking to save, should the save have failed.
      await wb.runCommand('View: Revert and Close Editor');
      fs.rmSync(file, { force: true });
    }
  });

  /**
   * Starts Export List as CSV… with its second page of 100 failing past the client's own
   * retries of a read (ten times, so a first Retry fails too); resolves the error's toast.
   */
  async function exportFailingOnPageTwo(): Promise<Locator> {
    await wb.admin('faults', {
      method: 'GET',
      query: { page: '2', per_page: '100' },
      status: 502,
      body: 'html',
      times: 10,
    });
    await wb.runCommand('Page Reports: Export List as CSV…');
    const toast = wb.page.locator('.notification-toast', { hasText: 'answered 502' });
    await toast.waitFor({ state: 'visible', timeout: 30_000 });
    return toast;
  }

  /**
   * Saves the CSV export the save dialog offers (waiting for it) and removes the file again;
   * resolves the report ids it held and the pages of 100 the export asked for.
   */
  async function saveOfferedExport(timeoutMs = 20_000): Promise<{ ids: string[]; pages: (string | undefined)[] }> {
    const box = wb.page.locator('.quick-input-widget input.input');
    await until(async () => /\.csv$/.test(await box.inputValue()), 'the save dialog', timeoutMs);
    const file = await box.inputValue();
    try {
      await box.press('Enter');
      await until(async () => fs.existsSync(file) && fs.statSync(file).size > 0, 'the CSV file');
      const ids = fs
        .readFileSync(file, 'utf8')
        .split('\r\n')
        .slice(1, -1)
        .map((line) => line.slice(0, line.indexOf(',')));
      const pages = (await wb.admin<RecordedRequest[]>('requests'))
        .filter((r) => r.method === 'GET' && r.path === '/api/v1/reports' && r.query.per_page === '100')
        .map((r) => r.query.page);
      return { ids, pages };
    } finally {
      fs.rmSync(file, { force: true });
    }
  }

  /** The ids of the second account's reports (call it after reading the request log: it adds one). */
  async function otherAccountIds(): Promise<string[]> {
    const listed = await fetch(`${wb.service.url}/api/v1/reports?per_page=100`, {
      headers: { Authorization: `Bearer ${wb.keys.other}`, Accept: 'application/json' },
    });
    return ((await listed.json()) as { data: RawReport[] }).data.map((r) => String(r.id));
  }

  it('Export List as CSV…: Retry after a page failed goes on from that page and writes each report once', async () => {
    await wb.admin('seed', { count: 150 });
    const listed = await fetch(`${wb.service.url}/api/v1/reports?per_page=10`, {
      headers: { Authorization: `Bearer ${wb.keys.main}`, Accept: 'application/json' },
    });
    const total = ((await listed.json()) as { meta: { total: number } }).meta.total;
    assert.ok(total > 100 && total <= 200, `two pages of 100 (${total} reports)`);
    await wb.admin('requests', undefined, 'DELETE');
    const toast = await exportFailingOnPageTwo();
    assert.match(
      await toast.innerText(),
      new RegExp(`stopped at 100 of ${total} reports; Retry goes on from there\\): The service at .+ answered 502`),
    );
    await wb.screenshot('workflow-export-page-failed');
    // A Retry that fails too (the fault has uses left) says so again, with Retry.
    const pageTwo = async (): Promise<number> =>
      (await wb.admin<RecordedRequest[]>('requests')).filter(
        (r) => r.path === '/api/v1/reports' && r.query.page === '2' && r.query.per_page === '100',
      ).length;
    const before = await pageTwo();
    await toast.locator('a.monaco-button', { hasText: 'Retry' }).click();
    await until(async () => (await pageTwo()) >= before * 2, 'the first Retry asking for page 2 again');
    await toast.waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(await toast.innerText(), /stopped at 100 of \d+ reports/);
    await wb.admin('faults', undefined, 'DELETE');
    await toast.locator('a.monaco-button', { hasText: 'Retry' }).click();
    const box = wb.page.locator('.quick-input-widget input.input');
    await until(async () => /\/reports-all-\d{4}-\d{2}-\d{2}\.csv$/.test(await box.inputValue()), 'the save dialog');
    const file = await box.inputValue();
    fs.rmSync(file, { force: true });
    try {
      await box.press('Enter');
      await until(async () => fs.existsSync(file) && fs.statSync(file).size > 0, 'the CSV file');
      const records = fs.readFileSync(file, 'utf8').split('\r\n').slice(1, -1);
      const ids = records.map((line) => line.slice(0, line.indexOf(',')));
      assert.equal(ids.length, total, 'every report');
      assert.equal(new Set(ids).size, total, 'each once');
      const pages = (await wb.admin<RecordedRequest[]>('requests'))
        .filter((r) => r.method === 'GET' && r.path === '/api/v1/reports' && r.query.per_page === '100')
        .map((r) => r.query.page);
      assert.equal(pages.filter((page) => page === '1').length, 1, `page 1 once: ${pages.join(' ')}`);
      assert.equal(pages.at(-1), '2', 'Retry asked for the page that failed');
    } finally {
      fs.rmSync(file, { force: true });
    }
  });

  it('Export List as CSV…: a Retry long after, when the list has changed under it, says the file may lack reports', async () => {
    await wb.admin('seed', { count: 150 });
    const toast = await exportFailingOnPageTwo();
    // 150 newer reports: the pages after the first now hold them, and the oldest move back.
    await wb.admin('seed', { count: 150 });
    await wb.admin('faults', undefined, 'DELETE');
    await toast.locator('a.monaco-button', { hasText: 'Retry' }).click();
    const box = wb.page.locator('.quick-input-widget input.input');
    await until(async () => /\.csv$/.test(await box.inputValue()), 'the save dialog');
    const file = await box.inputValue();
    try {
      await box.press('Enter');
      const warning = wb.page.locator('.notification-toast', { hasText: 'the list changed while it was exported' });
      await warning.waitFor({ state: 'visible', timeout: 20_000 });
      await wb.page
        .locator('.notification-toast', { hasText: 'Exporting reports' })
        .waitFor({ state: 'hidden', timeout: 10_000 });
      assert.match(
        await warning.innerText(),
        /Exported \d+ of \d+ reports: the list changed while it was exported\. Export again for all of them\./,
      );
      await wb.screenshot('workflow-export-list-changed');
    } finally {
      fs.rmSync(file, { force: true });
    }
  });

  it('Export List as CSV…: when the API key changes while it runs, it starts again for the new account', async () => {
    await wb.admin('seed', { count: 150 });
    await wb.admin('seed', { count: 30, key: wb.keys.other });
    // Page 2 answers late: time to change the key while the export waits for it (10 s: in a
    // full run, typing the key took longer than 5 s once, and the export was done by then).
    await wb.admin('faults', { method: 'GET', query: { page: '2', per_page: '100' }, delayMs: 10_000, times: 1 });
    await wb.admin('requests', undefined, 'DELETE');
    await wb.runCommand('Page Reports: Export List as CSV…');
    await wb.page.locator('.notification-toast', { hasText: 'Exporting reports' }).waitFor({ state: 'visible', timeout: 20_000 });
    try {
      await wb.enterApiKey(wb.keys.other);
      const { ids, pages } = await saveOfferedExport(40_000);
      assert.deepEqual(
        [pages[0], pages[1], pages.at(-1), pages.filter((page) => page === '1').length],
        ['1', '2', '1', 2],
        `the first account's pages, then page 1 again (${pages.join(' ')})`,
      );
      assert.deepEqual([...ids].sort(), (await otherAccountIds()).sort(), 'the second account’s reports, and only those');
    } finally {
      await wb.admin('faults', undefined, 'DELETE');
      await wb.enterApiKey(wb.keys.main);
      await wb.page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 20_000 });
    }
  });

  it('Export List as CSV…: a Retry after the API key changed starts again, so the file holds one account’s reports', async () => {
    await wb.admin('seed', { count: 150 });
    await wb.admin('seed', { count: 30, key: wb.keys.other });
    const toast = await exportFailingOnPageTwo();
    await wb.admin('faults', undefined, 'DELETE');
    // The same service, another account: page 1 the export holds is the first account's.
    await wb.enterApiKey(wb.keys.other);
    await wb.page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 20_000 });
    await wb.admin('requests', undefined, 'DELETE');
    try {
      await toast.locator('a.monaco-button', { hasText: 'Retry' }).click();
      const { ids, pages } = await saveOfferedExport();
      assert.deepEqual(pages, ['1'], 'Retry started again from page 1');
      const others = await otherAccountIds();
      assert.ok(others.length >= 30, `${others.length} reports of the second account`);
      assert.deepEqual([...ids].sort(), [...others].sort(), 'the second account’s reports, and only those');
    } finally {
      await wb.enterApiKey(wb.keys.main);
      await wb.page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 20_000 });
    }
  });

  it('Analyze Page with no URL at the cursor offers New Report…, which asks for the URL', async () => {
    await wb.runCommand('File: New Untitled Text File');
    await wb.page.keyboard.type('no address here');
    await wb.runCommand('Page Reports: Analyze Page');
    const toast = wb.page.locator('.notification-toast', { hasText: 'Select a URL, or put the cursor on one' });
    await toast.waitFor({ state: 'visible', timeout: 10_000 });
    await toast.locator('a.monaco-button', { hasText: 'New Report…' }).click();
    await wb.page
      .locator('.quick-input-widget input[placeholder="https://example.com/pricing"]')
      .waitFor({ state: 'visible', timeout: 10_000 });
    await wb.page.keyboard.press('Escape');
    await wb.runCommand('View: Revert and Close Editor');
  });
});
