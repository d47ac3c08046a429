/**
 * The extension manifest (package.json + package.nls.json) is the extension's public
 * interface: command ids, titles, menus, settings. These checks keep it consistent as parts
 * are added; what the VSIX contains is checked by scripts/check-vsix.ts when packaging.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readmeState } from '../../scripts/readme-tables';
import { ThemeColorId } from '../../src/ids';

const root = path.resolve(__dirname, '..', '..');

interface Command {
  command: string;
  title: string;
  category?: string;
  icon?: string | { light: string; dark: string };
}
interface MenuItem {
  command?: string;
  submenu?: string;
  when?: string;
  group?: string;
}
interface Manifest {
  name: string;
  publisher: string;
  displayName: string;
  main: string;
  browser: string;
  icon: string;
  license: string;
  categories: string[];
  engines: { vscode: string };
  activationEvents?: string[];
  extensionKind?: string[];
  l10n?: string;
  devDependencies: Record<string, string>;
  contributes: {
    commands: Command[];
    menus: Record<string, MenuItem[]>;
    viewsContainers: { activitybar: { id: string; title: string; icon: string }[] };
    views: Record<string, { id: string; name: string }[]>;
    viewsWelcome: { view: string; contents: string; when?: string }[];
    configuration: {
      title: string;
      properties: Record<string, { scope?: string; markdownDescription?: string; description?: string }>;
    };
    colors?: { id: string; description: string; defaults: Record<string, string> }[];
  };
}

const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as Manifest;
const nls = JSON.parse(fs.readFileSync(path.join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
const commands = manifest.contributes.commands;
const declared = new Set(commands.map((c) => c.command));

/** Every string anywhere in the manifest, with its JSON path. */
function strings(value: unknown, at = '$'): { at: string; value: string }[] {
  if (typeof value === 'string') return [{ at, value }];
  if (Array.isArray(value)) return value.flatMap((v, i) => strings(v, `${at}[${i}]`));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => strings(v, `${at}.${k}`));
  return [];
}

/** Menu entries outside the command palette: title bars, context menus, inline actions. */
function visibleMenuItems(): { menu: string; item: MenuItem }[] {
  return Object.entries(manifest.contributes.menus)
    .filter(([menu]) => menu !== 'commandPalette')
    .flatMap(([menu, items]) => items.map((item) => ({ menu, item })));
}

describe('manifest (package.json)', () => {
  it('keeps the identity of the product spec', () => {
    assert.equal(manifest.name, 'page-reports');
    assert.equal(manifest.publisher, 'page-reports');
    assert.equal(manifest.displayName, 'Page Reports');
    assert.equal(manifest.main, './dist/extension.js');
    assert.equal(manifest.browser, './dist/web/extension.js');
    assert.equal(manifest.license, 'MIT');
    const [container] = manifest.contributes.viewsContainers.activitybar;
    assert.deepEqual({ id: container?.id, title: container?.title }, { id: 'pageReports', title: 'Page Reports' });
    assert.deepEqual(
      // View names are localized: the English one is in package.nls.json.
      manifest.contributes.views.pageReports?.map((v) => [v.id, nls[/^%(.+)%$/.exec(v.name)?.[1] ?? ''] ?? v.name]),
      [
        ['pageReports.projects', 'Projects'],
        ['pageReports.reports', 'Reports'],
      ],
    );
  });

  it('points at icons that exist: a 128×128 PNG and the activity bar SVG', () => {
    const png = fs.readFileSync(path.join(root, manifest.icon));
    assert.equal(png.subarray(1, 4).toString('ascii'), 'PNG');
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [128, 128]);
    for (const container of manifest.contributes.viewsContainers.activitybar) {
      const svg = fs.readFileSync(path.join(root, container.icon), 'utf8');
      assert.match(svg, /<svg[^>]*viewBox="0 0 24 24"/);
    }
  });

  it('declares only the activation VS Code cannot infer: restoring a report or insights panel, the Accounts menu after startup, and links (onUri)', () => {
    // Commands, views and settings imply their own activation; a webview panel type and a URI handler do not,
    // and the Accounts menu lists sessions only of a provider registered by an active extension.
    assert.deepEqual(manifest.activationEvents, [
      'onWebviewPanel:pageReports.report',
      'onWebviewPanel:pageReports.insights',
      'onStartupFinished',
      'onUri',
    ]);
  });

  it('binds Delete in the Reports and Projects views without taking a key VS Code uses there, and Analyze Page to the editor', () => {
    const keybindings = (
      manifest.contributes as unknown as {
        keybindings: { command: string; key: string; mac?: string; when: string; args?: unknown }[];
      }
    ).keybindings;
    assert.deepEqual(
      keybindings.map((k) => [k.command, k.key, k.mac, k.when]),
      [
        ['pageReports.deleteReport', 'delete', 'cmd+backspace', 'focusedView == pageReports.reports && !inputFocus'],
        ['pageReports.deleteReport', 'delete', 'cmd+backspace', 'focusedView == pageReports.projects && !inputFocus'],
      ],
    );
    assert.deepEqual(keybindings[0]?.args, { selection: true });
    assert.deepEqual(keybindings[1]?.args, { selection: true, view: 'projects' });
    const editorContext = manifest.contributes.menus['editor/context'] ?? [];
    assert.deepEqual(
      editorContext.map((m) => [m.command, m.when]),
      [['pageReports.analyzeUrl', 'editorFocus']],
    );
    const panelTitle = manifest.contributes.menus['editor/title'] ?? [];
    // Only on a report panel, and not on one that cannot act (its report deleted, or another service's);
    // Open Source adds that the page maps to a file, Ask Agent to Fix that the editor has a chat.
    assert.ok(
      panelTitle.every((m) =>
        m.when?.startsWith("activeWebviewPanelId == 'pageReports.report' && !pageReports.report.actionsOff"),
      ),
    );
    // Change Privacy sits in the … menu: an icon beside Re-analyze would be one VS Code's own title bar uses for something else.
    assert.deepEqual(
      panelTitle.filter((m) => m.group?.startsWith('navigation')).map((m) => m.command),
      ['pageReports.reanalyzeReport'],
    );
  });

  it('declares autoRefresh (minutes, 0-1440, off by default) and insightsLimit (100-20000, 2000) for the window', () => {
    const properties = manifest.contributes.configuration.properties as Record<string, Record<string, unknown>>;
    const pick = (name: string) => {
      const p = properties[name] ?? {};
      return [p.type, p.default, p.minimum, p.maximum, p.scope];
    };
    assert.deepEqual(pick('pageReports.autoRefresh'), ['integer', 0, 0, 1440, 'window']);
    assert.deepEqual(pick('pageReports.insightsLimit'), ['integer', 2000, 100, 20000, 'window']);
  });

  it('prefers the UI extension host (a pure HTTP client runs next to the user) and accepts the workspace one', () => {
    // Under Remote-SSH a service on the user's own network stays reachable; in code-server and
    // VS Code for the Web only the workspace host exists, and the integration run proves that.
    assert.deepEqual(manifest.extensionKind, ['ui', 'workspace']);
  });

  it('loads its translations from l10n/ (the bundles `npm run l10n` writes)', () => {
    assert.equal(manifest.l10n, './l10n');
    assert.ok(fs.existsSync(path.join(root, 'l10n', 'bundle.l10n.json')));
  });

  it('targets the VS Code API it is typed against (engines.vscode and @types/vscode)', () => {
    assert.equal(manifest.engines.vscode, '^1.101.0');
    assert.equal(manifest.devDependencies['@types/vscode'], manifest.engines.vscode);
    const typesVersion = (
      JSON.parse(fs.readFileSync(path.join(root, 'node_modules', '@types', 'vscode', 'package.json'), 'utf8')) as {
        version: string;
      }
    ).version;
    const minor = (v: string): number => Number(/(\d+)\.(\d+)/.exec(v)?.[2]);
    // Types newer than the engine would let code call API that 1.101 does not have.
    assert.ok(
      minor(typesVersion) <= minor(manifest.engines.vscode),
      `@types/vscode ${typesVersion} is newer than engines.vscode ${manifest.engines.vscode}`,
    );
  });

  it('declares each command once, under the pageReports prefix, in the Page Reports category with a localized title', () => {
    assert.equal(declared.size, commands.length, 'duplicate command ids');
    for (const c of commands) {
      assert.match(c.command, /^pageReports\.[a-zA-Z]+$/, c.command);
      assert.equal(c.category, 'Page Reports', `${c.command} category`);
      const key = /^%(.+)%$/.exec(c.title)?.[1];
      assert.ok(key, `${c.command} title ${c.title} is not a %nls% reference`);
      assert.ok(nls[key], `${c.command} title key ${key} is missing from package.nls.json`);
    }
  });

  it('gives every command shown in a view title bar or item menu a codicon', () => {
    for (const { menu, item } of visibleMenuItems()) {
      const command = commands.find((c) => c.command === item.command);
      assert.ok(command, `${menu} references ${item.command}`);
      assert.match(
        typeof command.icon === 'string' ? command.icon : '',
        /^\$\([a-z0-9-]+\)$/,
        `${item.command} (in ${menu}) has no codicon`,
      );
    }
  });

  it('shows at most three icons in each view title bar, plus Clear while a filter or search is on; the rest in named … groups', () => {
    const titleBar = manifest.contributes.menus['view/title'] ?? [];
    const icons = (view: string) =>
      titleBar
        .filter((m) => m.when?.includes(`view == ${view} `) && m.group?.startsWith('navigation'))
        .sort((a, b) => Number(a.group?.split('@')[1]) - Number(b.group?.split('@')[1]))
        .map((m) => m.command);
    assert.deepEqual(icons('pageReports.reports'), [
      'pageReports.createReport',
      'pageReports.filterReports',
      'pageReports.clearReportFilters',
      'pageReports.refreshReports',
    ]);
    assert.deepEqual(icons('pageReports.projects'), [
      'pageReports.searchProjects',
      'pageReports.clearProjectSearch',
      'pageReports.refreshProjects',
    ]);
    // Sort sits in the same place in both views: the … menu's first group.
    for (const sort of ['pageReports.sortReports', 'pageReports.sortProjects']) {
      assert.equal(titleBar.find((m) => m.command === sort)?.group, '1_query@1', sort);
    }
    // The Clear icons show only while a filter or search is on.
    for (const clear of ['pageReports.clearReportFilters', 'pageReports.clearProjectSearch']) {
      const when = titleBar.find((m) => m.command === clear)?.when ?? '';
      assert.match(when, /pageReports\.(reports\.filtered|projects\.searching)/, clear);
    }
    for (const m of titleBar.filter((m) => !m.group?.startsWith('navigation'))) {
      assert.match(m.group ?? '', /^[0-9a-z_]+@\d+$/, `${m.command} sits in a named group of the … menu`);
    }
  });

  it('puts no write on a row inline: Re-analyze is in the row menu and the panel only', () => {
    const rowMenu = manifest.contributes.menus['view/item/context'] ?? [];
    const inline = rowMenu.filter((m) => m.group?.startsWith('inline')).map((m) => m.command);
    assert.deepEqual(inline.sort(), ['pageReports.retry', 'pageReports.showInsights', 'pageReports.showProjectInReports']);
  });

  it('is listed where users browse for it: Other and Visualization, not Testing', () => {
    assert.deepEqual(manifest.categories, ['Other', 'Visualization']);
  });

  it('references only declared commands and views from menus and welcome content', () => {
    const views = new Set(Object.values(manifest.contributes.views).flatMap((vs) => vs.map((v) => v.id)));
    for (const [menu, items] of Object.entries(manifest.contributes.menus)) {
      for (const item of items) {
        if (item.command) assert.ok(declared.has(item.command), `${menu} references undeclared ${item.command}`);
        for (const view of item.when?.match(/view == ([\w.]+)/g) ?? []) {
          assert.ok(views.has(view.slice('view == '.length)), `${menu} ${item.command} names unknown ${view}`);
        }
      }
    }
    for (const welcome of manifest.contributes.viewsWelcome) {
      assert.ok(views.has(welcome.view), `viewsWelcome for unknown view ${welcome.view}`);
      const contents = nls[/^%(.+)%$/.exec(welcome.contents)?.[1] ?? ''] ?? welcome.contents;
      for (const [, id] of contents.matchAll(/\(command:([\w.]+)\)/g)) {
        assert.ok(declared.has(id), `welcome content links to undeclared ${id}`);
      }
    }
  });

  it('offers the one-report commands (Change Privacy…, Export Report as JSON…) on a row only when one row is selected: with several they would act on the clicked one alone', () => {
    const rowMenu = manifest.contributes.menus['view/item/context'] ?? [];
    for (const id of ['pageReports.changeReportPrivacy', 'pageReports.exportReportJson']) {
      const entries = rowMenu.filter((i) => i.command === id);
      assert.ok(entries.length > 0, `${id} is on the row menu`);
      for (const entry of entries) assert.match(entry.when ?? '', /&& !listMultiSelection$/, id);
    }
  });

  it('hides item-only commands from the command palette', () => {
    const hidden = new Set(
      manifest.contributes.menus.commandPalette?.filter((i) => i.when === 'false').map((i) => i.command),
    );
    for (const id of ['pageReports.loadMore', 'pageReports.retry'])
      assert.ok(hidden.has(id), `${id} shows in the palette`);
  });

  it('shows the unconfigured state as welcome content in Projects only, and one line in Reports (issue 45: the same welcome twice)', () => {
    const welcomeText = (view: string, when: string): string => {
      const welcome = manifest.contributes.viewsWelcome.find((w) => w.view === view && w.when === when);
      assert.ok(welcome, `${view} has no welcome content for ${when}`);
      return nls[/^%(.+)%$/.exec(welcome.contents)?.[1] ?? ''] ?? '';
    };
    assert.match(welcomeText('pageReports.projects', 'pageReports.state == noUrl'), /\[[^\]]+\]\(command:pageReports\.setServiceUrl\)/);
    const noKey = welcomeText('pageReports.projects', 'pageReports.state == noKey');
    assert.match(noKey, /\[[^\]]+\]\(command:pageReports\.setApiKey\)/);
    assert.match(noKey, /\[[^\]]+\]\(command:pageReports\.openAccountPage\)/, 'says where a key comes from');
    const reports = welcomeText('pageReports.reports', 'pageReports.state == noUrl || pageReports.state == noKey');
    assert.doesNotMatch(reports, /\n|command:/, 'one line, no buttons');
    assert.equal(manifest.contributes.viewsWelcome.filter((w) => w.view === 'pageReports.reports').length, 1);
  });

  it('declares accountPageUrl for the application, a template like reportPageUrl', () => {
    const properties = manifest.contributes.configuration.properties as Record<string, Record<string, unknown>>;
    const account = properties['pageReports.accountPageUrl'] ?? {};
    assert.deepEqual([account.type, account.default, account.scope], ['string', '{base_url}/account', 'application']);
  });

  it('uses only %keys% that package.nls.json defines, and package.nls.json holds no unused key', () => {
    const used = new Set<string>();
    for (const { at, value } of strings(manifest)) {
      const key = /^%(.+)%$/.exec(value)?.[1];
      if (!key) continue;
      used.add(key);
      assert.ok(key in nls, `${at} uses %${key}% which package.nls.json does not define`);
    }
    assert.deepEqual(
      Object.keys(nls).filter((k) => !used.has(k)),
      [],
      'unused package.nls.json keys',
    );
  });

  it('describes every setting; serviceUrl is application-scoped so no workspace can redirect the key', () => {
    const properties = manifest.contributes.configuration.properties;
    for (const [name, setting] of Object.entries(properties)) {
      assert.match(name, /^pageReports\./);
      assert.ok(setting.markdownDescription ?? setting.description, `${name} has no description`);
    }
    assert.equal(properties['pageReports.serviceUrl']?.scope, 'application');
  });

  it('contributes every colour the extension uses, with a default for each kind of theme and a described purpose', () => {
    const colors = new Map((manifest.contributes.colors ?? []).map((c) => [c.id, c]));
    assert.deepEqual([...colors.keys()].sort(), Object.values(ThemeColorId).sort());
    for (const color of colors.values()) {
      assert.deepEqual(Object.keys(color.defaults).sort(), ['dark', 'highContrast', 'highContrastLight', 'light']);
      const key = /^%(.+)%$/.exec(color.description)?.[1];
      assert.ok(key !== undefined && nls[key], `${color.id} has a translated description`);
    }
  });

  it('item 6: requestTimeout is application-scoped, so no workspace can set it', () => {
    const properties = manifest.contributes.configuration.properties;
    assert.equal(properties['pageReports.requestTimeout']?.scope, 'application');
  });

  it("ships the README's screenshots (relative links the extension page resolves) and links nowhere that does not exist", () => {
    const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
    const shipped = fs
      .readFileSync(path.join(root, '.vscodeignore'), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('!media/screenshots/'))
      .map((line) => line.slice(1));
    const shown = [...readme.matchAll(/\]\((media\/screenshots\/[^)]+)\)/g)].map((m) => m[1]);
    assert.ok(shown.length > 0, 'the README shows screenshots');
    assert.deepEqual(
      [...new Set(shown)].sort(),
      [...shipped].sort(),
      'every screenshot the README shows is shipped, and only those',
    );
    for (const file of shown) assert.ok(fs.existsSync(path.join(root, file)), `${file} exists`);
    const manifestText = fs.readFileSync(path.join(root, 'package.json'), 'utf8');
    for (const [name, text] of [
      ['README.md', readme],
      ['package.json', manifestText],
    ] as const) {
      assert.doesNotMatch(text, /example\.invalid/, `${name} links to a placeholder host`);
    }
  });

  it('is documented: README.md lists the current commands and settings (npm run readme regenerates them)', async function () {
    // Regenerating runs Prettier over the whole README: seconds, not milliseconds, on a busy machine.
    this.timeout(30_000);
    const [current, regenerated] = await readmeState();
    assert.ok(current === regenerated, 'README.md tables are out of date: run npm run readme');
  });
});
