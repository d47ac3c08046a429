/**
 * The extension in another display language, in the real extension host. Run only by the
 * locale runs of the integration level (`scripts/run-integration.ts --locale de|qps-ploc`),
 * which install a minimal language pack for the language, set it in argv.json and load the
 * extension from a copy that holds, for `qps-ploc`, a generated pseudo-translation of every
 * message. First VS Code must really run in that language and hand the extension its bundle;
 * then every fixed word the extension shows must be translated: the manifest's titles,
 * welcome and settings texts, and the views' rows, descriptions, tooltips, empty and error
 * messages. A word counts as untranslated when it is a word of the English messages that no
 * translation uses and that the service's data does not hold.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ViewNode } from '../../../src/views/items';
import type { ProjectsView } from '../../../src/views/projectsView';
import type { ReportsView } from '../../../src/views/reportsView';
import { englishOnlyWords, intlDateWords, leaks, words } from '../../l10nWords';
import { activate, admin, configure, keys, pageReportsLogWith, resetService, serviceUrl, waitFor } from '../harness';
import { TestHook } from '../../../src/ids';

const language = process.env.PAGE_REPORTS_TEST_LOCALE ?? '';

function views(): { reportsView: ReportsView; projectsView: ProjectsView } {
  const hook = (globalThis as Record<symbol, unknown>)[TestHook.views];
  if (!hook) throw new Error('the views test hook is not set (is the extension in test mode?)');
  return hook as { reportsView: ReportsView; projectsView: ProjectsView };
}

type Messages = Record<string, string>;

function readJson(file: string): Messages {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Messages;
}

function text(value: string | vscode.TreeItemLabel | vscode.MarkdownString | undefined | boolean): string {
  if (value === undefined || typeof value === 'boolean') return '';
  if (typeof value === 'string') return value;
  if ('value' in value) return value.value;
  return value.label;
}

describe(`display language ${language}`, function () {
  this.timeout(60_000);
  let extension: vscode.Extension<unknown>;
  let english: { bundle: Messages; nls: Messages };
  let translated: { bundle: Messages; nls: Messages };
  /** Words of the English messages that no translation uses: seeing one means English leaked. */
  let englishOnly: Set<string>;
  const seen: { where: string; text: string }[] = [];

  function show(where: string, value: Parameters<typeof text>[0]): void {
    const shown = text(value);
    if (shown !== '') seen.push({ where, text: shown });
  }

  before(async () => {
    assert.ok(language, 'PAGE_REPORTS_TEST_LOCALE is not set');
    extension = await activate();
    const root = extension.extensionPath;
    english = {
      bundle: readJson(path.join(root, 'l10n', 'bundle.l10n.json')),
      nls: readJson(path.join(root, 'package.nls.json')),
    };
    translated = {
      bundle: readJson(path.join(root, 'l10n', `bundle.l10n.${language}.json`)),
      nls: readJson(path.join(root, `package.nls.${language}.json`)),
    };
    englishOnly = englishOnlyWords([english.bundle, english.nls], [translated.bundle, translated.nls]);
  });

  it('VS Code runs in the language and gives the extension its bundle (vscode.env.language, vscode.l10n.uri)', () => {
    assert.equal(vscode.env.language, language);
    const uri = vscode.l10n.uri;
    assert.ok(uri, 'vscode.l10n.uri is set');
    assert.equal(path.basename(uri.path), `bundle.l10n.${language}.json`);
    assert.equal(
      path.resolve(uri.fsPath),
      path.resolve(extension.extensionPath, 'l10n', `bundle.l10n.${language}.json`),
    );
    assert.deepEqual(vscode.l10n.bundle, translated.bundle);
    assert.equal(vscode.l10n.t('Retry'), translated.bundle.Retry);
  });

  it('the manifest is translated: commands, views, welcome content, settings', () => {
    /** A localized manifest string: VS Code gives titles as `{ value, original }`. */
    type Localized = string | { value: string; original: string } | undefined;
    const manifest = extension.packageJSON as {
      contributes: {
        commands: { command: string; title: Localized }[];
        views: Record<string, { id: string; name: Localized }[]>;
        viewsWelcome: { view: string; contents: Localized }[];
        configuration: { properties: Record<string, { markdownDescription?: Localized }> };
      };
    };
    const values = new Set(Object.values(translated.nls));
    const check = (where: string, localized: Localized): void => {
      const value = typeof localized === 'object' ? localized.value : localized;
      assert.ok(
        value !== undefined && values.has(value),
        `${where} is not a translation: ${JSON.stringify(localized)}`,
      );
      show(where, value);
    };
    for (const c of manifest.contributes.commands) check(`title of ${c.command}`, c.title);
    for (const v of Object.values(manifest.contributes.views).flat()) check(`name of view ${v.id}`, v.name);
    for (const w of manifest.contributes.viewsWelcome) check(`welcome of ${w.view}`, w.contents);
    for (const [key, p] of Object.entries(manifest.contributes.configuration.properties))
      check(`description of ${key}`, p.markdownDescription);
  });

  it('the views speak the language: rows, descriptions, tooltips, Load more, empty and error messages', async () => {
    await configure();
    await resetService();
    await vscode.commands.executeCommand('pageReports.reports.focus');
    const { reportsView, projectsView } = views();
    await waitFor(() => reportsView.treeView.visible, { message: 'the Reports view is visible' });
    const showItems = async (
      view: ReportsView | ProjectsView,
      name: string,
      parent?: ViewNode,
    ): Promise<ViewNode[]> => {
      const children = await view.getChildren(parent);
      for (const node of children) {
        const item = view.getTreeItem(node);
        const where = `${name} ${node.kind} row`;
        // Report and project labels are the service's data (URL, name); the rest is ours.
        if (node.kind !== 'report' && node.kind !== 'project') show(`${where} label`, item.label);
        show(`${where} description`, item.description);
        show(`${where} tooltip`, item.tooltip);
        show(`${where} spoken label`, item.accessibilityInformation?.label);
        // Tooltips are added on hover.
        show(`${where} tooltip (on hover)`, view.resolveTreeItem(item, node).tooltip);
      }
      return children;
    };

    await vscode.commands.executeCommand('pageReports.sortReports', { sortBy: 'id', sort: 'desc' });
    const reports = await showItems(reportsView, 'Reports');
    assert.ok(reports.some((n) => n.kind === 'report'));
    assert.equal(reports.at(-1)?.kind, 'loadMore');
    show('Reports view description', reportsView.treeView.description);

    await vscode.commands.executeCommand('pageReports.filterReports', { result: 'bad', search: 'zzqqxx' });
    await showItems(reportsView, 'Reports (nothing matches)');
    show('Reports view description (filtered)', reportsView.treeView.description);
    show('Reports view message (filtered)', reportsView.treeView.message);
    await vscode.commands.executeCommand('pageReports.clearReportFilters');

    // Reads are retried twice: three 502s make the failure stick and show the error row.
    await admin('faults', { method: 'GET', path: '/api/v1/reports', status: 502, body: 'html', times: 3 });
    await vscode.commands.executeCommand('pageReports.refreshReports');
    const failed = await showItems(reportsView, 'Reports (failing)');
    assert.equal(failed.at(-1)?.kind, 'error');
    // A 403 is also told in a notification, which leads with the outcome ("Couldn't load reports: …");
    // the reporter's log line starts with the same words.
    const marker = `locale-${Date.now()}`;
    await admin('faults', { method: 'GET', path: '/api/v1/reports', status: 403, body: { message: marker }, times: 1 });
    await vscode.commands.executeCommand('pageReports.refreshReports');
    await showItems(reportsView, 'Reports (refused)');
    const line = (await pageReportsLogWith(marker)).split('\n').find((l) => l.includes(marker)) ?? '';
    const action = /\] (.*?) \(forbidden 403/.exec(line)?.[1];
    assert.ok(action, line);
    show('notification of a refused list (what failed)', action);
    await admin('faults', undefined, 'DELETE');
    await vscode.commands.executeCommand('pageReports.refreshReports');

    await vscode.commands.executeCommand('pageReports.projects.focus');
    await waitFor(() => projectsView.treeView.visible, { message: 'the Projects view is visible' });
    const projects = await showItems(projectsView, 'Projects');
    const project = projects.find((n) => n.kind === 'project');
    assert.ok(project, 'the seed has projects');
    await showItems(projectsView, 'Projects child', project);
    show('Projects view description', projectsView.treeView.description);
    await vscode.commands.executeCommand('pageReports.searchProjects', 'zzqqxx');
    await showItems(projectsView, 'Projects (nothing matches)');
    show('Projects view message (nothing matches)', projectsView.treeView.message);
    await vscode.commands.executeCommand('pageReports.clearProjectSearch');
  });

  it('nothing shown above holds an English word the translation does not use (the service data aside)', async () => {
    // The service's own words (URLs, project names, its error bodies, the host) are data, not
    // ours; so are the words Intl formats dates with.
    const data = new Set<string>([...words(serviceUrl()), ...intlDateWords(language)]);
    for (const list of ['reports', 'projects']) {
      const response = await fetch(`${serviceUrl()}/api/v1/${list}?per_page=100`, {
        headers: { Authorization: `Bearer ${keys().main}`, Accept: 'application/json' },
      });
      for (const w of words(await response.text())) data.add(w);
    }
    assert.ok(seen.length > 40, `only ${seen.length} texts were seen`);
    assert.deepEqual(leaks(seen, englishOnly, data), [], 'English words in translated UI');
  });
});
