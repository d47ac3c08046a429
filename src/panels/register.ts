import * as vscode from 'vscode';
import type { Report, ReportId } from '../api/types';
import type { ActiveReport, ReportPanelsApi } from '../parts';
import { parseSavedPageState } from '../protocols/panelProtocol';
import { isListSummary } from '../views/summary';
import { knownServices } from '../services/knownServices';
import { ReportPageAssets } from './pageAssets';
import { keepWhileOpen } from './lifetime';
import { panelKey, ReportPanel, type PanelDeps } from './reportPanel';

/** All open report panels, one per report id. */
export class ReportPanels implements ReportPanelsApi, vscode.Disposable {
  readonly #panels = new Map<string, ReportPanel>();
  readonly #disposables: vscode.Disposable[] = [];
  /**
   * The panel that became active last (opened, revealed or focused). VS Code tells the others
   * they are no longer active a moment later, so for a while two may say `active`.
   */
  #lastActive: string | undefined;

  constructor(private readonly deps: PanelDeps) {
    this.#disposables.push(
      // A new URL or key: every open panel of the current service shows what it now says;
      // panels of another service keep their content and say where it came from.
      deps.connection.onDidChange(() => {
        for (const panel of this.#panels.values()) panel.onConnectionChanged();
      }),
      // Remove Service: its panels close (their key is gone, and Switch Back would add it again);
      // those of another service say its name again, which may have lost the path it needed.
      deps.connection.onDidChangeServices(() => {
        const known = this.#knownUrls();
        for (const panel of [...this.#panels.values()]) {
          if (panel.serviceUrl !== undefined && !known.includes(panel.serviceUrl)) panel.dispose();
          else if (panel.foreignService !== undefined) panel.onConnectionChanged();
        }
      }),
    );
  }

  /** The map key of report `id` on the current service (the same id elsewhere is another report). */
  #key(id: ReportId, serviceUrl: string | undefined = this.deps.connection.serviceUrl): string {
    return `${serviceUrl ?? ''}\n${panelKey(id)}`;
  }

  /** The open panel of report `id` of `serviceUrl` (by default the current service), if any. */
  #panel(id: ReportId, serviceUrl?: string): ReportPanel | undefined {
    return this.#panels.get(this.#key(id, serviceUrl));
  }

  /** Opens the report's panel (loading it) or reveals the open one. Never rejects. */
  async open(id: ReportId, initial?: Report, serviceUrl = this.deps.connection.serviceUrl): Promise<void> {
    const existing = this.#panel(id, serviceUrl);
    if (existing) {
      this.#lastActive = this.#key(id, serviceUrl);
      existing.reveal();
      // The caller's copy (a tree's summary) may be older than what the panel shows: it
      // only fills a panel that has nothing yet, and the panel asks the service again.
      if (initial && existing.report === undefined) existing.showReport(initial);
      void existing.load();
      return;
    }
    // A tree row's summary: the whole report when the list answer it came from is at hand.
    const listed = serviceUrl === this.deps.connection.serviceUrl ? this.#listedReport(initial) : undefined;
    const panel = this.#track(ReportPanel.create(this.deps, id, listed ?? initial, serviceUrl));
    // With data from the caller the panel shows it at once and refreshes in the background;
    // a listed report once the page has drawn it (see ReportPanel.refreshOnceShown).
    if (listed) panel.refreshOnceShown();
    else if (initial) void panel.load();
    else await panel.load();
  }

  #listedReport(initial: Report | undefined): Report | undefined {
    const serviceUrl = this.deps.connection.serviceUrl;
    if (initial === undefined || !isListSummary(initial) || serviceUrl === undefined) return undefined;
    return this.deps.recentReports.forRow(serviceUrl, initial);
  }

  /** The open panels (the integration tests read their service). */
  openPanels(): readonly ReportPanel[] {
    return [...this.#panels.values()];
  }

  update(report: Report, serviceUrl?: string): void {
    this.#panel(report.id, serviceUrl)?.showReport(report);
  }

  setBusy(id: ReportId, busy: boolean, serviceUrl?: string): void {
    this.#panel(id, serviceUrl)?.setBusy(busy);
  }

  showDeleted(id: ReportId, serviceUrl: string | undefined): void {
    this.#panel(id, serviceUrl)?.showDeleted();
  }

  close(id: ReportId, serviceUrl?: string): void {
    this.#panel(id, serviceUrl)?.dispose();
  }

  /** Closes the panels of the project's reports, those still loading included (once their project is known). */
  closeProject(project: string, serviceUrl = this.deps.connection.serviceUrl): void {
    for (const panel of [...this.#panels.values()]) {
      if (panel.serviceUrl === serviceUrl) panel.closeIfProject(project);
    }
  }

  current(id: ReportId): Report | undefined {
    return this.#panel(id)?.report;
  }

  activeReport(): ActiveReport | undefined {
    const last = this.#lastActive === undefined ? undefined : this.#panels.get(this.#lastActive);
    const active = last?.panel.active ? last : [...this.#panels.values()].find((panel) => panel.panel.active);
    return active && { id: active.id, serviceUrl: active.serviceUrl, foreignService: active.foreignService };
  }

  /**
   * Restores a panel VS Code kept across a reload, from the report id and service its page
   * saved (pages saved before the service was: the current service).
   */
  async revive(webviewPanel: vscode.WebviewPanel, saved: unknown): Promise<void> {
    const state = parseSavedPageState(saved);
    const serviceUrl = state?.serviceUrl ?? this.deps.connection.serviceUrl;
    // The page's word is checked like any page message: only a service this machine knows (Switch
    // Back would make it current). A removed service's report is not asked of another: the same id
    // there is another report.
    const unknown = state?.serviceUrl !== undefined && !this.#knownUrls().includes(state.serviceUrl);
    if (!state || unknown || this.#panels.has(this.#key(state.reportId, serviceUrl))) {
      // Nothing to show (no id saved, or its service is gone), or that report is open already.
      webviewPanel.dispose();
      return;
    }
    const panel = this.#track(ReportPanel.revive(this.deps, webviewPanel, state.reportId, serviceUrl));
    await this.deps.connection.ready;
    await panel.load();
  }

  #knownUrls(): string[] {
    return knownServices(this.deps.context.globalState).map((service) => service.url);
  }

  #track(panel: ReportPanel): ReportPanel {
    const key = this.#key(panel.id, panel.serviceUrl);
    this.#lastActive = key;
    panel.panel.onDidChangeViewState((e) => {
      if (e.webviewPanel.active) this.#lastActive = key;
    });
    return keepWhileOpen(this.#panels, key, panel);
  }

  dispose(): void {
    for (const panel of [...this.#panels.values()]) panel.dispose();
    for (const d of this.#disposables) d.dispose();
  }
}

/** Creates the report panels: the `ReportPanelsApi` for the other parts. */
export function registerPanels(deps: Omit<PanelDeps, 'pageAssets'>): ReportPanels {
  const { extensionUri, extensionMode } = deps.context;
  const pageAssets = new ReportPageAssets(extensionUri, extensionMode === vscode.ExtensionMode.Development);
  return new ReportPanels({ ...deps, pageAssets });
}
