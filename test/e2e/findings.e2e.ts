/**
 * Findings in the code clicked through in the packaged extension: with `pageReports.sources`
 * mapping `https://shop.example/` to the workspace's `site/` folder, opening
 * `site/pricing.html` lists its report's failed checks in the Problems panel, a quick fix
 * opens the report, and hovering the page's URL in a note shows its report.
 * Screenshots: .test-output/screenshots/findings-problems.png, findings-hover.png, hero.png.
 */
import * as assert from 'node:assert/strict';
import { screenshotOnFailure, startWorkbench, type Workbench } from './harness';

const PRICING_HTML = [
  '<!DOCTYPE html>',
  '<html>',
  '<head>',
  '  <title>Pricing</title>',
  '  <meta name="viewport" content="width=device-width">',
  '</head>',
  '<body>',
  '  <h1>Pricing</h1>',
  '  <img src="chart.png">',
  '</body>',
  '</html>',
  '',
].join('\n');

describe('findings in the code (end to end)', function () {
  this.timeout(240_000);
  let wb: Workbench;

  before(async () => {
    wb = await startWorkbench({
      name: 'findings',
      serviceUrl: true,
      service: { seed: 3 },
      settings: {
        'pageReports.sources': [
          { url: 'https://shop.example/', files: ['site/{path}.html', 'site/{path}/index.html'] },
        ],
      },
      files: {
        'site/pricing.html': PRICING_HTML,
        'notes.md': '# Notes\n\nThe pricing page: https://shop.example/pricing\n',
      },
    });
    await wb.page.setViewportSize({ width: 1400, height: 900 });
    await wb.admin('reports', {
      key: wb.keys.main,
      report: {
        url: 'https://shop.example/pricing',
        result: 'bad',
        score: 41,
        generated_at: new Date().toISOString(),
        results: {
          title: { passed: false, importance: 'high', value: 'Pricing' },
          image_alt: { passed: false, importance: 'high', value: { missing: 1 } },
          viewport: { passed: false, importance: 'medium', value: 'width=device-width' },
          favicon: { passed: false, importance: 'low', value: null },
          h1: { passed: true, importance: 'high', value: ['Pricing'] },
        },
      },
    });
    await wb.openView();
    await wb.enterApiKey();
    // Connected once the Reports view lists the reports (the key is checked with the service first).
    await wb
      .view('Reports')
      .locator('.pane-body .monaco-list-row')
      .first()
      .waitFor({ state: 'visible', timeout: 30_000 });
  });

  after(async () => {
    await wb?.stop();
  });

  afterEach(function () {
    return screenshotOnFailure(this, wb);
  });

  /** Opens a workspace file through Quick Open, once the file search has found it. */
  async function openFile(name: string): Promise<void> {
    const base = name.split('/').pop() ?? name;
    await wb.page.keyboard.press('Control+P');
    await wb.quickInput(name, { submit: false });
    await wb.page
      .locator('.quick-input-widget .monaco-list-row', { hasText: base })
      .first()
      .waitFor({ timeout: 15_000 });
    await wb.page.keyboard.press('Enter');
    await wb.page.locator('.tab.active', { hasText: base }).first().waitFor({ timeout: 15_000 });
  }

  it('lists the checks of a mapped file in the Problems panel, and a quick fix opens the report', async () => {
    await openFile('site/pricing.html');
    await wb.page.keyboard.press('Control+Shift+M');
    const problems = wb.page.locator('.markers-panel .monaco-list-row');
    await problems.filter({ hasText: 'Image alt' }).first().waitFor({ state: 'visible', timeout: 30_000 });
    const texts = await problems.allInnerTexts();
    for (const label of ['Title', 'Image alt', 'Viewport', 'Favicon']) {
      assert.ok(
        texts.some((t) => t.includes(label)),
        `${label} in ${texts.join(' | ')}`,
      );
    }
    assert.ok(!texts.some((t) => t.includes('H1')), 'a passed check is no problem');
    await wb.page.waitForTimeout(500);
    await wb.screenshot('findings-problems');
    // The README's copy: the editor and the Problems panel only.
    const editor = await wb.page.locator('.part.editor').boundingBox();
    const panel = await wb.page.locator('.part.panel').boundingBox();
    assert.ok(editor && panel);
    await wb.screenshot('findings-problems-readme', {
      x: editor.x,
      y: editor.y,
      width: editor.width,
      height: Math.min(panel.y + 160, panel.y + panel.height) - editor.y,
    });

    // The quick fix, from the title's line in the editor (Ctrl+. again if a busy workbench missed it).
    await problems.filter({ hasText: 'Title' }).first().dblclick();
    // The double click selects the problem's range; Ctrl+1 puts the focus in the editor, keeping it.
    await wb.page.keyboard.press('Control+1');
    const openReport = wb.page.locator('.action-widget .monaco-list-row', { hasText: 'Open Report' }).first();
    for (let attempt = 0; !(await openReport.isVisible()); attempt++) {
      if (attempt === 5) throw new Error('the quick fixes did not show');
      await wb.page.keyboard.press('Control+.');
      await openReport.waitFor({ state: 'visible', timeout: 5_000 }).catch(() => undefined);
    }
    await openReport.click();
    await wb.page.locator('.tab', { hasText: '/pricing' }).first().waitFor({ state: 'visible', timeout: 20_000 });
    await wb.page
      .frameLocator('iframe.webview.ready')
      .frameLocator('iframe#active-frame')
      .locator('h1.title', { hasText: '/pricing' })
      .first()
      .waitFor({ state: 'visible', timeout: 20_000 });
    await wb.screenshot('findings-quick-fix-opened');
    // The README's hero: the views, the report the quick fix opened and the Problems panel together.
    await wb.page.locator('.markers-panel').first().waitFor({ state: 'visible', timeout: 5_000 });
    await wb.screenshot('hero');
  });

  it('shows the report of a URL on hover', async () => {
    await wb.closeAllEditors();
    await openFile('notes.md');
    const url = wb.page.locator('.view-line', { hasText: 'https://shop.example/pricing' }).first();
    await url.waitFor({ state: 'visible', timeout: 10_000 });
    const box = await url.boundingBox();
    assert.ok(box);
    const text = await url.innerText();
    const at = text.indexOf('https://shop.example/pricing') + 12;
    await wb.page.mouse.move(box.x + 4, box.y + box.height / 2);
    // Roughly on the URL: a character is about 7-8 px wide at the default font size.
    await wb.page.mouse.move(box.x + at * 7.7, box.y + box.height / 2, { steps: 5 });
    const hover = wb.page.locator('.monaco-hover', { hasText: 'Open Report' }).first();
    // A busy workbench can miss the mouse: then the cursor goes on the URL and Show Hover runs.
    for (let attempt = 0; !(await hover.isVisible()); attempt++) {
      if (attempt === 4) throw new Error('the hover did not show');
      await hover.waitFor({ state: 'visible', timeout: 5_000 }).catch(() => undefined);
      if (await hover.isVisible()) break;
      await wb.page.mouse.click(box.x + at * 7.7, box.y + box.height / 2);
      await wb.page.keyboard.press('Control+K');
      await wb.page.keyboard.press('Control+I');
    }
    assert.match(await hover.innerText(), /Failed checks: 2 high, 1 medium, 1 low/);
    await wb.screenshot('findings-hover');
    // The README's copy: the note and its hover.
    const editor = await wb.page.locator('.part.editor').boundingBox();
    const shown = await hover.boundingBox();
    assert.ok(editor && shown);
    await wb.screenshot('findings-hover-readme', {
      x: editor.x,
      y: editor.y,
      width: Math.min(editor.width, shown.x + shown.width + 40 - editor.x),
      height: shown.y + shown.height + 20 - editor.y,
    });
  });
});
