/**
 * Insights clicked through as a user, in the packaged extension in code-server: opened from a
 * project row's inline action and from the Command Palette (its quick pick's first item is
 * `All projects`, preselected); the counts in text match the service's data; a failing check
 * lists its reports and one opens its report panel; a failing page load shows the error state
 * and Retry recovers; no Content-Security-Policy violation. Screenshots in dark, light and
 * high-contrast themes go to .test-output/screenshots/insights-*.png.
 */
import * as assert from 'node:assert/strict';
import type { FrameLocator } from 'playwright-core';
import { reportTitle } from '../../src/presentation/format';
import { screenshotOnFailure, startWorkbench, type Workbench } from './harness';
import type { RawReport } from '../service/types';

describe('insights (end to end)', function () {
  this.timeout(300_000);
  let wb: Workbench;
  const console: string[] = [];

  function page(): FrameLocator {
    return wb.page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
  }

  async function serviceReports(project: string | null): Promise<RawReport[]> {
    const all: RawReport[] = [];
    for (let p = 1; ; p++) {
      const query = new URLSearchParams({ per_page: '100', page: String(p), ...(project === null ? {} : { project }) });
      const response = await fetch(`${wb.service.url}/api/v1/reports?${query.toString()}`, {
        headers: { Authorization: `Bearer ${wb.keys.main}`, Accept: 'application/json' },
      });
      const body = (await response.json()) as { data: RawReport[]; meta: { last_page: number } };
      all.push(...body.data);
      if (p >= body.meta.last_page) return all;
    }
  }

  function countsText(reports: RawReport[]): string[] {
    const count = (r: string): number => reports.filter((x) => x.result === r).length;
    const other = reports.length - count('good') - count('decent') - count('bad');
    return [
      `Good ${count('good')}`,
      `Decent ${count('decent')}`,
      `Bad ${count('bad')}`,
      ...(other > 0 ? [`Other ${other}`] : []),
      reports.length === 1 ? '1 report' : `${reports.length} reports`,
    ];
  }

  async function waitForInsights(title: string, timeout = 20_000): Promise<void> {
    await wb.page.locator('.tabs-container .tab.active', { hasText: title }).waitFor({ state: 'visible', timeout });
    await page().locator('h1.title', { hasText: title }).waitFor({ state: 'visible', timeout });
    await page().locator('.figure-results canvas').waitFor({ state: 'visible', timeout });
  }

  before(async () => {
    wb = await startWorkbench({ serviceUrl: true, name: 'insights' });
    wb.page.on('console', (message) => console.push(message.text()));
    await wb.page.setViewportSize({ width: 1400, height: 1000 });
    await wb.openView();
    await wb.enterApiKey();
    await wb.view('Projects').locator('.pane-body .monaco-list-row').first().waitFor({ timeout: 30_000 });
  });

  after(async () => {
    await wb?.stop();
  });

  afterEach(async function () {
    await screenshotOnFailure(this, wb);
    await wb.admin('faults', undefined, 'DELETE');
    await wb.closeAllEditors();
  });

  it("opens from a project row's inline action, with the service's counts as text and charts in every theme", async () => {
    const row = wb
      .view('Projects')
      .locator('.pane-body .monaco-list-row')
      .filter({ hasText: 'shop.localhost' })
      .first();
    // A check that ran in one report only: its line says "1 report", not "1 reports".
    await wb.admin('reports', {
      report: {
        url: 'https://shop.localhost/only-here',
        project: 'shop.localhost',
        result: 'bad',
        score: null,
        results: { 'only-here': { passed: false, importance: 'high' } },
      },
    });
    await wb.setTheme('Dark Modern');
    await row.hover();
    await row.locator('.action-label[aria-label="Show Insights…"]').click();
    await waitForInsights('Insights: shop.localhost');
    const shares = await page().locator('li.check > .muted').allInnerTexts();
    assert.ok(shares.length > 1, `failing checks are listed: ${shares.length}`);
    assert.ok(
      shares.every((t) => /^Failed in [\d,]+ of [\d,]+ reports \(\d+%\)$/.test(t) || t === 'Failed in 1 of 1 report (100%)'),
      shares.join(' | '),
    );
    assert.ok(shares.includes('Failed in 1 of 1 report (100%)'), shares.join(' | '));

    const reports = await serviceReports('shop.localhost');
    const shown = await page().locator('.figure-results .numbers .count').allInnerTexts();
    assert.deepEqual(
      shown.map((t) => t.trim()),
      countsText(reports),
    );
    // Screen readers hear the end of the load with the counts (the live region, read once).
    const counts = countsText(reports);
    assert.equal(
      (await page().locator('[aria-live="polite"]').textContent())?.trim(),
      `Loaded ${counts.at(-1)}: ${counts.slice(0, -1).join(', ')}.`,
    );
    // Every chart has a text alternative and is reachable by keyboard.
    const canvases = page().locator('canvas');
    assert.equal(await canvases.count(), 4);
    for (const canvas of await canvases.all()) {
      assert.ok(((await canvas.getAttribute('aria-label')) ?? '').length > 20);
      assert.equal(await canvas.getAttribute('tabindex'), '0');
    }
    // "Show data" opens the exact numbers under a chart.
    await page().locator('.figure-scores summary', { hasText: 'Show data' }).click();
    const buckets = await page().locator('.figure-scores table.data tbody tr').count();
    assert.equal(buckets, 10);
    // Copy Summary as Markdown says it copied where a screen reader hears it (the status bar is not read).
    await page().getByRole('button', { name: 'Copy Summary as Markdown' }).click();
    await page()
      .locator('[aria-live="polite"]', { hasText: 'Insights summary copied as Markdown.' })
      .waitFor({ state: 'attached', timeout: 10_000 });

    await wb.screenshot('insights-dark');
    await wb.setTheme('Light Modern');
    await page().locator('body.vscode-light').waitFor({ state: 'attached', timeout: 10_000 });
    await waitForInsights('Insights: shop.localhost');
    // The charts were drawn again in the new theme's colours; the table the user opened stays open.
    assert.equal(await page().locator('.figure-scores details.show-data[open] table.data').count(), 1);
    await wb.screenshot('insights-light');
    await wb.setTheme('Dark High Contrast');
    await waitForInsights('Insights: shop.localhost');
    await wb.screenshot('insights-high-contrast');
    await wb.setTheme('Dark Modern');

    const violations = console.filter((t) =>
      /Content Security Policy|Refused to (load|execute|apply)|unsafe-eval/i.test(t),
    );
    assert.deepEqual(violations, [], 'no CSP violation in the console');
  });

  it('opens from the palette for All projects (the first, preselected item); a failing check and a low page open report panels', async () => {
    await wb.runCommand('Page Reports: Show Insights…');
    const widget = wb.page.locator('.quick-input-widget');
    // The palette's own list is replaced by the pick's: wait for the pick.
    await widget.locator('input[placeholder="All projects, or one project"]').waitFor({ state: 'visible' });
    const first = widget.locator('.monaco-list-row').first();
    await first.waitFor({ state: 'visible' });
    assert.equal((await first.locator('.label-name').innerText()).trim(), 'All projects');
    // Projects page in below it.
    await widget.locator('.monaco-list-row', { hasText: 'blog.localhost' }).first().waitFor({ timeout: 10_000 });
    assert.match((await widget.locator('.monaco-list-row.focused').innerText()).trim(), /^All projects/);
    await wb.page.keyboard.press('Enter');
    await waitForInsights('Insights: All projects');

    const reports = await serviceReports(null);
    const shown = await page().locator('.figure-results .numbers .count').allInnerTexts();
    assert.deepEqual(
      shown.map((t) => t.trim()),
      countsText(reports),
    );

    // The check that fails most lists its reports; the first opens its report panel.
    await page().locator('.check-toggle').first().click();
    const listed = page().locator('.check-reports .report-link');
    await listed.first().waitFor({ state: 'visible' });
    assert.ok((await listed.count()) > 0);
    await wb.screenshot('insights-check-reports');
    // The reader scrolled down to the list: back from the report, the page is made again there.
    type Scrolling = { scrollY: number };
    await listed
      .first()
      .evaluate((link) =>
        (link as unknown as { scrollIntoView(options: unknown): void }).scrollIntoView({ block: 'start' }),
      );
    const place = await page()
      .locator('body')
      .evaluate(() => (globalThis as unknown as Scrolling).scrollY);
    assert.ok(place > 0, `the page scrolled to the list: ${place}`);
    await wb.page.waitForTimeout(300); // the place is saved at the next frame
    await listed.first().click();
    await wb.page
      .locator('.tabs-container .tab.active')
      .filter({ hasNotText: 'Insights' })
      .waitFor({ timeout: 20_000 });

    // Back to insights, where the reader was; the lowest page opens too.
    await wb.page.locator('.tabs-container .tab', { hasText: 'Insights: All projects' }).click();
    await listed.first().waitFor({ state: 'visible', timeout: 20_000 });
    let back = -1;
    for (let tries = 0; tries < 50 && Math.abs(back - place) > 2; tries++) {
      if (tries > 0) await wb.page.waitForTimeout(100);
      back = await page()
        .locator('body')
        .evaluate(() => (globalThis as unknown as Scrolling).scrollY);
    }
    assert.ok(Math.abs(back - place) <= 2, `back at ${back}, the reader was at ${place}`);
    // Tabbing from page to page hears each one's score and result: the chip describes its button.
    const lowestLink = page().locator('ol.lowest .report-link').first();
    const chip = await lowestLink.getAttribute('aria-describedby');
    assert.ok(chip, 'the button has a description');
    assert.match((await page().locator(`[id="${chip}"]`).textContent()) ?? '', /^\d[\d.,]* (Good|Decent|Bad)$/);
    await lowestLink.click();
    const lowest = [...reports].filter((r) => typeof r.score === 'number').sort((a, b) => a.score! - b.score!)[0];
    assert.ok(lowest, 'a scored report exists');
    // The report panel of the lowest-scoring page comes to the front, titled by its host and path.
    await wb.page
      .locator('.tabs-container .tab.active', { hasText: reportTitle(lowest.url, lowest.id) })
      .waitFor({ timeout: 20_000 });
    await page().locator('h1.title').waitFor({ state: 'visible', timeout: 20_000 });
    // Focus back to the workbench (out of the webview) for the next command.
    await wb.page.locator('.tabs-container .tab.active').click();
  });

  it('lists each project once in its picker when the service ignores page= (page 1 again, claiming more), and stops asking', async () => {
    const listed = await fetch(`${wb.service.url}/api/v1/projects?per_page=100`, {
      headers: { Authorization: `Bearer ${wb.keys.main}`, Accept: 'application/json' },
    });
    const { data } = (await listed.json()) as { data: { project: string }[] };
    // Every page is page 1, and each says there are nine.
    await wb.admin('faults', {
      method: 'GET',
      path: '/api/v1/projects',
      status: 200,
      body: { data, meta: { current_page: 1, last_page: 9, per_page: 100, total: 900 } },
      times: 50,
    });
    await wb.admin('requests', undefined, 'DELETE');
    await wb.runCommand('Page Reports: Show Insights…');
    const widget = wb.page.locator('.quick-input-widget');
    await widget.locator('input[placeholder="All projects, or one project"]').waitFor({ state: 'visible' });
    await widget.locator('.monaco-list-row', { hasText: 'blog.localhost' }).first().waitFor({ timeout: 10_000 });
    await wb.page.waitForTimeout(1500);
    assert.equal(await widget.locator('.monaco-list-row', { hasText: 'blog.localhost' }).count(), 1, 'listed once');
    const asked = (await wb.admin<{ method: string; path: string }[]>('requests')).filter(
      (r) => r.method === 'GET' && r.path === '/api/v1/projects',
    );
    assert.ok(asked.length <= 3, `${asked.length} requests for projects (the views' own included)`);
    await wb.page.keyboard.press('Escape');
  });

  it('offers Retry in its picker when a page of projects fails, and choosing it lists them; the way forward where a retry cannot help', async () => {
    // The picker's own request (the views sort projects by date): failed with its two retries.
    await wb.admin('faults', {
      method: 'GET',
      path: '/api/v1/projects',
      query: { sort_by: 'project', per_page: '100' },
      status: 502,
      body: 'html',
      times: 3,
    });
    await wb.runCommand('Page Reports: Show Insights…');
    const widget = wb.page.locator('.quick-input-widget');
    await widget.locator('input[placeholder="All projects, or one project"]').waitFor({ state: 'visible' });
    const failed = widget.locator('.monaco-list-row', { hasText: 'answered 502' });
    await failed.waitFor({ timeout: 20_000 });
    assert.match(await failed.innerText(), /Retry/);
    assert.equal(await widget.locator('.monaco-list-row', { hasText: 'blog.localhost' }).count(), 0);
    await wb.screenshot('insights-picker-retry');
    await failed.click();
    await widget.locator('.monaco-list-row', { hasText: 'blog.localhost' }).first().waitFor({ timeout: 10_000 });
    assert.equal(await failed.count(), 0, 'the failed row is gone');
    await wb.page.keyboard.press('Escape');

    // Where a retry would fail the same way (here the service has no such resource: a wrong
    // service URL), the row offers the way forward instead.
    await wb.admin('faults', {
      method: 'GET',
      path: '/api/v1/projects',
      query: { sort_by: 'project', per_page: '100' },
      status: 404,
      body: { message: 'Not Found' },
      times: 1,
    });
    await wb.runCommand('Page Reports: Show Insights…');
    const missing = widget.locator('.monaco-list-row', { hasText: 'has no such resource' });
    await missing.waitFor({ timeout: 20_000 });
    assert.match(await missing.innerText(), /Open Settings/);
    await missing.click();
    // The Settings editor, filtered to this extension's settings (this workbench shows it as a dialog).
    // Which of its ten settings show first depends on the editor's height: look for the group.
    const settings = wb.page.locator('.settings-editor', { hasText: 'Page Reports' }).first();
    await settings.waitFor({ state: 'visible', timeout: 10_000 });
    for (let i = 0; i < 3 && (await settings.isVisible()); i++) {
      await wb.page.keyboard.press('Escape');
      await wb.page.waitForTimeout(300);
    }
    await wb.closeAllEditors();
  });

  it('shows the error state when a page of reports fails, and Retry finishes the load', async () => {
    await wb.admin('faults', { method: 'GET', path: '/api/v1/reports', status: 502, body: 'html', times: 6 });
    await wb.runCommand('Page Reports: Show Insights…');
    const widget = wb.page.locator('.quick-input-widget');
    await widget.locator('input[placeholder="All projects, or one project"]').waitFor({ state: 'visible' });
    await widget.locator('.monaco-list-row', { hasText: 'blog.localhost' }).first().waitFor({ timeout: 10_000 });
    await wb.page.keyboard.press('Enter');
    const banner = page().locator('.banner.error');
    await banner.waitFor({ state: 'visible', timeout: 30_000 });
    const text = await banner.innerText();
    assert.ok(text.includes('Could not load the reports'), text);
    assert.ok(text.includes('502'), text);
    await wb.screenshot('insights-error');
    const alert = (await page().locator('[aria-live="assertive"]').textContent()) ?? '';
    assert.ok(alert.startsWith('Could not load the reports. ') && alert.includes('502'), alert);
    await wb.admin('faults', undefined, 'DELETE');
    await page().getByRole('button', { name: 'Retry' }).click();
    await page().locator('.figure-results canvas').waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal(await page().locator('.banner.error').count(), 0);
  });

  it("opens for all projects from the Projects view's … menu, comes back after a window reload, and a refresh can be cancelled", async () => {
    const header = wb.view('Projects').locator('.pane-header');
    await header.hover();
    await header.locator('.action-label[aria-label*="More Actions"]').click();
    const menu = wb.page.locator('.context-view .monaco-menu');
    await menu.waitFor({ state: 'visible' });
    const count = await menu.locator('.action-item:not(.disabled) .action-menu-item').count();
    let found = false;
    for (let i = 0; i < count && !found; i++) {
      await wb.page.keyboard.press('ArrowDown');
      const focused = menu.locator('.action-item.focused');
      if ((await focused.count()) > 0 && (await focused.innerText()).trim() === 'Show Insights for All Projects') {
        await wb.page.keyboard.press('Enter');
        found = true;
      }
    }
    assert.ok(found, 'Show Insights for All Projects is in the … menu');
    await waitForInsights('Insights: All projects');

    await wb.runCommand('Developer: Reload Window');
    await wb.page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    // Restored by the serializer: the extension activates, connects, then loads again.
    await waitForInsights('Insights: All projects', 60_000);
    await wb.screenshot('insights-after-reload');
    const total = (await serviceReports(null)).length;
    assert.ok((await page().locator('.figure-results .numbers').innerText()).includes(`${total} reports`));

    // Slow pages: Refresh shows the progress and a Cancel button; cancelling keeps the figures
    // it was refreshing (not the part of them it had loaded).
    await wb.admin('faults', { method: 'GET', path: '/api/v1/reports', delayMs: 4000, times: 20 });
    // The figures stay in the page while the load draws its progress above them (a reader's
    // selection and focus in them stay): counted by an observer of the page's root.
    type Counted = { figuresTakenOut?: number };
    await page()
      .locator('#root')
      .evaluate((root) => {
        const scope = globalThis as unknown as Counted & {
          MutationObserver: new (
            callback: (records: { removedNodes: ArrayLike<{ className?: unknown }> }[]) => void,
          ) => {
            observe(target: unknown, options: { childList: boolean }): void;
          };
        };
        scope.figuresTakenOut = 0;
        new scope.MutationObserver((records) => {
          for (const record of records)
            for (const node of Array.from(record.removedNodes))
              if (node.className === 'figures') scope.figuresTakenOut = (scope.figuresTakenOut ?? 0) + 1;
        }).observe(root, { childList: true });
      });
    await page().getByRole('button', { name: 'Refresh' }).click();
    const cancel = page().getByRole('button', { name: 'Cancel' });
    await cancel.waitFor({ state: 'visible', timeout: 10_000 });
    assert.ok((await page().locator('.progress-text').innerText()).length > 0);
    assert.ok(
      (await page().locator('.figure-results .numbers').innerText()).includes(`${total} reports`),
      'the figures stay while it loads',
    );
    await cancel.click();
    await page()
      .locator('.banner', { hasText: 'Refresh cancelled: the figures below are those from before it.' })
      .waitFor({ state: 'visible', timeout: 10_000 });
    assert.ok((await page().locator('.figure-results .numbers').innerText()).includes(`${total} reports`));
    const takenOut = await page()
      .locator('#root')
      .evaluate(() => (globalThis as unknown as Counted).figuresTakenOut);
    assert.equal(takenOut, 0, 'the figures were never taken out of the page while it loaded');
    await wb.screenshot('insights-refresh-cancelled');
    await wb.admin('faults', undefined, 'DELETE');
    await page().getByRole('button', { name: 'Refresh' }).waitFor({ state: 'visible' });
  });

  it('lists the reports of a check failing in many a step at a time, and colours Low apart from no importance; a refresh of its pages leaves the focus where it is', async () => {
    const project = 'many.localhost';
    for (let i = 0; i < 120; i++) {
      await wb.admin('reports', {
        report: {
          url: `https://${project}/page-${i}`,
          project,
          result: 'bad',
          score: 30,
          generated_at: new Date(Date.UTC(2026, 9, 1 + (i % 28))).toISOString(),
          results: {
            'missing-alt': { passed: false, importance: 'low', value: null },
            'unnamed-check': { passed: i % 2 === 0, importance: null, value: null },
          },
        },
      });
    }
    await wb.runCommand('Page Reports: Show Insights…');
    const widget = wb.page.locator('.quick-input-widget');
    await widget.locator('input[placeholder="All projects, or one project"]').waitFor({ state: 'visible' });
    await wb.page.keyboard.type(project);
    await widget.locator('.monaco-list-row.focused', { hasText: project }).waitFor({ timeout: 10_000 });
    await wb.page.keyboard.press('Enter');
    await waitForInsights(`Insights: ${project}`);

    // The legend tells Low and no importance apart by colour.
    const swatches = await Promise.all(
      (await page().locator('.figure-checks .legend .swatch').all()).map((swatch) => swatch.getAttribute('style')),
    );
    assert.equal(swatches.length, 2);
    assert.notEqual(swatches[0], swatches[1], 'Low and no importance differ');

    // Marks the chart drawn now: opening a check and showing more redraw the list, not the charts.
    await page()
      .locator('.figure-over-time canvas')
      .evaluate((e) =>
        (e as unknown as { setAttribute(n: string, v: string): void }).setAttribute('data-mark', 'drawn'),
      );
    const toggle = page().locator('.check-toggle', { hasText: 'Missing alt' });
    await toggle.click();
    const listed = page().locator('.check-reports .report-link');
    await listed.first().waitFor({ state: 'visible' });
    assert.equal(await listed.count(), 50);
    const more = page().locator('.show-more');
    assert.equal((await more.innerText()).trim(), 'Show 50 more (70 not listed)');
    await more.scrollIntoViewIfNeeded();
    await wb.screenshot('insights-check-show-more');
    await more.click();
    await listed.nth(99).waitFor({ state: 'attached' });
    assert.equal(await listed.count(), 100);
    // Focus is on the first report the step added, where reading goes on.
    assert.equal(
      await listed
        .nth(50)
        .evaluate(
          (e) => (e as unknown as { ownerDocument: { activeElement: unknown } }).ownerDocument.activeElement === e,
        ),
      true,
    );
    assert.equal((await more.innerText()).trim(), 'Show 20 more (20 not listed)');
    await more.click();
    await listed.nth(119).waitFor({ state: 'attached' });
    assert.equal(await listed.count(), 120);
    assert.equal(await more.count(), 0, 'nothing left to show');
    assert.equal(
      await page().locator('.figure-over-time canvas[data-mark="drawn"]').count(),
      1,
      'the chart was not drawn again',
    );

    // Another tab, and back: the page is loaded again (VS Code does not keep a hidden
    // webview's page) with the check's reports and the table the user opened.
    await page().locator('.figure-checks summary', { hasText: 'Show data' }).click();
    await wb.runCommand('File: New Untitled Text File');
    await wb.page.locator('.tabs-container .tab.active', { hasText: 'Untitled' }).waitFor();
    await wb.page.locator('.tabs-container .tab', { hasText: `Insights: ${project}` }).click();
    await waitForInsights(`Insights: ${project}`);
    await listed.nth(119).waitFor({ state: 'attached', timeout: 10_000 });
    assert.equal(await listed.count(), 120);
    assert.equal(await page().locator('.figure-checks details.show-data[open]').count(), 1);

    // A Refresh of two pages: the state after the first leaves the focused Cancel the same
    // element, not a copy focused again (a screen reader would read it out at every page).
    await wb.admin('faults', { method: 'GET', path: '/api/v1/reports', query: { page: '1' }, delayMs: 3000 });
    await wb.admin('faults', { method: 'GET', path: '/api/v1/reports', query: { page: '2' }, delayMs: 3000 });
    await page().getByRole('button', { name: 'Refresh' }).click();
    const cancel = page().getByRole('button', { name: 'Cancel' });
    await cancel.focus();
    type Focused = { focusins?: number };
    await cancel.evaluate((button) => {
      const scope = globalThis as unknown as Focused & {
        document: { addEventListener(type: string, listener: () => void): void };
      };
      scope.focusins = 0;
      scope.document.addEventListener('focusin', () => (scope.focusins = (scope.focusins ?? 0) + 1));
      // A property, not an attribute: the page compares attributes to tell a changed button.
      (button as unknown as { marked?: boolean }).marked = true;
    });
    // Counting started before the first page's state (else the test would pass for nothing).
    assert.doesNotMatch(await page().locator('.progress-text').innerText(), /100/);
    await page().locator('.progress-text', { hasText: '100' }).waitFor({ state: 'visible', timeout: 10_000 });
    assert.equal(await cancel.evaluate(() => (globalThis as unknown as Focused).focusins), 0, 'no focus moved');
    assert.equal(
      await page()
        .locator('#root')
        .evaluate(
          (root) =>
            (root as unknown as { ownerDocument: { activeElement: { marked?: boolean } | null } }).ownerDocument
              .activeElement?.marked,
        ),
      true,
      'the Cancel the reader is on is still in the page, focused',
    );
    await page().getByRole('button', { name: 'Refresh' }).waitFor({ state: 'visible', timeout: 15_000 });
    await wb.admin('faults', undefined, 'DELETE');
  });

  it('shows a hostile project and check names as text and runs none of them', async () => {
    const hostile = `<img src=x onerror="window.pwned='img'">`;
    const check = `<script>window.pwned='check'</script>[x](command:workbench.action.closeAllEditors)`;
    await wb.admin('reports', {
      report: {
        // A right-to-left override would show the end of the URL reversed (page…exe.txt).
        url: 'https://hostile.localhost/page\u202Etxt.exe',
        project: hostile,
        result: 'bad',
        score: 3,
        // Without a date: no chart over time (one would span 1 ms of 1 January 1970).
        generated_at: null,
        results: { [check]: { passed: false, importance: 'high', value: hostile } },
      },
    });
    await wb.runCommand('Page Reports: Refresh Projects');
    const row = wb.view('Projects').locator('.pane-body .monaco-list-row').filter({ hasText: '<img' }).first();
    await row.waitFor({ timeout: 20_000 });
    await row.hover();
    await row.locator('.action-label[aria-label="Show Insights…"]').click();
    // A click that lands while the view redraws after the refresh reaches the command without
    // its row (seen once in a full run), and the command then asks for the project: the
    // hostile one is picked there, where its name must be text too.
    const pick = wb.page.locator('.quick-input-widget input[placeholder="All projects, or one project"]');
    if (
      await pick.waitFor({ state: 'visible', timeout: 2000 }).then(
        () => true,
        () => false,
      )
    ) {
      const item = wb.page.locator('.quick-input-widget .monaco-list-row', { hasText: hostile }).first();
      await item.waitFor({ state: 'visible', timeout: 10_000 });
      assert.equal(await wb.page.locator('.quick-input-widget .monaco-list-row img').count(), 0);
      await item.click();
    }
    await waitForInsights(`Insights: ${hostile}`);
    assert.equal((await page().locator('h1.title').innerText()).trim(), `Insights: ${hostile}`);
    const overTime = page().locator('.figure-over-time');
    assert.equal(await overTime.locator('canvas').count(), 0);
    assert.match(await overTime.innerText(), /No report has both a score and a generated date\./);
    await page().locator('.check-toggle').first().click();
    assert.equal((await page().locator('.check-toggle').first().innerText()).trim(), check);
    assert.equal(
      await page().locator('#root img, #root script, #root a').count(),
      0,
      'no element made from server text',
    );
    const link = page().locator('.check-reports .report-link').first();
    assert.equal(await link.getAttribute('title'), 'https://hostile.localhost/page\uFFFDtxt.exe', 'its tooltip, with the override shown');
    const ran = await page()
      .locator('body')
      .evaluate(() => (globalThis as Record<string, unknown>).pwned);
    assert.equal(ran, undefined);
    assert.ok((await wb.page.locator('.tabs-container .tab').count()) > 0, 'no command closed the editors');
  });
});
