/**
 * The packaged extension in the pseudo-locale, clicked through as a user in code-server: a
 * minimal language pack selects `qps-ploc` and the installed extension holds a generated
 * pseudo-translation of every message (`Retry` → `Řḗḗŧřẏ`), so any English word of ours left
 * on screen stands out. Collected from the views' titles and welcome, the API key input box
 * and its status bar message, the tree rows, the sort, filter and report quick picks and the
 * report panel, then checked with the rule of test/l10nWords.ts. Screenshots:
 * .test-output/screenshots/locale-pseudo-*.png. (Notifications: their sentences are the error
 * sentences the integration locale run sees in the views' error rows.)
 */
import * as assert from 'node:assert/strict';
import { englishMessages, PSEUDO_LOCALE, pseudoTranslations } from '../../scripts/lib/l10n';
import { englishOnlyWords, intlDateWords, leaks, words } from '../l10nWords';
import { screenshotOnFailure, startWorkbench, type Workbench } from './harness';

describe('pseudo-locale: every word of ours on screen is translated', function () {
  this.timeout(180_000);
  let wb: Workbench;
  const pseudo = pseudoTranslations();
  const english = englishMessages();
  const englishOnly = englishOnlyWords([english.bundle, english.nls], [pseudo.bundle, pseudo.nls]);
  const seen: { where: string; text: string }[] = [];
  const title = (key: string): string => `Page Reports: ${pseudo.nls[key]}`;

  async function collect(where: string, texts: string[] | string | null): Promise<void> {
    for (const text of [texts ?? []].flat()) if (text.trim() !== '') seen.push({ where, text: text.trim() });
  }

  /** VS Code's own words around ours (the test language pack translates none of VS Code). */
  const vscodeHint = /\(Press 'Enter' to confirm or 'Escape' to cancel\)/g;

  /**
   * Collects the open quick input's title, placeholder, message and rows (`rows`: wait for
   * them), once the Command Palette has given way to the command's own input (no `>`).
   */
  async function quickInputTexts(where: string, options: { rows: boolean; title?: string }): Promise<void> {
    const widget = wb.page.locator('.quick-input-widget');
    const input = widget.locator('input').first();
    const deadline = Date.now() + 20_000;
    for (;;) {
      const ready =
        (await widget.isVisible()) &&
        !(await input.inputValue()).startsWith('>') &&
        (options.title === undefined ||
          (await widget.locator('.quick-input-title').innerText()).includes(options.title));
      if (ready) break;
      if (Date.now() > deadline) throw new Error(`${where}: the quick input did not open`);
      await wb.page.waitForTimeout(100);
    }
    if (options.rows) {
      await widget.locator('.monaco-list-row').first().waitFor({ state: 'visible' });
      await collect(`${where} rows`, await widget.locator('.monaco-list-row').allInnerTexts());
    }
    await collect(`${where} placeholder`, await input.getAttribute('placeholder'));
    await collect(`${where} title`, await widget.locator('.quick-input-title').allInnerTexts());
    const messages = await widget.locator('.quick-input-message').allInnerTexts();
    await collect(
      `${where} message`,
      messages.map((m) => m.replace(vscodeHint, '')),
    );
  }

  before(async () => {
    wb = await startWorkbench({ name: 'locale-pseudo', serviceUrl: true, language: PSEUDO_LOCALE });
  });

  after(async () => {
    await wb?.stop();
  });

  afterEach(async function () {
    await screenshotOnFailure(this, wb);
  });

  it('views: titles and welcome content', async () => {
    await wb.openView();
    await wb.welcome('Projects').waitFor({ state: 'visible', timeout: 30_000 });
    for (const name of ['Projects', 'Reports'] as const) {
      await collect(`${name} title`, await wb.view(name).locator('.pane-header .title').allInnerTexts());
      await collect(`${name} welcome`, await wb.welcome(name).allInnerTexts());
    }
    assert.ok(
      seen.some((s) => s.text.includes(pseudo.nls['view.reports'])),
      JSON.stringify(seen),
    );
    await wb.screenshot('locale-pseudo-welcome');
  });

  it('the API key input box and its status bar message', async () => {
    await wb.runCommand(title('cmd.setApiKey'));
    const box = wb.page.locator('.quick-input-widget input[type="password"]');
    await box.waitFor({ state: 'visible' });
    const messages = await wb.page.locator('.quick-input-widget .quick-input-message').allInnerTexts();
    await collect(
      'API key input',
      messages.map((m) => m.replace(vscodeHint, '')),
    );
    await collect('API key placeholder', await box.getAttribute('placeholder'));
    await collect('API key title', await wb.page.locator('.quick-input-widget .quick-input-title').allInnerTexts());
    await box.fill(wb.keys.main);
    await box.press('Enter');
    // "API key saved for …" shows in the status bar for a few seconds.
    const saved = pseudo.bundle['API key saved for {0}.'].split('{0}')[0].trim();
    const status = wb.page.locator('.statusbar-item', { hasText: saved }).first();
    await status.waitFor({ state: 'visible', timeout: 30_000 });
    await collect('status bar', await status.innerText());
    await wb.screenshot('locale-pseudo-key-saved');
  });

  it('tree rows, the sort and filter quick picks', async () => {
    const rows = wb.view('Reports').locator('.pane-body .monaco-list-row');
    await rows.first().waitFor({ state: 'visible', timeout: 30_000 });
    await collect('Reports rows', await wb.treeRows('Reports'));
    await collect('Projects rows', await wb.treeRows('Projects'));
    await wb.screenshot('locale-pseudo-views');

    await wb.runCommand(title('cmd.sortReports'));
    await quickInputTexts('Sort Reports', { rows: true });
    await wb.screenshot('locale-pseudo-sort');
    await wb.page.keyboard.press('Escape');

    // One step (issue 45): the results and projects as items, typed text as the URL search.
    await wb.runCommand(title('cmd.filterReports'));
    await quickInputTexts('Filter Reports', { rows: true });
    await wb.screenshot('locale-pseudo-filter');
    await wb.page.keyboard.press('Escape');
  });

  it('the report quick pick of a command run from the palette', async () => {
    await wb.runCommand(title('cmd.reanalyzeReport'));
    await quickInputTexts('Re-analyze which report', { rows: true });
    await wb.page.keyboard.press('Escape');
  });

  it('the report panel', async () => {
    await wb.view('Reports').locator('.pane-body .monaco-list-row').first().click();
    const frame = wb.page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
    const body = frame.locator('#root');
    await body.locator('section.analysis').waitFor({ state: 'visible', timeout: 30_000 });
    await collect('report panel', await body.innerText());
    // Buttons say what they do in their accessible names too.
    await collect(
      'report panel labels',
      await body.locator('[aria-label]').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? '')),
    );
    await wb.screenshot('locale-pseudo-panel');
  });

  it('shows no English word of ours anywhere above (the service data and Intl dates aside)', async () => {
    const data = new Set<string>([...words(wb.service.url), ...intlDateWords(PSEUDO_LOCALE)]);
    for (const list of ['reports', 'projects']) {
      const response = await fetch(`${wb.service.url}/api/v1/${list}?per_page=100`, {
        headers: { Authorization: `Bearer ${wb.keys.main}`, Accept: 'application/json' },
      });
      for (const w of words(await response.text())) data.add(w);
    }
    assert.ok(seen.length > 20, `only ${seen.length} texts were seen`);
    assert.deepEqual(leaks(seen, englishOnly, data), [], 'English words in the pseudo-translated UI');
  });
});
