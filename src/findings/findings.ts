/**
 * Findings in the code: the failed checks of a page's latest report as diagnostics on the
 * file that renders the page (`pageReports.sources`), quick fixes on them, hovers on URLs, and
 * the way back from a report to its file.
 *
 * Rules kept below:
 * - Only files opened in an editor are looked up, and only on the current service and key;
 *   a change of either, or of the setting, clears every diagnostic first.
 * - One lookup per page at a time; answers are kept until a refresh or a write
 *   (`lookup.ts`). A lookup that ends after a clear is dropped.
 * - Lookups run in the background: a failure is logged, never shown, and the file keeps what
 *   it had.
 * - A hover asks the service only for URLs under a sources prefix (the user declared that
 *   site theirs); any other URL gets only what is loaded, so reading a file never sends its
 *   URLs to the service.
 */
import * as vscode from 'vscode';
import * as l10n from '@vscode/l10n';
import type { Report, ReportId } from '../api/types';
import { Command, ContextKey, Setting, WebviewType } from '../ids';
import type { ConnectionApi, ErrorReporter, FindingsApi, ReportPanelsApi } from '../parts';
import type { Log } from '../log';
import { startAutoRefresh } from '../views/autoRefresh';
import { urlForLog } from '../text/urls';
import { diagnosticsOf, reportIdOf } from './diagnostics';
import { hoverMarkdown, urlAt } from './hover';
import { PageReports } from './lookup';
import { samePage } from './sources';
import { WorkspaceSources } from './workspaceSources';

/** The most page URLs one file is looked up for (a file may be the page of several sites). */
const MAX_PAGES_PER_FILE = 4;

/** How long typing pauses before the diagnostics move with the text. */
const REPLACE_DELAY_MS = 300;

export interface FindingsDeps {
  readonly log: Log;
  readonly connection: ConnectionApi;
  readonly errors: ErrorReporter;
  readonly panels: ReportPanelsApi;
}

export class Findings implements FindingsApi, vscode.HoverProvider, vscode.CodeActionProvider, vscode.Disposable {
  readonly sources: WorkspaceSources;
  readonly #pages = new PageReports();
  readonly #collection = vscode.languages.createDiagnosticCollection('pageReports');
  /** The reports behind each file's diagnostics, by the file's URI. */
  readonly #shown = new Map<string, { uri: vscode.Uri; reports: Report[] }>();
  readonly #replaceTimers = new Map<string, ReturnType<typeof setTimeout>>();
  readonly #disposables: vscode.Disposable[] = [];

  constructor(private readonly deps: FindingsDeps) {
    this.sources = new WorkspaceSources(deps.log);
    const { connection } = deps;
    this.#disposables.push(
      this.#collection,
      vscode.workspace.onDidOpenTextDocument((document) => void this.#check(document)),
      vscode.workspace.onDidChangeTextDocument((e) => this.#replaceLater(e.document)),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(Setting.sources)) this.#startOver(true);
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.#startOver(true)),
      // Another service or key may see other reports, or none: what was shown goes.
      connection.onDidChange(() => this.#startOver(false)),
      deps.errors.onNotFound((gone) => {
        if (gone.reportId !== undefined) this.reportGone(gone.reportId, connection.serviceUrl);
        // A project deleted elsewhere took its reports along.
        else if (gone.project !== undefined) void this.refresh();
      }),
      vscode.languages.registerHoverProvider({ scheme: '*' }, this),
      vscode.languages.registerCodeActionsProvider({ scheme: '*' }, this, {
        providedCodeActionKinds: [vscode.CodeActionKind.QuickFix],
      }),
      vscode.window.tabGroups.onDidChangeTabs(() => this.#showTitleAction()),
      vscode.window.tabGroups.onDidChangeTabGroups(() => this.#showTitleAction()),
      // `pageReports.autoRefresh`: the findings reload with the lists, under the same rules
      // (while any file shows some, and no lookup is running).
      startAutoRefresh([this.#autoRefreshed()], connection),
    );
    this.#setMappedKey();
    void connection.ready.then(() => this.#checkOpen());
  }

  // ---- FindingsApi ------------------------------------------------------------------------

  reportChanged(report: Report, serviceUrl: string | undefined): void {
    if (serviceUrl !== this.deps.connection.serviceUrl) return;
    this.#pages.put(report);
    void this.#recheck((urls) => urls.some((url) => samePage(url, report.url)));
  }

  reportGone(id: ReportId, serviceUrl: string | undefined): void {
    if (serviceUrl !== this.deps.connection.serviceUrl) return;
    this.#pages.drop(id);
    for (const [key, shown] of this.#shown) {
      if (!shown.reports.some((report) => String(report.id) === String(id))) continue;
      this.#shown.delete(key);
      this.#collection.delete(shown.uri);
    }
    void this.#recheck(() => true);
  }

  async refresh(): Promise<void> {
    this.#pages.clear();
    await this.#recheck(() => true);
  }

  // ---- Diagnostics ------------------------------------------------------------------------

  /** Clears everything shown and looks the open files up again. */
  #startOver(settingChanged: boolean): void {
    if (settingChanged) {
      this.sources.forgetSaid();
      this.#setMappedKey();
      this.#showTitleAction();
    }
    this.#pages.clear();
    this.#shown.clear();
    this.#collection.clear();
    void this.#checkOpen();
  }

  async #checkOpen(): Promise<void> {
    await Promise.allSettled(vscode.workspace.textDocuments.map((document) => this.#check(document)));
  }

  /** Looks again at the open files, and the files with diagnostics, whose pages pass `which`. */
  async #recheck(which: (urls: readonly string[]) => boolean): Promise<void> {
    const documents = new Map<string, vscode.TextDocument>();
    for (const document of vscode.workspace.textDocuments) documents.set(document.uri.toString(), document);
    for (const [key, shown] of this.#shown) {
      if (documents.has(key)) continue;
      try {
        documents.set(key, await vscode.workspace.openTextDocument(shown.uri));
      } catch {
        this.#shown.delete(key);
        this.#collection.delete(shown.uri);
      }
    }
    await Promise.allSettled(
      [...documents.values()].map(async (document) => {
        const urls = await this.sources.pageUrlsOf(document.uri);
        if (which(urls)) await this.#check(document, urls);
      }),
    );
  }

  /** Looks up the pages of `document` and shows their failed checks on it. */
  async #check(document: vscode.TextDocument, knownUrls?: readonly string[]): Promise<void> {
    const { connection } = this.deps;
    const api = connection.api;
    const serviceUrl = connection.serviceUrl;
    if (connection.state !== 'ready' || api === undefined || serviceUrl === undefined) return;
    if (vscode.workspace.getWorkspaceFolder(document.uri) === undefined) return;
    const generation = this.#pages.generation;
    const urls = (knownUrls ?? (await this.sources.pageUrlsOf(document.uri))).slice(0, MAX_PAGES_PER_FILE);
    const key = document.uri.toString();
    if (urls.length === 0) {
      if (this.#shown.delete(key)) this.#collection.delete(document.uri);
      return;
    }
    let reports: Report[];
    try {
      const found = await Promise.all(urls.map((url) => this.#pages.lookup(url, api)));
      reports = found.filter((report): report is Report => report !== undefined);
    } catch (e) {
      this.deps.log.warn(
        `Findings: the report of ${urls.map(urlForLog).join(', ')} could not be looked up: ${connection.redact(e instanceof Error ? e.message : String(e))}`,
      );
      return;
    }
    // Cleared meanwhile (another service, key or setting): this answer is of the past.
    if (generation !== this.#pages.generation || serviceUrl !== connection.serviceUrl) return;
    this.#show(document, reports, serviceUrl);
  }

  #show(document: vscode.TextDocument, reports: Report[], serviceUrl: string): void {
    const key = document.uri.toString();
    if (reports.length === 0) {
      this.#shown.delete(key);
      this.#collection.delete(document.uri);
      return;
    }
    this.#shown.set(key, { uri: document.uri, reports });
    this.#collection.set(
      document.uri,
      reports.flatMap((report) => diagnosticsOf(report, document, serviceUrl)),
    );
  }

  /** Typing moves elements: the diagnostics follow once it pauses, from the reports kept. */
  #replaceLater(document: vscode.TextDocument): void {
    const key = document.uri.toString();
    if (!this.#shown.has(key)) return;
    clearTimeout(this.#replaceTimers.get(key));
    this.#replaceTimers.set(
      key,
      setTimeout(() => {
        this.#replaceTimers.delete(key);
        const shown = this.#shown.get(key);
        const serviceUrl = this.deps.connection.serviceUrl;
        if (shown !== undefined && serviceUrl !== undefined) this.#show(document, shown.reports, serviceUrl);
      }, REPLACE_DELAY_MS),
    );
  }

  // ---- Quick fixes ------------------------------------------------------------------------

  provideCodeActions(
    document: vscode.TextDocument,
    _range: vscode.Range,
    context: vscode.CodeActionContext,
  ): vscode.CodeAction[] {
    const shown = this.#shown.get(document.uri.toString());
    if (shown === undefined) return [];
    const actions: vscode.CodeAction[] = [];
    const done = new Set<string>();
    for (const diagnostic of context.diagnostics) {
      const id = reportIdOf(diagnostic);
      if (id === undefined || done.has(id)) continue;
      const report = shown.reports.find((r) => String(r.id) === id);
      if (report === undefined) continue;
      done.add(id);
      const ours = context.diagnostics.filter((d) => reportIdOf(d) === id);
      const fix = (title: string, command: string): vscode.CodeAction => {
        const action = new vscode.CodeAction(title, vscode.CodeActionKind.QuickFix);
        action.diagnostics = ours;
        action.command = { title, command, arguments: [report] };
        return action;
      };
      actions.push(
        fix(l10n.t('Open Report'), Command.openReport),
        fix(l10n.t('Re-analyze Page'), Command.reanalyzeReport),
        fix(l10n.t('Copy as Markdown'), Command.copyReportMarkdown),
      );
      // A code action cannot read context keys, so the chat's own setting stands in for `chatIsEnabled`.
      if (!vscode.workspace.getConfiguration('chat').get<boolean>('disableAIFeatures', false)) {
        actions.push(fix(l10n.t('Ask Agent to Fix'), Command.askAgentToFix));
      }
    }
    return actions;
  }

  // ---- Hovers -----------------------------------------------------------------------------

  async provideHover(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.Hover | undefined> {
    if (vscode.workspace.getConfiguration(undefined, document.uri).get<boolean>(Setting.hovers) === false)
      return undefined;
    const { connection } = this.deps;
    const api = connection.api;
    if (connection.state !== 'ready' || api === undefined) return undefined;
    const found = urlAt(document, position);
    if (found === undefined) return undefined;
    let report: Report | undefined;
    const known = this.#pages.known(found.url);
    if (known !== undefined) report = known.report;
    else if (this.sources.isDeclared(found.url)) {
      try {
        report = await this.#pages.lookup(found.url, api);
      } catch (e) {
        this.deps.log.warn(
          `Hover: the report of ${urlForLog(found.url)} could not be looked up: ${connection.redact(e instanceof Error ? e.message : String(e))}`,
        );
        return undefined;
      }
    }
    return new vscode.Hover(hoverMarkdown(found.url, report), found.range);
  }

  // ---- Context keys -----------------------------------------------------------------------

  #mapped: boolean | undefined;

  #setMappedKey(): void {
    const mapped = this.sources.anyConfigured();
    if (mapped === this.#mapped) return;
    this.#mapped = mapped;
    void vscode.commands.executeCommand('setContext', ContextKey.sourcesMapped, mapped);
  }

  #hasSource: boolean | undefined;
  #titleRetry: ReturnType<typeof setTimeout> | undefined;

  /**
   * The active report panel's title bar offers Open Source when its page is under a prefix.
   * A panel still loading its report is looked at again shortly (the panels send no event).
   */
  #showTitleAction(retries = 10): void {
    clearTimeout(this.#titleRetry);
    const active = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    const isPanel = active instanceof vscode.TabInputWebview && active.viewType.endsWith(WebviewType.report);
    const report = isPanel ? this.deps.panels.activeReport() : undefined;
    const url = report === undefined ? undefined : this.deps.panels.current(report.id)?.url;
    if (isPanel && url === undefined && retries > 0) {
      this.#titleRetry = setTimeout(() => this.#showTitleAction(retries - 1), 500);
    }
    const hasSource = url !== undefined && this.sources.isDeclared(url);
    if (hasSource === this.#hasSource) return;
    this.#hasSource = hasSource;
    void vscode.commands.executeCommand('setContext', ContextKey.reportHasSource, hasSource);
  }

  /** The findings as auto refresh sees a view: shown while a file has diagnostics. */
  #autoRefreshed(): Parameters<typeof startAutoRefresh>[0][number] {
    const shown = this.#shown;
    const pages = this.#pages;
    return {
      treeView: {
        get visible() {
          return shown.size > 0;
        },
      },
      get idle() {
        return !pages.busy;
      },
      refreshLoaded: () => this.refresh(),
    };
  }

  dispose(): void {
    clearTimeout(this.#titleRetry);
    for (const timer of this.#replaceTimers.values()) clearTimeout(timer);
    for (const d of this.#disposables.splice(0)) d.dispose();
  }
}
