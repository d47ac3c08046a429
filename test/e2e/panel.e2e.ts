/**
 * The report panel clicked through as a user, in the packaged extension in code-server:
 * a seeded report's score, result and checks (failed first); a report whose every field is
 * markup or script shown as text with nothing run; `javascript:` and `command:` URLs that
 * cannot be opened, not even by a forged message; the panel back with its content after a
 * window reload; a report deleted on the server shown as deleted after Retry. Screenshots in
 * dark, light and high-contrast themes go to .test-output/screenshots/panel-*.png.
 */
import * as assert from 'node:assert/strict';
import type { Frame, FrameLocator, Locator, Page } from 'playwright-core';
import { checkLabel, reportTitle, sortChecks } from '../../src/presentation/format';
import { parseReport } from '../../src/api/schemas';
import { screenshotOnFailure, startWorkbench, type Workbench } from './harness';
import type { RawReport, RecordedRequest } from '../service/types';

/** Set by any of the hostile strings below if it ever ran, in the page or in the workbench. */
const MARK = 'pwned';
const HOSTILE = {
  script: `<script>window.${MARK}='script';document.title='${MARK}'</script>`,
  img: `<img src=x onerror="window.${MARK}='img'">`,
  svg: `<svg onload="window.${MARK}='svg'"></svg>`,
  link: `<a href="javascript:window.${MARK}='link'">click</a>`,
  iframe: `<iframe srcdoc="<script>parent.${MARK}='iframe'</script>"></iframe>`,
  style: `<style>body{display:none}</style><b style="color:red">bold</b>`,
  md: `[x](command:workbench.action.closeAllEditors) **bold** \${{ 1 + 1 }}`,
};
/** The WCAG contrast ratio of two CSS colours (`#rrggbb` or `rgb(r, g, b)`). */
function contrast(first: string, second: string): number {
  const luminance = (colour: string): number => {
    const channels = colour.startsWith('#')
      ? [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16))
      : (colour.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number);
    const [r = 0, g = 0, b = 0] = channels.map((value) => {
      const c = value / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [lighter = 0, darker = 0] = [luminance(first), luminance(second)].sort((x, y) => y - x);
  return (lighter + 0.05) / (darker + 0.05);
}

const HOSTILE_URL = `javascript:window.${MARK}='url'//${HOSTILE.img}`;

/**
 * The little of the DOM the functions evaluated in the browser use. This project's tsconfig
 * has no DOM library (only the webview's has), and these functions run in the page anyway.
 */
interface BrowserElement {
  tagName: string;
  attributes: ArrayLike<{ name: string }>;
  hasAttribute(name: string): boolean;
  querySelectorAll(selector: string): ArrayLike<BrowserElement>;
}
interface BrowserGlobal {
  document: { title: string; scripts: { length: number }; getElementById(id: string): BrowserElement | null };
  [name: string]: unknown;
}

describe('report panel (end to end)', function () {
  this.timeout(300_000);
  let wb: Workbench;
  const dialogs: string[] = [];

  /** The panel's document: the webview's inner frame. */
  function panel(): FrameLocator {
    return wb.page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
  }

  /** The webview host frame around the panel's document (VS Code's own page). */
  async function hostFrame(): Promise<Frame> {
    const handle = await wb.page.locator('iframe.webview.ready').elementHandle();
    const frame = await handle?.contentFrame();
    assert.ok(frame, 'the webview host frame');
    return frame;
  }

  /** The panel's document as a Playwright Frame, for evaluating in it. */
  async function panelFrame(): Promise<Frame> {
    const host = await hostFrame();
    const handle = await host.locator('iframe#active-frame').elementHandle();
    const frame = await handle?.contentFrame();
    assert.ok(frame, 'the panel frame');
    return frame;
  }

  async function api<T>(path: string, method = 'GET'): Promise<{ status: number; body: T }> {
    const response = await fetch(`${wb.service.url}/api/v1/${path}`, {
      method,
      headers: { Authorization: `Bearer ${wb.keys.main}`, Accept: 'application/json' },
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
  }

  async function insert(report: Record<string, unknown>): Promise<RawReport> {
    return wb.admin<RawReport>('reports', { key: wb.keys.main, report });
  }

  /** Open Report from the palette, searching the service for `search`, picking the (first) row labelled `label`. */
  async function openReport(search: string, label = ''): Promise<void> {
    await wb.runCommand('Page Reports: Open Report');
    const widget = wb.page.locator('.quick-input-widget');
    const input = widget.locator('input[placeholder*="search reports"]');
    await input.waitFor({ state: 'visible' });
    await input.fill(search);
    const row = widget
      .locator('.monaco-list-row')
      .filter({ has: wb.page.locator('.label-name', { hasText: label }) })
      .first();
    // The list is replaced as the server answers each keystroke's search: a click can land on a
    // row that is being swapped out, so click until the picker closes.
    for (let attempt = 0; ; attempt++) {
      await row.waitFor({ state: 'visible', timeout: 20_000 });
      await row.click().catch(() => undefined);
      try {
        await widget.waitFor({ state: 'hidden', timeout: 3000 });
        return;
      } catch (e) {
        if (attempt >= 3) throw e;
      }
    }
  }

  /** The page and host of a test's `host/path` name (`blog.localhost:8080/panel/x`), or of a tab title. */
  function pageAndHost(name: string): { page: string; host: string } {
    if (name.includes(' — ')) {
      const [page = '', host = ''] = name.split(' — ');
      return { page, host };
    }
    const slash = name.indexOf('/');
    return {
      page: slash === -1 ? '/' : name.slice(slash),
      host: (slash === -1 ? name : name.slice(0, slash)).replace(/:\d+$/, ''),
    };
  }

  function escapeRegExp(text: string): string {
    return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }

  /** Refresh Reports, then the Reports view's row of the page `name` names once it shows. */
  async function refreshedRow(name: string): Promise<Locator> {
    await wb.runCommand('Page Reports: Refresh Reports');
    // A row reads the page, then score · age · host where the list mixes hosts: a name that
    // starts with `/` is a page alone, for a list of one host.
    const { page, host } = pageAndHost(name);
    const text = name.startsWith('/')
      ? new RegExp(`^${escapeRegExp(name)}`)
      : new RegExp(`^${escapeRegExp(page)}.*${escapeRegExp(host)}`, 's');
    const row = wb.view('Reports').locator('.pane-body .monaco-list-row', { hasText: text }).first();
    await row.waitFor({ state: 'visible', timeout: 20_000 });
    return row;
  }

  /**
   * Waits for the panel whose tab reads `/panel/x — blog.localhost` (a query may follow the path),
   * named so or as `host/path`, to be the active one, and for its report to show.
   */
  async function waitForPanel(name: string): Promise<void> {
    const { page, host } = pageAndHost(name);
    await wb.page
      .locator('.tabs-container .tab.active', {
        hasText: new RegExp(`${escapeRegExp(page)}[^—]* — ${escapeRegExp(host)}`),
      })
      .waitFor({ state: 'visible', timeout: 20_000 });
    await panel().locator('h1.title', { hasText: page }).waitFor({ state: 'visible', timeout: 20_000 });
  }

  /**
   * The two colour scales in the panel under `theme`: Decent is amber (hue 20-50°) at 3:1 or more
   * against the page, and the importance marks are in the text's colour, not a result's.
   */
  async function assertColourScales(theme: string): Promise<void> {
    const seen = await (
      await panelFrame()
    ).evaluate(() => {
      const { document, getComputedStyle } = globalThis as unknown as {
        document: { body: unknown; documentElement: unknown; querySelector(selector: string): unknown };
        getComputedStyle(element: unknown): { color: string; getPropertyValue(name: string): string };
      };
      const mark = document.querySelector('.importance-mark');
      return {
        decent: getComputedStyle(document.body).getPropertyValue('--pr-decent').trim(),
        page: getComputedStyle(document.documentElement).getPropertyValue('--vscode-editor-background').trim(),
        text: getComputedStyle(document.body).color,
        mark: mark === null ? '' : getComputedStyle(mark).color,
      };
    });
    assert.ok(contrast(seen.decent, seen.page) >= 3, `${theme}: Decent against the page: ${JSON.stringify(seen)}`);
    const [r = 0, g = 0, b = 0] = [1, 3, 5].map((i) => parseInt(seen.decent.slice(i, i + 2), 16));
    const max = Math.max(r, g, b);
    const hue = max === r ? (60 * (g - b)) / (max - Math.min(r, g, b)) : -1;
    assert.ok(hue >= 20 && hue <= 50, `${theme}: Decent is amber (hue ${Math.round(hue)}°): ${seen.decent}`);
    assert.equal(seen.mark, seen.text, `${theme}: importance in the text's colour`);
  }

  /** Opens a disclosure of the panel (Details, Passed (N)) unless it is open. */
  async function disclose(selector: string): Promise<void> {
    const details = panel().locator(selector);
    if ((await details.getAttribute('open')) === null) await details.locator('> summary').click();
  }

  /**
   * What hostile strings did if they ran, in the panel's document or in the workbench (the
   * workbench's own title holds the panel title, so only the panel's title is checked).
   */
  async function ranSomething(): Promise<string[]> {
    const found: string[] = [];
    const inPanel = await (
      await panelFrame()
    ).evaluate((mark) => {
      const g = globalThis as unknown as BrowserGlobal;
      return [g[mark], g.document.title.includes(mark) ? 'title' : undefined]
        .filter((v) => v !== undefined)
        .map((v) => JSON.stringify(v));
    }, MARK);
    found.push(...inPanel.map((v) => `panel: ${v}`));
    const inWorkbench = await wb.page.evaluate(
      (mark) => JSON.stringify((globalThis as unknown as BrowserGlobal)[mark]) ?? null,
      MARK,
    );
    if (inWorkbench !== null) found.push(`workbench: ${inWorkbench}`);
    found.push(...dialogs.map((d) => `dialog: ${d}`));
    return found;
  }

  before(async () => {
    wb = await startWorkbench({
      name: 'panel',
      serviceUrl: true,
      settings: { 'workbench.colorTheme': 'Default Dark Modern' },
    });
    // An alert() from any frame would show up here.
    wb.page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await wb.page.setViewportSize({ width: 1440, height: 900 });
    await wb.openView();
    await wb.enterApiKey();
    await wb.view('Reports').locator('.pane-body .monaco-list-row').first().waitFor({ timeout: 30_000 });
  });

  after(async () => {
    await wb?.stop();
  });

  afterEach(async function () {
    await screenshotOnFailure(this, wb);
    await wb.closeAllEditors();
  });

  it('shows a seeded report: score gauge, result badge, failed checks first by importance, then passed', async () => {
    // The worst analysed demo page: the most failed checks of every importance.
    const { body } = await api<{ data: RawReport[] }>('reports?result=bad&sort_by=score&sort=asc&per_page=10');
    const seeded = body.data[0];
    assert.ok(seeded, 'the service seeded a bad report');
    // Several seeded reports share a URL: the one that opens is read back from its raw view.
    await openReport(new URL(seeded.url).pathname);
    await panel().locator('.raw-json').waitFor({ state: 'attached', timeout: 20_000 });
    const raw = JSON.parse((await panel().locator('.raw-json').textContent()) ?? '{}') as RawReport;
    const fresh = (await api<{ data: RawReport }>(`reports/${raw.id}`)).body.data;
    const report = parseReport(fresh);
    const title = reportTitle(report.url, report.id);
    await waitForPanel(title);

    const gauge = panel().getByRole('meter', { name: 'Score' });
    assert.equal(await gauge.getAttribute('aria-valuenow'), String(report.score));
    assert.equal((await gauge.innerText()).trim(), String(Math.round(report.score! * 10) / 10));
    const badge = panel().locator('.badge');
    assert.ok(report.result, 'an analysed report has a result');
    assert.equal((await badge.innerText()).trim(), { good: 'Good', decent: 'Decent', bad: 'Bad' }[report.result]);
    assert.match((await badge.getAttribute('class')) ?? '', new RegExp(`result-${report.result}`));

    const expected = sortChecks(report.checks);
    const failed = expected.filter((c) => c.passed === false);
    assert.ok(failed.length >= 3, 'a bad page fails several checks');
    const shown = await panel().locator('td.check-name .check-label').allTextContents();
    assert.deepEqual(
      shown,
      expected.map((c) => checkLabel(c.name).label),
      'every check, failed first (high, medium, low), then passed',
    );
    const statuses = await panel()
      .locator('tr.check')
      .evaluateAll((rows) => rows.map((r) => r.className));
    const firstPassed = statuses.findIndex((c) => c.includes('check-passed'));
    assert.equal(firstPassed, failed.length, 'all failed rows come before the first passed one');
    assert.ok(statuses.slice(firstPassed).every((c) => c.includes('check-passed')));
    // Failed checks in groups by importance, each with its count, said once.
    const groups = (await panel().locator('.checks-failed h3').allInnerTexts()).map((g) => g.trim());
    const counted = (['high', 'medium', 'low'] as const)
      .map((importance) => [importance, failed.filter((c) => c.importance === importance).length] as const)
      .filter(([, n]) => n > 0)
      .map(([importance, n]) => `${{ high: 'High', medium: 'Medium', low: 'Low' }[importance]} (${n})`);
    assert.deepEqual(groups, counted, 'failed checks grouped by importance, high first');
    const passed = expected.length - failed.length;
    assert.equal((await panel().locator('details.checks-passed > summary').innerText()).trim(), `Passed (${passed})`);
    assert.equal(
      await panel().locator('details.checks-passed').getAttribute('open'),
      null,
      'passed checks start collapsed',
    );
    const text = await panel().locator('#root').innerText();
    assert.ok(!text.includes(`${failed.length} of ${expected.length}`), 'no second count of the failed checks');
    // The id the extension's messages name it by, in Details.
    assert.equal((await panel().locator('.facts .report-id').textContent())?.trim(), String(report.id));

    await assertColourScales('Dark Modern');
    await wb.screenshot('panel-dark');
    await wb.setTheme('Light Modern');
    await waitForPanel(title);
    await assertColourScales('Light Modern');
    // Bad's colour reads in a light theme: under the badge's text, and as a failed check's icon.
    const colours = await panel()
      .locator('.badge.result-bad')
      .evaluate((badge) => {
        interface Style {
          color: string;
          backgroundColor: string;
          getPropertyValue(name: string): string;
        }
        const { document, getComputedStyle } = globalThis as unknown as {
          document: { documentElement: unknown; querySelector(selector: string): unknown };
          getComputedStyle(element: unknown): Style;
        };
        const high = document.querySelector('.check-failed .status-failed');
        return {
          badgeText: getComputedStyle(badge).color,
          badge: getComputedStyle(badge).backgroundColor,
          high: high === null ? '' : getComputedStyle(high).color,
          page: getComputedStyle(document.documentElement).getPropertyValue('--vscode-editor-background').trim(),
        };
      });
    assert.notEqual(colours.high, '', 'a failed check is shown');
    assert.ok(contrast(colours.badgeText, colours.badge) >= 4.5, `the Bad badge: ${JSON.stringify(colours)}`);
    assert.ok(contrast(colours.high, colours.page) >= 3, `a failed check's icon: ${JSON.stringify(colours)}`);
    // Good and decent reports' icons in the Reports view are seen against the sidebar (an icon needs 3:1).
    for (const codicon of ['pass', 'warning']) {
      const seen = await wb
        .view('Reports')
        .locator(`.monaco-list-row .codicon-${codicon}`)
        .first()
        .evaluate((icon) => {
          const { document, getComputedStyle } = globalThis as unknown as {
            document: { querySelector(selector: string): unknown };
            getComputedStyle(element: unknown): { color: string; backgroundColor: string };
          };
          return {
            icon: getComputedStyle(icon).color,
            sidebar: getComputedStyle(document.querySelector('.part.sidebar')).backgroundColor,
          };
        });
      assert.ok(contrast(seen.icon, seen.sidebar) >= 3, `the ${codicon} icon in the view: ${JSON.stringify(seen)}`);
    }
    await wb.screenshot('panel-light');
    await wb.setTheme('Dark High Contrast');
    await waitForPanel(title);
    await assertColourScales('Dark High Contrast');
    await wb.screenshot('panel-high-contrast');
    await wb.setTheme('Dark Modern');
  });

  it('leads with the checks: eight failed ones or more without scrolling at 1440×900, their values in words', async () => {
    // The reference service's checks, 19 of 23 failing: 5 high, 8 medium, 6 low.
    const fail = (importance: string, value: unknown) => ({ passed: false, importance, value });
    const pass = (importance: string, value: unknown) => ({ passed: true, importance, value });
    await insert({
      url: 'https://shop.localhost/panel/checks-first?page=2',
      result: 'bad',
      score: 21.4,
      generated_at: new Date(Date.now() - 92 * 86_400_000).toISOString(),
      results: {
        title: pass('high', 'Lamps'),
        meta_description: fail('high', null),
        h1: fail('high', []),
        image_alt: fail('high', {
          images: 2,
          missing_alt: 2,
          examples: ['https://shop.localhost/img/lamp.svg', 'https://shop.localhost/img/chart.svg'],
        }),
        https: fail('high', 'http'),
        noindex: fail('high', 'noindex, nofollow'),
        title_length: fail('medium', 5),
        heading_order: fail('medium', ['starts with h2', 'h2 → h4']),
        lang: fail('medium', null),
        viewport: fail('medium', null),
        charset: pass('medium', 'utf-8'),
        canonical: fail('medium', null),
        word_count: fail('medium', 112),
        page_size: fail('medium', 412_345),
        response_time: pass('medium', 180),
        deprecated_tags: fail('medium', ['center', 'font']),
        meta_description_length: fail('low', 0),
        favicon: fail('low', null),
        links: fail('low', { internal: 3, external: 1, empty: 2 }),
        structured_data: fail('low', []),
        open_graph: fail('low', { type: 'website' }),
        doctype: pass('low', '!DOCTYPE html'),
        redirects: fail('low', 2),
      },
    });
    await openReport('panel/checks-first', '/panel/checks-first');
    await waitForPanel('shop.localhost/panel/checks-first');
    await panel().locator('.analysis').waitFor({ state: 'visible', timeout: 20_000 });
    assert.equal((await panel().locator('h1.title').innerText()).trim(), '/panel/checks-first?page=2');
    // One line under it: result, score, host, privacy, when analysed.
    assert.equal(
      (await panel().locator('.header .meta').innerText()).replace(/\s+/g, ' ').trim(),
      'Bad 21.4 shop.localhost Public Analysed 3 months ago',
    );
    assert.ok(await wb.page.locator('.part.sidebar').isVisible(), 'the sidebar is open');
    assert.deepEqual(
      (await panel().locator('.checks-failed h3').allInnerTexts()).map((t) => t.trim()),
      ['High (5)', 'Medium (8)', 'Low (6)'],
    );
    assert.equal((await panel().locator('details.checks-passed > summary').innerText()).trim(), 'Passed (4)');

    // Failed rows wholly inside the panel's viewport, as it first shows.
    const seen = await (
      await panelFrame()
    ).evaluate(() => {
      const g = globalThis as unknown as {
        innerHeight: number;
        scrollY: number;
        document: {
          querySelectorAll(s: string): ArrayLike<{ getBoundingClientRect(): { top: number; bottom: number } }>;
        };
      };
      const rows = Array.from(g.document.querySelectorAll('tr.check-failed'));
      return {
        shown: rows.filter((r) => r.getBoundingClientRect().bottom <= g.innerHeight).length,
        scrollY: g.scrollY,
      };
    });
    assert.equal(seen.scrollY, 0);
    assert.ok(seen.shown >= 8, `failed checks shown without scrolling: ${seen.shown}`);

    // Values in words; the key in the name's tooltip.
    const row = (key: string): Locator =>
      panel().locator('tr.check', { has: panel().locator(`.check-label[title="${key}"]`) });
    const value = async (key: string): Promise<string> => (await row(key).locator('.value-text').innerText()).trim();
    assert.equal(await value('image_alt'), '2 of 2 images have no alt text: lamp.svg, chart.svg');
    assert.equal(await value('meta_description'), 'No meta description');
    assert.equal(await value('title_length'), 'Title is 5 characters long');
    assert.equal(await value('heading_order'), 'Starts with h2, h2 followed by h4');
    assert.equal(await panel().locator('code.check-key').count(), 0, 'no key under the names');
    // A passed check whose value says no more shows none.
    await disclose('details.checks-passed');
    assert.equal(await value('doctype'), '');
    assert.equal(await value('title'), 'Lamps');
    await panel().locator('details.checks-passed > summary').click();
    await (
      await panelFrame()
    ).evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0));
    await wb.screenshot('panel-checks-first');
  });

  it('shows markup, script and javascript: links in every field as text and runs none of them', async () => {
    const strings = Object.values(HOSTILE);
    const hostile = await insert({
      url: HOSTILE_URL,
      project: HOSTILE.script,
      result: HOSTILE.img,
      score: HOSTILE.svg,
      privacy: HOSTILE.link,
      generated_at: HOSTILE.iframe,
      results: Object.fromEntries(
        strings.map((s, i) => [
          s,
          { passed: i % 2 === 0, importance: i % 3 === 0 ? 'high' : HOSTILE.style, value: i % 2 ? s : { [s]: [s] } },
        ]),
      ),
      [HOSTILE.md]: HOSTILE.style,
    });
    await openReport(`${MARK}='url'`, `window.${MARK}`);
    await wb.page.locator('.tabs-container .tab.active', { hasText: `window.${MARK}` }).waitFor({ timeout: 20_000 });
    await panel().locator('.analysis').waitFor({ state: 'visible', timeout: 20_000 });
    await panel().locator('summary', { hasText: 'Raw data' }).click();
    await disclose('details.details');
    await disclose('details.checks-passed');

    const text = await panel().locator('#root').innerText();
    assert.ok(text.includes(HOSTILE_URL), 'the URL as text');
    assert.ok(text.includes(HOSTILE.script), 'the project as text');
    for (const s of strings) assert.ok(text.includes(s), `shown verbatim: ${s}`);
    assert.ok(text.includes(HOSTILE.md), 'an unknown field in the raw view');
    assert.ok(text.includes(`"id": ${hostile.id}`), 'the raw view');

    // Nothing became markup: the only elements are the panel's own.
    const found = await (
      await panelFrame()
    ).evaluate(() => {
      const { document } = globalThis as unknown as BrowserGlobal;
      const root = document.getElementById('root')!;
      const all = Array.from(root.querySelectorAll('*'));
      return {
        tags: [...new Set(all.map((e) => e.tagName.toLowerCase()))].sort(),
        handlers: all.flatMap((e) =>
          Array.from(e.attributes)
            .filter((a) => /^on/i.test(a.name))
            .map((a) => a.name),
        ),
        styles: all.filter((e) => e.hasAttribute('style')).length,
        hrefs: all.filter((e) => e.hasAttribute('href') || e.hasAttribute('src')).length,
        scriptsInDocument: document.scripts.length,
      };
    });
    for (const tag of ['script', 'img', 'iframe', 'a', 'b', 'style', 'object', 'embed']) {
      assert.ok(!found.tags.includes(tag), `no <${tag}> in the panel (tags: ${found.tags.join(' ')})`);
    }
    assert.deepEqual(found.handlers, [], 'no event handler attributes');
    assert.equal(found.styles, 0, 'no style attributes');
    assert.equal(found.hrefs, 0, 'no href or src attributes');
    // One script of the panel's, plus the one VS Code injects for acquireVsCodeApi.
    assert.ok(found.scriptsInDocument <= 2, `scripts in the document: ${found.scriptsInDocument}`);

    // Missing or unreadable fields read as missing, never as the hostile text in their place.
    assert.equal((await panel().locator('.badge').innerText()).trim(), 'No result');
    assert.equal((await panel().getByRole('meter', { name: 'Score' }).innerText()).trim(), '—');
    await wb.page.waitForTimeout(500);
    assert.deepEqual(await ranSomething(), [], 'no hostile string ran');
    assert.equal(await panel().locator('.raw-json').isVisible(), true);
    await (
      await panelFrame()
    ).evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0));
    await wb.screenshot('panel-hostile');
  });

  it('opens a page URL with %26 and %2F in it as it is, from the panel and from Open Page in Browser (VS Code rebuilds a Uri decoded)', async () => {
    const report = await insert({
      url: 'https://shop.example/search/?pct-encoded&q=t%26c&next=%2Fcart%3Fa%3D1',
      result: 'good',
      score: 90,
    });
    const url = new URL(report.url);
    // The browser page opened gets a blank answer from here, not from the network.
    await wb.page.context().route('https://shop.example/**', (route) => route.fulfill({ body: 'opened' }));
    const openedBy = async (action: () => Promise<void>): Promise<string> => {
      const popup = wb.page.context().waitForEvent('page', { timeout: 15_000 });
      await action();
      // Not a trusted domain: VS Code asks first (each time, unless told to trust it).
      const dialog = wb.page.locator('.monaco-dialog-box');
      void dialog
        .waitFor({ state: 'visible', timeout: 15_000 })
        .then(() => dialog.locator('.dialog-buttons a.monaco-button', { hasText: /^Open$/ }).click())
        .catch(() => undefined);
      const opened: Page = await popup;
      const address = opened.url();
      await opened.close();
      await wb.page.bringToFront();
      return address;
    };

    try {
      await openReport('pct-encoded', url.host);
      await waitForPanel(url.host + url.pathname);
      // The header's host opens the page; so does the URL in Details.
      const fromPanel = await openedBy(() => panel().locator('button.url-host').click());
      assert.equal(fromPanel, report.url);
      await wb.closeAllEditors();

      const row = await refreshedRow(url.host + url.pathname);
      const fromCommand = await openedBy(async () => {
        await row.click({ button: 'right' });
        // The menu runs an item on Enter (a click on it may only hover it here).
        await wb.page.locator('.context-view .monaco-menu .action-label', { hasText: 'Open Page in Browser' }).hover();
        await wb.page.keyboard.press('Enter');
      });
      assert.equal(fromCommand, report.url);
    } finally {
      await wb.page.context().unroute('https://shop.example/**');
    }
  });

  it('cannot open javascript: or command: URLs, even by a forged message; http(s) opens in the browser', async () => {
    const pagesBefore = wb.page.context().pages().length;

    // Positive control: an http URL opens a browser page.
    const plain = await insert({ url: `${wb.service.url}/demo-site/?panel-link`, result: 'good', score: 99 });
    const plainUrl = new URL(plain.url);
    await openReport('panel-link', plainUrl.host);
    await waitForPanel(plainUrl.host + plainUrl.pathname);
    const popup = wb.page.context().waitForEvent('page', { timeout: 15_000 });
    await panel().locator('button.url-host').click();
    const opened: Page = await popup;
    // code-server sends loopback URLs through its own port proxy: /proxy/PORT/path.
    const proxied = `/proxy/${plainUrl.port}${plainUrl.pathname}${plainUrl.search}`;
    assert.ok(opened.url() === plain.url || opened.url().endsWith(proxied), opened.url());
    await opened.close();
    await wb.page.bringToFront();
    await wb.closeAllEditors();

    // A command: URL is text, not a link; clicking it runs nothing (the panel would close).
    const command = await insert({ url: 'command:workbench.action.closeAllEditors', result: 'bad', score: 1 });
    await openReport('closeAllEditors', 'command:');
    await wb.page.locator('.tabs-container .tab.active', { hasText: 'command:' }).waitFor({ timeout: 20_000 });
    await disclose('details.details');
    await panel().locator('.url-inert').waitFor({ state: 'visible' });
    assert.equal(await panel().locator('button.url, button.url-host').count(), 0, 'no link for a command: URL');
    await panel().locator('.url-inert').click();

    // A page that forges the messages gets nothing opened: the extension checks every URL.
    const host = await hostFrame();
    const forged: unknown[] = [
      { type: 'openUrl', url: 'command:workbench.action.closeAllEditors' },
      { type: 'openUrl', url: `javascript:window.${MARK}='forged'` },
      { type: 'openUrl', url: 'file:///etc/passwd' },
      { type: 'openUrl', url: ' https://x.localhost/' },
      { type: 'command', name: 'workbench.action.closeAllEditors' },
      { type: 'filterProject', project: 'someone-elses.localhost' },
    ];
    for (const message of forged) {
      await host.evaluate((m) => {
        // VS Code's bridge from the page to the extension, as the panel's own script uses it.
        const post = (globalThis as unknown as Record<string, (channel: string, data: unknown) => void>)
          .__vscode_post_message__;
        post('onmessage', { message: m });
      }, message);
      // Apart, not in one frame: four warnings then would leave none on screen (the workbench
      // closes a repeated notification and drops toasts past 3 in 800 ms), unless the
      // extension tells a burst once, as it must.
      await wb.page.waitForTimeout(100);
    }
    await wb.page
      .locator('.notification-toast', { hasText: 'Only http and https addresses can be opened.' })
      .first()
      .waitFor({ state: 'visible', timeout: 10_000 });
    await wb.page.waitForTimeout(1000);
    assert.equal(wb.page.context().pages().length, pagesBefore, 'no browser page opened');
    assert.equal(
      await wb.page.locator('.tabs-container .tab', { hasText: 'command:' }).count(),
      1,
      'the panel is still open: no command ran',
    );
    const reportsHeader = await wb.view('Reports').locator('.pane-header').innerText();
    assert.ok(!reportsHeader.includes('someone-elses'), `no foreign project filter: ${reportsHeader}`);
    assert.equal((await api(`reports/${command.id}`)).status, 200, 'the report is untouched');
    assert.deepEqual(await ranSomething(), []);
  });

  it('says how many checks were not determined, and shows no failed group when none failed', async () => {
    await insert({
      url: 'https://blog.localhost/panel/undetermined',
      result: 'decent',
      score: 70,
      results: {
        h1: { passed: null, importance: 'high', value: null },
        canonical: { passed: 'maybe', importance: 'low', value: null },
        title: { passed: true, importance: 'high', value: 'T' },
      },
    });
    await openReport('panel/undetermined', 'blog.localhost/panel/undetermined');
    await waitForPanel('blog.localhost/panel/undetermined');
    const analysis = panel().locator('.analysis');
    await analysis.waitFor({ state: 'visible', timeout: 20_000 });
    assert.equal(await analysis.locator('.all-passed').count(), 0, 'not "All checks passed"');
    assert.equal(await analysis.locator('.checks-failed').count(), 0, 'no failed group of none');
    assert.equal((await analysis.locator('.checks-unknown h2').innerText()).trim(), 'Not determined (2)');
    assert.equal((await analysis.locator('.checks-passed > summary').innerText()).trim(), 'Passed (1)');
    await wb.screenshot('panel-undetermined');
  });

  it('Open Report: Enter pressed before the search answered opens the report searched for, not a row of the older list', async () => {
    await insert({ url: 'https://blog.localhost/panel/fast-enter-target', result: 'good', score: 90 });
    // 25 newer reports: the picker's first list (the 25 newest) does not hold the target.
    for (let i = 0; i < 25; i++)
      await insert({ url: `https://blog.localhost/panel/newer-${i}`, result: 'good', score: 80 });
    await wb.admin('faults', {
      method: 'GET',
      path: '/api/v1/reports',
      query: { search: 'fast-enter-target' },
      delayMs: 2000,
      times: 1,
    });
    await wb.runCommand('Page Reports: Open Report');
    const input = wb.page.locator('.quick-input-widget input[placeholder*="search reports"]');
    await input.waitFor({ state: 'visible' });
    await wb.page
      .locator('.quick-input-widget .monaco-list-row', { hasText: 'newer-24' })
      .waitFor({ state: 'visible' });
    await input.fill('fast-enter-target');
    await input.press('Enter');
    await waitForPanel('blog.localhost/panel/fast-enter-target');
    assert.equal(
      await wb.page.locator('.tabs-container .tab', { hasText: 'newer-' }).count(),
      0,
      'no panel of a row from the list before the search',
    );
    await wb.closeAllEditors();
  });

  it('Open Report: an Enter before anything is typed does nothing, and typing again cancels an Enter waiting for a search', async () => {
    await insert({ url: 'https://blog.localhost/panel/enter-cancelled', result: 'good', score: 90 });
    await insert({ url: 'https://blog.localhost/panel/typed-after-enter', result: 'good', score: 90 });
    // The first list and both searches take 1.5 s each.
    await wb.admin('faults', { method: 'GET', path: '/api/v1/reports', delayMs: 1500, times: 3 });
    const input = wb.page.locator('.quick-input-widget input[placeholder*="search reports"]');
    const rows = wb.page.locator('.quick-input-widget .monaco-list-row');
    const panelTabs = wb.page.locator('.tabs-container .tab', { hasText: /\/panel\/.* — blog\.localhost/ });
    try {
      await wb.runCommand('Page Reports: Open Report');
      await input.waitFor({ state: 'visible' });
      assert.equal(await rows.count(), 0, 'the first list is still on its way');
      await input.press('Enter');
      await rows.filter({ hasText: 'typed-after-enter' }).waitFor({ state: 'visible', timeout: 10_000 });
      await wb.page.waitForTimeout(500);
      assert.ok(await input.isVisible(), 'the picker stays open: nothing was asked for');
      assert.equal(await panelTabs.count(), 0, 'the newest report was not opened');

      await input.fill('enter-cancelled');
      await input.press('Enter');
      await wb.page.waitForTimeout(400); // its search is on its way
      await input.fill('typed-after-enter');
      // The answer to what is typed now is in (one row, where the first list had many), and
      // nothing acted on the Enter meanwhile or just after.
      for (let waited = 0; (await rows.count()) !== 1; waited += 100) {
        assert.ok(waited < 20_000, 'the answer to the text typed now');
        await wb.page.waitForTimeout(100);
      }
      await wb.page.waitForTimeout(500);
      assert.ok(await input.isVisible(), 'the picker stays open with the answer to what is typed now');
      assert.equal(await rows.count(), 1);
      assert.match((await rows.first().innerText()) ?? '', /typed-after-enter/);
      assert.equal(await panelTabs.count(), 0, 'the Enter was for the text typed before');
      await wb.screenshot('panel-picker-enter-cancelled');
    } finally {
      await wb.page.keyboard.press('Escape');
      await wb.admin('faults', undefined, 'DELETE');
      await wb.closeAllEditors();
    }
  });

  it('Copy URL copies the URL the panel shows, without asking the service (here failing)', async () => {
    const report = await insert({ url: 'https://blog.localhost/panel/copy-offline', result: 'good', score: 90 });
    await openReport('panel/copy-offline', 'blog.localhost/panel/copy-offline');
    await waitForPanel('blog.localhost/panel/copy-offline');
    // The panel's own fetch after its first draw, before the service starts failing.
    const asksFor = async (): Promise<RecordedRequest[]> =>
      (await wb.admin<RecordedRequest[]>('requests')).filter((r) => r.path === `/api/v1/reports/${report.id}`);
    for (let waited = 0; (await asksFor()).length === 0; waited += 100) {
      assert.ok(waited < 15_000, "the panel's own fetch of the report");
      await wb.page.waitForTimeout(100);
    }
    await wb.admin('faults', { method: 'GET', path: `/api/v1/reports/${report.id}`, status: 503, times: 10 });
    await wb.admin('requests', undefined, 'DELETE');
    try {
      await panel().locator('.toolbar button', { hasText: 'Copy URL' }).click();
      await wb.page
        .locator('.statusbar-item', { hasText: 'URL copied.' })
        .waitFor({ state: 'visible', timeout: 10_000 });
      assert.deepEqual(await asksFor(), [], 'no request for the report the panel shows');
      assert.equal(await wb.page.locator('.notification-toast', { hasText: 'answered 503' }).count(), 0);
    } finally {
      await wb.admin('faults', undefined, 'DELETE');
      await wb.closeAllEditors();
    }
  });

  it('shows a bidi override in the URL, the project and a check name as U+FFFD, never reordering the text', async () => {
    await insert({
      url: 'https://blog.localhost/panel/bidi-\u202Egnp.exe',
      project: 'bidi\u202Eproject',
      result: 'good',
      score: 90,
      results: { 'custom\u202Echeck': { passed: true, importance: 'low', value: 'x' } },
    });
    await openReport('panel/bidi-', 'blog.localhost/panel/bidi-');
    await panel().locator('.analysis').waitFor({ state: 'visible', timeout: 20_000 });
    const url = (await panel().locator('.url').textContent()) ?? '';
    assert.ok(url.includes('bidi-\uFFFDgnp.exe') && !url.includes('\u202E'), url);
    const names = (await panel().locator('td.check-name').allTextContents()).join(' ');
    assert.ok(names.includes('custom\uFFFDcheck') && !names.includes('\u202E'), names);
    const project = (await panel().locator('.facts dd').nth(1).textContent()) ?? '';
    assert.ok(project.includes('bidi\uFFFDproject') && !project.includes('\u202E'), project);
    await wb.closeAllEditors();
  });

  it('comes back with its content after a window reload', async () => {
    const report = await insert({
      url: 'https://blog.localhost/panel/reload-me',
      result: 'decent',
      score: 57,
      results: {
        h1: { passed: false, importance: 'high', value: [] },
        title: { passed: true, importance: 'high', value: 'T' },
      },
    });
    await openReport('reload-me', 'blog.localhost/panel/reload-me');
    await waitForPanel('blog.localhost/panel/reload-me');
    await panel().locator('summary', { hasText: 'Raw data' }).click();
    await wb.page.waitForTimeout(500);

    await wb.runCommand('Developer: Reload Window');
    await wb.page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await waitForPanel('blog.localhost/panel/reload-me');
    assert.equal((await panel().getByRole('meter', { name: 'Score' }).innerText()).trim(), '57');
    assert.equal(await panel().locator('td.check-name .check-label').first().innerText(), 'H1 heading');
    assert.equal(await panel().locator('details.raw').getAttribute('open'), '', 'the raw view is open again');
    assert.ok((await panel().locator('.raw-json').innerText()).includes(`"id": ${report.id}`));
    await wb.screenshot('panel-after-reload');
  });

  it('shows the deleted state after Retry when the report was deleted on the server', async () => {
    const report = await insert({
      url: 'https://news.localhost/panel/deleted-elsewhere',
      result: 'good',
      score: 88,
      results: { title: { passed: true, importance: 'high', value: 'News' } },
    });
    // The service fails the panel's fetch (not retried: an HTML page with 200), so the panel
    // shows the list's data with the failure and Retry.
    await wb.admin('faults', {
      method: 'GET',
      path: `/api/v1/reports/${report.id}`,
      status: 200,
      body: 'html',
      times: 1,
    });
    await openReport('deleted-elsewhere', 'news.localhost/panel/deleted-elsewhere');
    await waitForPanel('news.localhost/panel/deleted-elsewhere');
    const retry = panel().getByRole('button', { name: 'Retry', exact: true });
    await retry.waitFor({ state: 'visible', timeout: 20_000 });
    const alert = await panel().locator('.banner-stale').innerText();
    assert.ok(alert.includes('Could not refresh'), alert);
    // In the notifications' words, not the log's ("… to GET /api/v1/reports/…").
    assert.ok(alert.includes('answered 200 with a body that is not the expected JSON.'), alert);
    assert.ok(!alert.includes('/api/v1'), alert);

    assert.equal((await api(`reports/${report.id}`, 'DELETE')).status, 200);
    await retry.click();
    await panel()
      .locator('.state-text', { hasText: `Report ${report.id} no longer exists.` })
      .waitFor({ state: 'visible', timeout: 20_000 });
    assert.equal(await panel().getByRole('heading', { name: 'Report deleted' }).count(), 1);
    assert.equal(await panel().locator('.toolbar').count(), 0, 'no actions on a deleted report');
    await wb.page
      .locator('.editor-actions .action-label[aria-label="Re-analyze"]')
      .waitFor({ state: 'detached', timeout: 10_000 });
    await wb.screenshot('panel-deleted');
    // Its one button closes the panel.
    await panel().getByRole('button', { name: 'Close' }).click();
    await wb.page
      .locator('.tabs-container .tab', { hasText: '/panel/deleted-elsewhere — news.localhost' })
      .waitFor({ state: 'detached', timeout: 10_000 });
  });
  it('opens from a tree row with the whole report of the list answer at once, while the service is slow', async () => {
    const report = await insert({
      url: 'https://shop.localhost/panel/listed',
      result: 'good',
      score: 91,
      results: {
        title: { passed: true, importance: 'high', value: 'Listed' },
        canonical: { passed: false, importance: 'medium', value: null },
      },
    });
    const row = await refreshedRow('shop.localhost/panel/listed');
    // The service answers the report itself only after 12 s: what shows comes from the list answer.
    await wb.admin('faults', { method: 'GET', path: `/api/v1/reports/${report.id}`, delayMs: 12_000, times: 1 });
    await row.click();
    await waitForPanel('shop.localhost/panel/listed');
    await panel().locator('tr.check').first().waitFor({ state: 'visible', timeout: 3000 });
    assert.deepEqual(await panel().locator('td.check-name .check-label').allTextContents(), ['Canonical URL', 'Title']);
    assert.equal(await panel().locator('.analysis-pending').count(), 0);
    await wb.screenshot('panel-listed-at-once');
    await wb.closeAllEditors();
    await wb.admin('faults', undefined, 'DELETE');
  });

  it("opens from a tree row with the row's summary at once, then the analysis when it arrives", async () => {
    const report = await insert({
      url: 'https://shop.localhost/panel/from-the-tree',
      result: 'decent',
      score: 72,
      results: {
        title: { passed: true, importance: 'high', value: 'Shop' },
        h1: { passed: false, importance: 'high', value: [] },
      },
    });
    // A service may answer lists without each report's analysis: the row then has only the
    // summary, and the panel the analysis once its own fetch answers. One list answer so.
    const { results: _analysis, ...withoutAnalysis } = (await api<{ data: RawReport }>(`reports/${report.id}`)).body
      .data;
    await wb.admin('faults', {
      method: 'GET',
      path: '/api/v1/reports',
      status: 200,
      body: { data: [withoutAnalysis] },
      times: 1,
    });
    // The list answer holds this report alone, so its row names no host.
    const row = await refreshedRow('/panel/from-the-tree');
    // The service answers the panel's fetch of the full report only after 12 s.
    await wb.admin('faults', { method: 'GET', path: `/api/v1/reports/${report.id}`, delayMs: 12_000, times: 1 });
    await row.click();
    await waitForPanel('shop.localhost/panel/from-the-tree');
    // The row's summary: header and actions, the analysis still on its way.
    await panel().locator('.analysis-pending').waitFor({ state: 'visible', timeout: 3000 });
    assert.equal((await panel().getByRole('meter', { name: 'Score' }).innerText()).trim(), '72');
    assert.equal((await panel().locator('.badge').innerText()).trim(), 'Decent');
    assert.equal(await panel().locator('.toolbar button').count(), 5);
    assert.equal(await panel().locator('tr.check').count(), 0, 'no checks drawn from the summary');
    assert.equal(await panel().locator('.raw-json').count(), 0, 'no raw view of the summary');
    await wb.screenshot('panel-summary-first');

    // Then the analysis, in place.
    await panel().locator('tr.check').first().waitFor({ state: 'visible', timeout: 30_000 });
    assert.deepEqual(await panel().locator('td.check-name .check-label').allTextContents(), ['H1 heading', 'Title']);
    assert.equal(await panel().locator('.analysis-pending').count(), 0);
    await panel().locator('.raw-json').waitFor({ state: 'attached', timeout: 5000 });
    assert.ok((await panel().locator('.raw-json').textContent())?.includes('"results"'));

    // Opening it again from the row reveals the panel: the summary does not replace the analysis.
    await row.click();
    await wb.page.waitForTimeout(1000);
    assert.equal(await panel().locator('tr.check').count(), 2, 'the analysis stays');
    await wb.screenshot('panel-analysis-after-summary');
  });

  it('keeps keyboard focus on Re-analyze while the report is busy, and an opened full value stays open', async () => {
    const long = `${'very-long-value-'.repeat(20)}end`;
    const report = await insert({
      url: 'https://news.localhost/panel/keyboard',
      result: 'decent',
      score: 64,
      results: {
        meta_description: { passed: false, importance: 'high', value: long },
        title: { passed: true, importance: 'high', value: 'Keyboard' },
      },
    });
    await openReport('panel/keyboard', 'news.localhost/panel/keyboard');
    await waitForPanel('news.localhost/panel/keyboard');
    const frame = await panelFrame();
    /** The focused element in the panel: its tag and focus key. */
    const focused = (): Promise<string> =>
      frame.evaluate(() => {
        const active = (
          globalThis as unknown as {
            document: { activeElement: { tagName: string; dataset?: Record<string, string> } | null };
          }
        ).document.activeElement;
        return `${active?.tagName ?? 'none'}:${active?.dataset?.focusKey ?? ''}`;
      });

    const more = panel().locator('details.value-more');
    await more.locator('summary').click();
    assert.equal(await more.getAttribute('open'), '');

    // The re-analysis takes 2 s and fails (the report stays as it is, so its value too).
    await wb.admin('faults', {
      method: 'PATCH',
      path: `/api/v1/reports/${report.id}`,
      delayMs: 2000,
      status: 503,
      times: 1,
    });
    await panel().getByRole('button', { name: 'Re-analyze', exact: true }).focus();
    await wb.page.keyboard.press('Enter');
    await panel().locator('article.report.busy').waitFor({ state: 'attached', timeout: 10_000 });
    // While busy the buttons are disabled: focus waits on the title, not on the page's link
    // (Enter there would open the browser).
    assert.equal(await focused(), 'H1:');
    await panel().locator('article.report:not(.busy)').waitFor({ state: 'attached', timeout: 20_000 });
    assert.equal(await focused(), 'BUTTON:command:reanalyze', 'focus is back on Re-analyze');
    assert.equal(await more.getAttribute('open'), '', 'the full value stays open across the redraws');
    // The re-analysis failed: nothing to compare with (it was stored before the write once).
    assert.equal(await panel().locator('section.since').count(), 0, 'no "since the previous analysis"');
    await wb.screenshot('panel-keyboard-focus-back');
    await wb.page.keyboard.press('Escape');
    await wb.admin('faults', undefined, 'DELETE');
    await wb.closeAllEditors();
  });

  it('tells screen readers of a failed refresh once, not at every redraw, and what a re-analysis changed', async () => {
    // A demo-site page, so that the service can analyse it again.
    const { port } = new URL(wb.service.url);
    const report = await insert({
      url: `http://announced.localhost:${port}/demo-site/good.html`,
      result: 'bad',
      score: 31,
      results: { title: { passed: false, importance: 'high', value: '' } },
    });
    const title = `announced.localhost:${port}/demo-site/good.html`;
    const row = await refreshedRow(title);
    // The panel's own fetch fails: it shows the row's report with the stale banner.
    await wb.admin('faults', {
      method: 'GET',
      path: `/api/v1/reports/${report.id}`,
      status: 200,
      body: 'html',
      times: 1,
    });
    await row.click();
    await waitForPanel(title);
    await panel().locator('.banner-stale').waitFor({ state: 'visible', timeout: 20_000 });
    const urgent = panel().locator('[aria-live="assertive"]');
    assert.match(
      (await urgent.textContent()) ?? '',
      /^Could not refresh the report; this is the data received before\. .*answered 200 with a body that is not the expected JSON\.$/,
    );

    // From now on, record what each region is given (a region is emptied once its message
    // leaves the page, so its words are read from the record).
    const frame = await panelFrame();
    await frame.evaluate(() => {
      const g = globalThis as unknown as {
        said: Record<string, string[]>;
        document: { querySelector(selector: string): { textContent: string | null } | null };
        MutationObserver: new (callback: () => void) => { observe(target: unknown, options: object): void };
      };
      g.said = { assertive: [], polite: [] };
      for (const live of ['assertive', 'polite'] as const) {
        const region = g.document.querySelector(`[aria-live="${live}"]`);
        new g.MutationObserver(() => {
          const text = region?.textContent ?? '';
          if (text !== '') g.said[live]?.push(text);
        }).observe(region, { childList: true, subtree: true, characterData: true });
      }
    });
    const said = (live: 'assertive' | 'polite'): Promise<string[]> =>
      frame.evaluate((which) => (globalThis as unknown as { said: Record<string, string[]> }).said[which] ?? [], live);

    // A slow re-analysis: the page redraws busy, the banner still there, then the new report.
    await wb.admin('faults', { method: 'PATCH', path: `/api/v1/reports/${report.id}`, delayMs: 2000, times: 1 });
    await panel().getByRole('button', { name: 'Re-analyze', exact: true }).click();
    await panel().locator('article.report.busy').waitFor({ state: 'attached', timeout: 10_000 });
    assert.equal(await panel().locator('.banner-stale').count(), 1, 'the banner stays while busy');
    await panel().locator('article.report:not(.busy)').waitFor({ state: 'attached', timeout: 30_000 });
    const politeSaid = await said('polite');
    assert.equal(politeSaid[0], 'Working…', politeSaid.join(' | '));
    assert.match(politeSaid.at(-1) ?? '', /^Report updated: (Good|Decent|Bad|No result), score [\d.—]+, Public\.$/);
    assert.equal(await panel().locator('.banner-stale').count(), 0, 'the answer cleared the banner');
    assert.deepEqual(await said('assertive'), [], 'the failed refresh was not read again at the redraws');
    await wb.admin('faults', undefined, 'DELETE');
    await wb.closeAllEditors();
  });

  it("comes back where the reader was, with the full value opened, when its tab is shown again (VS Code makes a hidden panel's page again)", async () => {
    const checks = Object.fromEntries(
      Array.from({ length: 60 }, (_, i) => [
        `scroll_check_${i}`,
        { passed: i % 3 !== 0, importance: 'high', value: `value ${i}` },
      ]),
    );
    checks.scroll_check_0 = { passed: false, importance: 'high', value: `${'a-long-value-'.repeat(25)}end` };
    const long = await insert({
      url: `${wb.service.url}/demo-site/scroll-long.html`,
      result: 'bad',
      score: 20,
      results: checks,
    });
    const other = await insert({ url: `${wb.service.url}/demo-site/scroll-other.html`, result: 'good', score: 90 });
    const titleOf = (url: string): string => `${new URL(url).pathname} — ${new URL(url).hostname}`;
    const scrollY = async (): Promise<number> =>
      (await panelFrame()).evaluate(() => (globalThis as unknown as { scrollY: number }).scrollY);

    await openReport('scroll-long', new URL(long.url).host);
    await waitForPanel(titleOf(long.url));
    await panel().locator('tr.check').nth(59).waitFor({ state: 'attached' });
    // The passed checks too: the page is long enough to scroll, and what was opened stays open.
    await disclose('details.checks-passed');
    const more = panel().locator('details.value-more');
    await more.locator('summary').click();
    assert.equal(await more.getAttribute('open'), '');
    await (
      await panelFrame()
    ).evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 700));
    const place = await scrollY();
    assert.ok(place >= 600, `the page scrolls: ${place}`);
    await wb.page.waitForTimeout(300); // the place is saved at the next frame

    await openReport('scroll-other', new URL(other.url).host);
    await waitForPanel(titleOf(other.url));
    await wb.page.locator('.tabs-container .tab', { hasText: titleOf(long.url) }).click();
    await waitForPanel(titleOf(long.url));
    let back = await scrollY();
    for (let tries = 0; tries < 50 && Math.abs(back - place) > 2; tries++) {
      await wb.page.waitForTimeout(100);
      back = await scrollY();
    }
    assert.ok(Math.abs(back - place) <= 2, `back at ${back}, the reader was at ${place}`);
    assert.equal(await more.getAttribute('open'), '', 'the full value the reader opened is open again');
    assert.equal(await panel().locator('details.checks-passed').getAttribute('open'), '', 'the passed checks too');
    await wb.screenshot('panel-back-where-the-reader-was');
    await wb.closeAllEditors();
  });
});
