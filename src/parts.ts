/**
 * The interfaces the parts of the extension talk through. `main.ts` builds one of each part and
 * hands this object around; no part imports another's class, only these interfaces.
 */
import type * as vscode from 'vscode';
import type {
  ProjectSortKey,
  Report,
  ReportId,
  ReportQuery,
  ReportResult,
  ReportSortKey,
  ReportsApi,
  SortDirection,
} from './api/types';
import type { Log } from './log';
import type { RecentAnalyses } from './stores/recentAnalyses';

export type ConnectionState = 'noUrl' | 'noKey' | 'ready';

/** What the connection last learned about the current service. */
export type ServiceHealth =
  | { kind: 'unknown' }
  | { kind: 'connected' }
  | { kind: 'noKey' }
  | { kind: 'rejected' }
  | { kind: 'unreachable'; since: number }
  | { kind: 'rateLimited'; until: number | undefined };

export interface ConnectionApi {
  /** Drives the `ContextKey.state` context key and the welcome views. */
  readonly state: ConnectionState;
  /** Normalized base URL of the service (no trailing slash), or undefined. */
  readonly serviceUrl: string | undefined;
  /** Fires when the URL or the key (in any window) changes; not for the request timeout. */
  readonly onDidChange: vscode.Event<void>;
  /** The client for the current URL and key; undefined unless `state` is `ready`. */
  readonly api: ReportsApi | undefined;
  /**
   * The label of the service at `url` among the known services: its host, with more where
   * another known service would read the same (`services/labels.ts`).
   */
  labelOf(url: string): string;
  /**
   * The current service's label (`reports.example.com`) when more than one service is known,
   * so the views can say where their data comes from; otherwise undefined.
   */
  readonly distinguishingLabel: string | undefined;
  /** Fires when a known service is removed, which can change {@link distinguishingLabel}. */
  readonly onDidChangeServices: vscode.Event<void>;
  /** What the service's last answers say: connected, rejected key, unreachable, rate limited… */
  readonly health: ServiceHealth;
  readonly onDidChangeHealth: vscode.Event<ServiceHealth>;
  /**
   * Waits for the read of the current service's key: the first after start-up (activation
   * never awaits it), and the one a switch to another origin starts. Never rejects.
   */
  readonly ready: Promise<void>;
  /** `text` with the current API key (and anything else secret) replaced, for logs and messages. */
  redact(text: string): string;
}

/** What the connection and service commands change: keys, the insecure-origin list, a reload. */
export interface ConnectionControls extends ConnectionApi {
  /** Origin of the usable service URL, e.g. `https://reports.example.com`. */
  readonly origin: string | undefined;
  /** The request timeout in milliseconds, from the settings. */
  readonly requestTimeoutMs: number;
  /** Stores `key` for `origin` and waits until the connection uses it (when still current). */
  storeKey(origin: string, key: string): Promise<void>;
  /** Removes the key of `origin` (by default the current one) and waits until it is unused. */
  removeKey(origin?: string): Promise<void>;
  originsWithKey(): string[];
  /** Remembers that the user allowed plain http for `origin`. */
  allowInsecure(origin: string): Promise<void>;
  isInsecureAllowed(origin: string): boolean;
  /** Reads the setting and the key again now, instead of on the next change event. */
  reloadNow(): Promise<void>;
  /** Drops `url` from the known services (Switch Service…'s list). */
  forgetService(url: string): Promise<void>;
}

export interface ErrorReporter {
  /**
   * Shows one clear message for a failure (product spec, "When things go wrong") with its actions,
   * and logs it. Never throws, never rejects.
   */
  report(error: unknown, options?: { retry?: () => unknown; action?: string }): void;
  /** Fires after a 404 on a report or project: the lists drop it by refreshing. */
  readonly onNotFound: vscode.Event<NotFound>;
  /** Fires `onNotFound` for a 404 that its part shows itself (a report panel, a batch's summary). */
  gone(subject: NotFound): void;
}

/** What a 404 was about, taken from the failed request's path. */
export interface NotFound {
  reportId?: ReportId;
  project?: string;
}

/** The Reports view's query. Absent filters are `undefined`, never empty strings. */
export interface ReportQueryState {
  readonly search: string | undefined;
  readonly project: string | undefined;
  readonly result: ReportResult | undefined;
  readonly sortBy: ReportSortKey;
  readonly sort: SortDirection;
}

export interface ProjectQueryState {
  readonly search: string | undefined;
  readonly sortBy: ProjectSortKey;
  readonly sort: SortDirection;
}

export interface ReportsViewApi {
  /** Reloads the list from page 1 (keeps expansion), waiting for an in-flight load; `keepPages`: the pages loaded so far (after a write). */
  refresh(keepPages?: boolean): Promise<void>;
  /** Sets the project filter (Show in Reports View, panel project link). */
  setProjectFilter(project: string | undefined): Promise<void>;
  /** Reveals and selects the report's item, when it is loaded. */
  reveal(report: Report): Promise<void>;
  /** Shows or clears the busy state of a report's item (Re-analyze in flight). */
  setBusy(id: ReportId, busy: boolean): void;
  /** Replaces a loaded report in place (after re-analyze or privacy change). */
  update(report: Report): void;
  /** Drops a deleted report's row at once. */
  remove(id: ReportId): void;
  /** The reports selected in the view (a keybinding passes no item). */
  selectedReports(): Report[];
  /** The list query the view shows (filters and sort), without paging. */
  listQuery(): ReportQuery;
  /** The filters and sort as the user set them. */
  readonly query: ReportQueryState;
  /** Shows the list for `next` (one reload; kept for the workspace). */
  setQuery(next: ReportQueryState): Promise<void>;
  /** Drops search, project and result; keeps the sort. */
  clearFilters(): Promise<void>;
  loadMore(): Promise<void>;
  /** Runs the failed step again (page 1 or the next page). */
  retry(): Promise<void>;
  /** The service's project names containing `search` (all without), for the filter pick; never rejects. */
  projectNames(signal?: AbortSignal, search?: string): Promise<string[]>;
}

export interface ProjectsViewApi {
  /** Reloads the projects from page 1, expansion kept; `keepPages`: the pages loaded so far, expanded projects' too (after a write). */
  refresh(keepPages?: boolean): Promise<void>;
  /** Replaces a loaded report in place, under whichever project holds it. */
  update(report: Report): void;
  /** Drops a deleted report's row under its project at once. */
  remove(id: ReportId): void;
  /** Shows or clears the busy state of a report's item under its project. */
  setBusy(id: ReportId, busy: boolean): void;
  /** The reports selected in the view (a keybinding passes no item). */
  selectedReports(): Report[];
  selectedProject(): string | undefined;
  /** The search and sort as the user set them. */
  readonly query: ProjectQueryState;
  /** Shows the projects for `next` (one reload; kept for the workspace). */
  setQuery(next: ProjectQueryState): Promise<void>;
  /** Drops the search; keeps the sort. */
  clearSearch(): Promise<void>;
  /** Appends the next page of a list: `projects`, or a project's reports (its list key). */
  loadMore(listKey: string): Promise<void>;
  /** Runs the failed step of a list again. */
  retry(listKey: string): Promise<void>;
}

export interface ReportPanelsApi {
  /** Opens the report's panel, or reveals it when already open; a report of another service than the current one (`serviceUrl`) opens as that service's, with its banner. */
  open(id: ReportId, initial?: Report, serviceUrl?: string): Promise<void>;
  /**
   * Shows fresh data in the report's panel, when one is open: the panel of that report on
   * `serviceUrl` (by default the current service).
   */
  update(report: Report, serviceUrl?: string): void;
  /** Shows or clears the busy state in the panel of report `id` (of `serviceUrl`, by default the current service). */
  setBusy(id: ReportId, busy: boolean, serviceUrl?: string): void;
  /** Shows "no longer exists" in the panel of report `id` of `serviceUrl` (a write found it gone). */
  showDeleted(id: ReportId, serviceUrl: string | undefined): void;
  /** Closes the report's panel, when one is open (after a delete; of `serviceUrl`, by default the current service). */
  close(id: ReportId, serviceUrl?: string): void;
  /** Closes every open panel whose report belongs to the project (of `serviceUrl`, by default the current service). */
  closeProject(project: string, serviceUrl?: string): void;
  /** The report an open panel shows, when it has loaded it. */
  current(id: ReportId): Report | undefined;
  /** The report whose panel is the active editor, if one is. */
  activeReport(): ActiveReport | undefined;
}

/** The report of the active report panel, and the service it came from. */
export interface ActiveReport {
  readonly id: ReportId;
  /** The URL of the service the report came from (undefined until one is known). */
  readonly serviceUrl: string | undefined;
  /** The label of that service when it is not the current one (the panel's buttons are off then), else undefined. */
  readonly foreignService: string | undefined;
}

/** The insights panels, as the commands reach them. */
export interface InsightsPanelsApi {
  /** Opens the project's insights (null: all projects) or reveals the open panel; resolves once it is open. Never rejects. */
  open(project: string | null): Promise<void>;
}

/** Findings in the code (src/findings/): what writes and refreshes tell them. */
export interface FindingsApi {
  /** A write's answer (re-analysis, privacy, new report) on `serviceUrl`: files of its page show it. */
  reportChanged(report: Report, serviceUrl: string | undefined): void;
  /** Report `id` of `serviceUrl` was deleted: its diagnostics go. */
  reportGone(id: ReportId, serviceUrl: string | undefined): void;
  /** Forgets the looked-up reports and looks the open files, and those with diagnostics, up again. Never rejects. */
  refresh(): Promise<void>;
  /** The files pages map to (`pageReports.sources`), for Open Source. */
  readonly sources: {
    /** Whether `pageUrl` is under a `pageReports.sources` prefix of a workspace folder. */
    isDeclared(pageUrl: string): boolean;
    find(
      pageUrl: string,
    ): Promise<
      | { readonly kind: 'found'; readonly source: { readonly uri: vscode.Uri } }
      | { readonly kind: 'missing'; readonly tried: readonly string[] }
      | { readonly kind: 'unmapped' }
    >;
  };
}

export interface Parts {
  readonly context: vscode.ExtensionContext;
  readonly log: Log;
  readonly connection: ConnectionControls;
  readonly errors: ErrorReporter;
  readonly reportsView: ReportsViewApi;
  readonly projectsView: ProjectsViewApi;
  readonly panels: ReportPanelsApi;
  /** THE store of recent analyses (the previous analysis of re-analyzed reports). */
  readonly analyses: RecentAnalyses;
  readonly insights: InsightsPanelsApi;
  /** Findings in the code: diagnostics, hovers, Open Source. */
  readonly findings: FindingsApi;
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
 * What a report command accepts as its argument: a tree node, a report (the panel's own),
 * `{ id }` (another extension, a panel still loading), or a bare id. See `commands/refs.ts`.
 */
export type ReportArg = TreeNode | Report | { id: ReportId } | ReportId | undefined;
