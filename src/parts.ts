/**
 * The parts of the extension and the interfaces between them. `extension.ts` builds one of
 * each and hands this object around; no part imports another's class, only these interfaces.
 */
import type * as vscode from 'vscode';
import type { Report, ReportId, ReportQuery, ReportsApi } from './api/types';
import type { RecentAnalyses } from './common/recentAnalyses';
import type { InsightsPanelsApi } from './insights/panel';
import type { Log } from './log';

export type ConnectionState = 'noUrl' | 'noKey' | 'ready';

export interface ConnectionApi {
  /** Drives the `pageReports.state` context key and the welcome views. */
  readonly state: ConnectionState;
  /** Normalized base URL of the service (no trailing slash), or undefined. */
  readonly serviceUrl: string | undefined;
  /** Fires when the URL, the key (in any window) or the request timeout changes. */
  readonly onDidChange: vscode.Event<void>;
  /** The client for the current URL and key; undefined unless `state` is `ready`. */
  readonly api: ReportsApi | undefined;
  /**
   * The current service's label (`reports.example.com`) when more than one service is known,
   * so the views can say where their data comes from; otherwise undefined.
   */
  readonly distinguishingLabel: string | undefined;
  /** Waits for the first read of settings and secrets (activation never awaits it). */
  readonly ready: Promise<void>;
}

export interface ErrorReporter {
  /**
   * Shows one clear message for a failure (product spec, "When things go wrong") with its
   * actions, and logs it. `retry` adds a Retry button. 401s in a burst give one prompt;
   * a 404 refreshes the lists. Never throws, never rejects.
   */
  report(error: unknown, options?: { retry?: () => unknown; action?: string }): void;
}

export interface ReportsViewApi {
  /** Reloads the list from page 1 (keeps expansion), waiting for an in-flight load. */
  refresh(): Promise<void>;
  /** Sets the project filter (Show in Reports View, panel project link). */
  setProjectFilter(project: string | undefined): Promise<void>;
  /** Reveals and selects the report's item, when it is loaded. */
  reveal(report: Report): Promise<void>;
  /** Shows or clears the busy state of a report's item (Re-analyze in flight). */
  setBusy(id: ReportId, busy: boolean): void;
  /** Replaces a loaded report in place (after re-analyze or privacy change). */
  update(report: Report): void;
  /** The reports selected in the view (a keybinding passes no item). */
  selectedReports(): Report[];
  /** The list query the view shows (filters and sort), without paging. */
  listQuery(): ReportQuery;
}

export interface ProjectsViewApi {
  refresh(): Promise<void>;
  /** Replaces a loaded report in place, under whichever project holds it. */
  update(report: Report): void;
  setBusy(id: ReportId, busy: boolean): void;
}

export interface ReportPanelsApi {
  /** Opens the report's panel, or reveals it when already open. */
  open(id: ReportId, initial?: Report): Promise<void>;
  /** Shows fresh data in the report's panel, when one is open. */
  update(report: Report): void;
  /** Shows or clears the busy state in the report's panel. */
  setBusy(id: ReportId, busy: boolean): void;
  /** Closes the report's panel, when one is open (after a delete). */
  close(id: ReportId): void;
  /** Closes every open panel whose report belongs to the project. */
  closeProject(project: string): void;
  /** The report an open panel shows, when it has loaded it. */
  current(id: ReportId): Report | undefined;
  /** The id of the report whose panel is the active editor, if one is. */
  activeReportId(): ReportId | undefined;
}

export interface Parts {
  readonly context: vscode.ExtensionContext;
  readonly log: Log;
  readonly connection: ConnectionApi;
  readonly errors: ErrorReporter;
  readonly reportsView: ReportsViewApi;
  readonly projectsView: ProjectsViewApi;
  readonly panels: ReportPanelsApi;
  /** THE store of recent analyses (the previous analysis of re-analyzed reports). */
  readonly analyses: RecentAnalyses;
  /** The insights panels (issue #17). */
  readonly insights: InsightsPanelsApi;
}

/** Tree elements of both views. Commands receive these as their first argument from menus. */
export type TreeNode =
  | { readonly kind: 'project'; readonly project: import('./api/types').Project }
  | { readonly kind: 'report'; readonly report: Report; readonly parentProject?: string }
  | { readonly kind: 'loadMore'; readonly listKey: string; readonly loaded: number; readonly total: number | undefined }
  | { readonly kind: 'error'; readonly listKey: string; readonly message: string }
  | { readonly kind: 'empty'; readonly listKey: string; readonly message: string }
  | { readonly kind: 'loading'; readonly listKey: string };

/**
 * What a report command accepts as its argument: a tree node, a report, `{ id }` (from the
 * panel or another extension), or a bare id. See `commands/refs.ts`.
 */
export type ReportArg = TreeNode | Report | { id: ReportId } | ReportId | undefined;
