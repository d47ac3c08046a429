/**
 * End-to-end harness: the packaged extension in a real VS Code (code-server) in headless
 * Chromium, against the reference service, clicked through the way a user would.
 *
 *   let wb: Workbench;
 *   before(async () => (wb = await startWorkbench({ serviceUrl: true })));
 *   after(() => wb?.stop());
 *   afterEach(function () { return screenshotOnFailure(this, wb); });
 *
 * The VSIX is packaged once per mocha run (`npm run package`; set PAGE_REPORTS_VSIX to use a
 * ready one) and installed once into a template extensions folder that every workbench copies.
 * Each workbench gets its own reference service (seeded, fault injection on, rate limit off),
 * code-server (no smoke-test driver, so toasts and dialogs show as users see them), fresh
 * user-data and extensions folders, and Chromium profile; stop() ends and removes them all.
 * Screenshots go to .test-output/screenshots/, code-server logs to .test-output/logs/.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import {
  installExtension,
  launchChromium,
  quietSettings,
  startCodeServer,
  writeUserSettings,
  type CodeServer,
  type CodeServerDirs,
} from '../../scripts/lib/codeServer';
import { PSEUDO_LOCALE, writePseudoTranslations } from '../../scripts/lib/l10n';
import { installLanguagePack } from '../../scripts/lib/languagePack';
import { killGroupNow, makeTempDir, removeDir } from '../../scripts/lib/processes';
import { ensureTools, packageVsix, repoRoot } from '../../scripts/lib/tools';
import { adminCall } from '../service/adminClient';
import { startService, type RunningService, type ServiceOptions } from '../service/server';

/** API keys of every workbench's service: `main` owns the seeded reports, `other` is a second (empty) account, `forbidden` answers 403. */
export const e2eKeys = { main: 'test-key', other: 'other-key', forbidden: 'forbidden-key' } as const;

/** The two views of the Page Reports container, by their titles. */
export type ViewName = 'Projects' | 'Reports';

export interface WorkbenchOptions {
  /**
   * Writes `pageReports.serviceUrl` into the user settings before the workbench opens: `true`
   * for this workbench's service, a string for any URL. Default: unset (the welcome state).
   * The API key cannot be preset (it lives in secret storage): set it through the UI.
   */
  serviceUrl?: boolean | string;
  /** More user settings (merged over quiet defaults such as no startup editor). */
  settings?: Record<string, unknown>;
  /** Options for the reference service; defaults: seed 40, the keys of {@link e2eKeys}, faults on, rate limit off. */
  service?: ServiceOptions;
  /**
   * Runs the workbench in this display language: installs a minimal language pack for it and,
   * for the pseudo-locale `qps-ploc`, writes the pseudo-translation into the installed extension.
   */
  language?: string;
  /** Names this workbench's log files (.test-output/logs/e2e-NAME-code-server.log). Default: a counter. */
  name?: string;
  /** More VSIX files to install next to Page Reports (a test-only extension, such as one playing an agent). */
  extraVsix?: string[];
  /** Files to write into the workspace folder before it opens, by path relative to it. */
  files?: Record<string, string>;
}

/** A running workbench and what drives it. */
export interface Workbench {
  /** The workbench page (Playwright). */
  page: Page;
  /** This workbench's reference service; use `${service.url}/__admin/...` for faults and data. */
  service: RunningService;
  keys: typeof e2eKeys;
  /** The workbench URL. */
  url: string;
  /** The Page Reports icon in the activity bar. */
  activityIcon: Locator;
  /** Saves a PNG of the page (or of `clip` on it) to .test-output/screenshots/NAME.png and returns its path. */
  screenshot(name: string, clip?: { x: number; y: number; width: number; height: number }): Promise<string>;
  /** Runs a command through the Command Palette by its full title, e.g. 'Page Reports: Set Service URL…'. */
  runCommand(title: string): Promise<void>;
  /** Enters an API key through Set API Key… (default: the main key), as a user types it. */
  enterApiKey(key?: string): Promise<void>;
  /** Shows the Page Reports container by clicking its activity bar icon (a no-op when it shows). */
  openView(): Promise<void>;
  /** The pane of a view (header and body). */
  view(name: ViewName): Locator;
  /** A view's welcome content (shown while the extension is not connected; its buttons are `a.monaco-button`). */
  welcome(name: ViewName): Locator;
  /** The visible rows of a view's tree, as their text (label and description). */
  treeRows(name: ViewName): Promise<string[]>;
  /** Types into the open quick input (input box or quick pick) and, unless `submit` is false, presses Enter. */
  quickInput(text: string, options?: { submit?: boolean }): Promise<void>;
  /** Picks a color theme by its label (`Dark Modern`, `Light Modern`, `Dark High Contrast`) and lets it paint. */
  setTheme(label: string): Promise<void>;
  /** Closes every editor and waits (up to 10 s) until no webview is left in the page. */
  closeAllEditors(): Promise<void>;
  /** Texts of the notification toasts on screen. */
  notifications(): Promise<string[]>;
  /** Calls the service's /__admin endpoint (see test/service/README.md); POST with a body, GET without. */
  admin<T = unknown>(endpoint: string, body?: unknown, method?: string): Promise<T>;
  /** Ends the browser, code-server and the service and removes every folder of this workbench. */
  stop(): Promise<void>;
}

const outputDir = path.join(repoRoot, '.test-output');
// A failure's screenshot (and a debugging one) belongs to the run that took it: those of earlier
// runs go when this one starts, so the folder never shows failures that did not happen in it.
const screenshotsDir = path.join(outputDir, 'screenshots');
const earlierShots = fs.existsSync(screenshotsDir) ? fs.readdirSync(screenshotsDir) : [];
for (const file of earlierShots.filter((name) => /^(failed|debug)-/.test(name))) {
  fs.rmSync(path.join(screenshotsDir, file), { force: true });
}
let vsix: Promise<string> | undefined;
let template: Promise<string> | undefined;
let counter = 0;
/** Everything still running, ended synchronously if the process exits without stop(). */
const live = new Set<{ server?: CodeServer; dirs: string[] }>();

/** Ends every code-server group and removes every folder still live; synchronous, for exit paths. */
function cleanUpNow(): void {
  for (const entry of live) {
    if (entry.server) killGroupNow(entry.server.process);
    for (const dir of entry.dirs) removeDir(dir);
  }
  live.clear();
}

process.on('exit', cleanUpNow);
// code-server runs in process groups of its own, so Ctrl+C or a cancelled job never reaches
// it: end it here. Chromium ends with this process (Playwright's exit handler).
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
  ['SIGHUP', 129],
] as const) {
  process.on(signal, () => {
    cleanUpNow();
    process.exit(code);
  });
}

/** Packages the extension once per process (`npm run package`), or takes PAGE_REPORTS_VSIX. */
export function packagedVsix(): Promise<string> {
  vsix ??= (async () => {
    const ready = process.env.PAGE_REPORTS_VSIX;
    if (ready) return path.resolve(ready);
    return packageVsix();
  })();
  return vsix;
}

/** An extensions folder with the VSIX installed, made once per process and copied per workbench. */
function extensionsTemplate(): Promise<string> {
  template ??= (async () => {
    const file = await packagedVsix();
    const dir = makeTempDir('e2e-template');
    live.add({ dirs: [dir] });
    const dirs: CodeServerDirs = {
      userDataDir: path.join(dir, 'user-data'),
      extensionsDir: path.join(dir, 'extensions'),
      stateDir: path.join(dir, 'state'),
    };
    await installExtension(ensureTools(), dirs, file);
    return dirs.extensionsDir;
  })();
  return template;
}

/** Copies the template extensions folder; extensions.json names absolute locations, which move along. */
function copyExtensions(from: string, to: string): void {
  fs.cpSync(from, to, { recursive: true });
  const index = path.join(to, 'extensions.json');
  if (fs.existsSync(index)) fs.writeFileSync(index, fs.readFileSync(index, 'utf8').split(from).join(to));
}

const safeName = (name: string): string => name.replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '') || 'screenshot';

/**
 * Starts a workbench as described in the module comment and resolves once the workbench
 * shows (`.monaco-workbench`). Always call `stop()` (an `after` hook), also when a test fails.
 */
export async function startWorkbench(options: WorkbenchOptions = {}): Promise<Workbench> {
  const tools = ensureTools();
  const name = safeName(options.name ?? `workbench-${++counter}`);
  const extensions = await extensionsTemplate();
  const temp = makeTempDir('e2e');
  const entry: { server?: CodeServer; dirs: string[] } = { dirs: [temp] };
  live.add(entry);
  let service: RunningService | undefined;
  let browser: BrowserContext | undefined;

  const stop = async (): Promise<void> => {
    await browser?.close().catch(() => undefined);
    await entry.server?.stop();
    await service?.stop();
    removeDir(temp);
    live.delete(entry);
  };

  try {
    service = await startService({
      port: 0,
      keys: [e2eKeys.main, e2eKeys.other],
      forbiddenKeys: [e2eKeys.forbidden],
      seed: 40,
      faults: true,
      rateLimit: 0,
      quiet: true,
      ...options.service,
    });
    const folder = path.join(temp, 'workspace');
    fs.mkdirSync(folder);
    fs.writeFileSync(path.join(folder, 'README.md'), '# End-to-end test workspace\n');
    for (const [relative, text] of Object.entries(options.files ?? {})) {
      fs.mkdirSync(path.dirname(path.join(folder, relative)), { recursive: true });
      fs.writeFileSync(path.join(folder, relative), text);
    }
    const dirs: CodeServerDirs = {
      userDataDir: path.join(temp, 'user-data'),
      extensionsDir: path.join(temp, 'extensions'),
      stateDir: path.join(temp, 'state'),
    };
    copyExtensions(extensions, dirs.extensionsDir);
    for (const file of options.extraVsix ?? []) await installExtension(tools, dirs, file);
    let titles: Record<ViewName, string> = { Projects: 'Projects', Reports: 'Reports' };
    if (options.language) {
      const installed = fs.readdirSync(dirs.extensionsDir).find((d) => d.startsWith('page-reports.page-reports-'));
      if (!installed) throw new Error(`the extension is not installed in ${dirs.extensionsDir}`);
      if (options.language === PSEUDO_LOCALE) writePseudoTranslations(path.join(dirs.extensionsDir, installed));
      await installLanguagePack(tools, dirs, options.language, path.join(temp, 'language-pack'));
      const nls = JSON.parse(
        fs.readFileSync(path.join(dirs.extensionsDir, installed, `package.nls.${options.language}.json`), 'utf8'),
      ) as Record<string, string>;
      titles = { Projects: nls['view.projects'], Reports: nls['view.reports'] };
    }
    const serviceUrl = options.serviceUrl === true ? service.url : options.serviceUrl || undefined;
    writeUserSettings(dirs.userDataDir, {
      ...quietSettings,
      ...(serviceUrl ? { 'pageReports.serviceUrl': serviceUrl } : {}),
      ...options.settings,
    });
    entry.server = await startCodeServer({
      tools,
      ...dirs,
      logFile: path.join(outputDir, 'logs', `e2e-${name}-code-server.log`),
    });
    browser = await launchChromium(tools, path.join(temp, 'chromium'));
    const page = browser.pages()[0] ?? (await browser.newPage());
    const url = entry.server.workbenchUrl(folder);
    await page.goto(url);
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    return makeWorkbench(page, service, url, stop, titles);
  } catch (e) {
    await stop();
    throw e;
  }
}

/** `titles`: the views' titles in the workbench's display language, by their English names. */
function makeWorkbench(
  page: Page,
  service: RunningService,
  url: string,
  stop: () => Promise<void>,
  titles: Record<ViewName, string>,
): Workbench {
  const quickInputBox = page.locator('.quick-input-widget input');
  const activityIcon = page.locator('.activitybar a.action-label[aria-label="Page Reports"]');

  const view = (name: ViewName): Locator =>
    page.locator('.part.sidebar .pane').filter({ has: page.locator('.pane-header', { hasText: titles[name] }) });

  const wb: Workbench = {
    page,
    service,
    keys: e2eKeys,
    url,
    activityIcon,

    async screenshot(shotName, clip) {
      const file = path.join(outputDir, 'screenshots', `${safeName(shotName)}.png`);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      await page.screenshot({ path: file, clip });
      return file;
    },

    async runCommand(title) {
      // Pick the row whose label is exactly the title, not merely the first fuzzy match.
      const row = page
        .locator('.quick-input-widget .monaco-list-row')
        .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(title)}$`) }) })
        .first();
      // A webview that finishes loading just after F1 takes the focus, and the palette closes
      // under the typing (seen in CI: the box went inert, then hidden, and fill waited 30 s).
      // Open it again then (F1 on an open palette keeps it open).
      for (let attempt = 1; ; attempt++) {
        await page.keyboard.press('F1');
        await quickInputBox.waitFor({ state: 'visible' });
        try {
          await quickInputBox.fill(`>${title}`, { timeout: 10_000 });
          await row.waitFor({ state: 'visible', timeout: 10_000 });
          break;
        } catch (error) {
          if (attempt === 3) throw error;
        }
      }
      await row.click();
    },

    async enterApiKey(key = e2eKeys.main) {
      await this.runCommand('Page Reports: Set API Key…');
      const box = page.locator('.quick-input-widget input[type="password"]');
      await box.waitFor({ state: 'visible' });
      await box.fill(key);
      await box.press('Enter');
    },

    async openView() {
      // Right after a (re)load the workbench may still be restoring the sidebar, and clicking
      // the icon of the container already shown hides it. So click only while the icon is not
      // checked, and look again until the view shows: a restore racing a click heals itself.
      await activityIcon.waitFor({ state: 'visible', timeout: 60_000 });
      const item = page.locator('.activitybar li.action-item', {
        has: page.locator('a.action-label[aria-label="Page Reports"]'),
      });
      const deadline = Date.now() + 30_000;
      while (!(await view('Projects').isVisible())) {
        if (Date.now() > deadline) throw new Error('the Page Reports views did not show within 30 s');
        const checked = /\bchecked\b/.test((await item.getAttribute('class')) ?? '');
        if (!checked) await activityIcon.click();
        await page.waitForTimeout(250);
      }
    },

    view,

    welcome: (name) => view(name).locator('.welcome-view-content'),

    async treeRows(name) {
      const rows = view(name).locator('.pane-body .monaco-list-row');
      return (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
    },

    async quickInput(text, options = {}) {
      await quickInputBox.waitFor({ state: 'visible' });
      await quickInputBox.fill(text);
      if (options.submit !== false) await quickInputBox.press('Enter');
    },

    async setTheme(label) {
      await this.runCommand('Preferences: Color Theme');
      await this.quickInput(label);
      await page.waitForTimeout(1000);
    },

    async closeAllEditors() {
      await this.runCommand('View: Close All Editors');
      await page
        .locator('iframe.webview')
        .first()
        .waitFor({ state: 'detached', timeout: 10_000 })
        .catch(() => undefined);
    },

    async notifications() {
      return (await page.locator('.notification-toast .notification-list-item-message').allInnerTexts()).map((t) =>
        t.trim(),
      );
    },

    admin: <T = unknown>(endpoint: string, body?: unknown, method?: string) =>
      adminCall<T>(service.url, endpoint, body, method),

    stop,
  };
  return wb;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * For an `afterEach` hook: saves a screenshot named after the failed test
 * (.test-output/screenshots/failed-TITLE.png) so a failure can be looked at.
 */
export async function screenshotOnFailure(context: Mocha.Context, wb: Workbench | undefined): Promise<void> {
  const test = context.currentTest;
  if (wb && test?.state === 'failed') await wb.screenshot(`failed-${test.fullTitle()}`).catch(() => undefined);
}
