/**
 * Every public or persisted name the extension uses: command ids, view ids, context keys,
 * setting ids, global and workspace state keys, the secret key prefix, webview types and the
 * test hooks. Nothing else in src spells them out, so `grep` for an id lands here, and
 * test/unit/ids.test.ts checks that the commands, views and settings agree with package.json.
 *
 * Constants only (no state): both dist/extension.js and dist/main.js hold a copy.
 */

/** The extension's id (publisher.name): the authority of its URIs. */
export const EXTENSION_ID = 'page-reports.page-reports';

/** The settings section, the view container's id and the prefix of every id below. */
export const SECTION = 'pageReports';

/** Every command of package.json `contributes.commands`; the command table is keyed by these. */
export const Command = {
  // Connection
  setServiceUrl: 'pageReports.setServiceUrl',
  setApiKey: 'pageReports.setApiKey',
  removeApiKey: 'pageReports.removeApiKey',
  switchService: 'pageReports.switchService',
  showLog: 'pageReports.showLog',
  openAccountPage: 'pageReports.openAccountPage',
  // Projects view
  searchProjects: 'pageReports.searchProjects',
  sortProjects: 'pageReports.sortProjects',
  clearProjectSearch: 'pageReports.clearProjectSearch',
  refreshProjects: 'pageReports.refreshProjects',
  showProjectInReports: 'pageReports.showProjectInReports',
  deleteProject: 'pageReports.deleteProject',
  // Reports view
  filterReports: 'pageReports.filterReports',
  sortReports: 'pageReports.sortReports',
  clearReportFilters: 'pageReports.clearReportFilters',
  refreshReports: 'pageReports.refreshReports',
  loadMore: 'pageReports.loadMore',
  retry: 'pageReports.retry',
  // Reports: reading
  openReport: 'pageReports.openReport',
  openReportPage: 'pageReports.openReportPage',
  openReportOnService: 'pageReports.openReportOnService',
  copyReportUrl: 'pageReports.copyReportUrl',
  // Reports: writing
  createReport: 'pageReports.createReport',
  reanalyzeReport: 'pageReports.reanalyzeReport',
  changeReportPrivacy: 'pageReports.changeReportPrivacy',
  deleteReport: 'pageReports.deleteReport',
  // Insights
  showInsights: 'pageReports.showInsights',
  showAllInsights: 'pageReports.showAllInsights',
  // Developer workflow: links and exports
  copyReportLink: 'pageReports.copyReportLink',
  copyReportMarkdown: 'pageReports.copyReportMarkdown',
  exportReportJson: 'pageReports.exportReportJson',
  exportReportsCsv: 'pageReports.exportReportsCsv',
  analyzeUrl: 'pageReports.analyzeUrl',
} as const;

/** A command id of package.json. */
export type CommandId = (typeof Command)[keyof typeof Command];

/** The tree views of package.json `contributes.views` (in the {@link SECTION} container). */
export const View = {
  projects: 'pageReports.projects',
  reports: 'pageReports.reports',
} as const;

/** The command VS Code adds for every view, which shows and focuses it. */
export function focusViewCommand(view: (typeof View)[keyof typeof View]): string {
  return `${view}.focus`;
}

/** Context keys the `when` clauses of package.json read. */
export const ContextKey = {
  /** The connection's state (`noUrl`, `noKey`, `ready`, …): the welcome views and menus. */
  state: 'pageReports.state',
  /** A filter narrows the Reports view: its title bar shows Clear Filters. */
  reportsFiltered: 'pageReports.reports.filtered',
  /** A search narrows the Projects view: its title bar shows Clear Search. */
  projectsSearching: 'pageReports.projects.searching',
  /**
   * The active report panel cannot act (its report deleted, or another service's): its title
   * bar leaves out the actions its own toolbar has off.
   */
  reportActionsOff: 'pageReports.report.actionsOff',
} as const;

/**
 * The settings of package.json `contributes.configuration`, as full ids: read them with
 * `vscode.workspace.getConfiguration().get(Setting.x)` and test changes with
 * `affectsConfiguration(Setting.x)`.
 */
export const Setting = {
  serviceUrl: 'pageReports.serviceUrl',
  pageSize: 'pageReports.pageSize',
  requestTimeout: 'pageReports.requestTimeout',
  reportPageUrl: 'pageReports.reportPageUrl',
  accountPageUrl: 'pageReports.accountPageUrl',
  autoRefresh: 'pageReports.autoRefresh',
  insightsLimit: 'pageReports.insightsLimit',
  statusBar: 'pageReports.statusBar',
} as const;

/** Keys of `ExtensionContext.globalState` (shared by every window). */
export const GlobalStateKey = {
  /** The connection state last worked out, and for which setting (src/activation/stateNote.ts). */
  stateNote: 'pageReports.stateNote',
  /** Origins the user allowed plain http for. */
  insecureOriginsAllowed: 'pageReports.insecureOriginsAllowed',
  /** Services used before (Switch Service…). */
  knownServices: 'pageReports.knownServices',
  /** Origins with an API key in SecretStorage (SecretStorage cannot list its keys). */
  originsWithKey: 'pageReports.originsWithKey',
  /** The folder of the last export: the next save dialog opens there (src/commands/exports.ts). */
  lastExportFolder: 'pageReports.lastExportFolder',
} as const;

/** Keys of `ExtensionContext.workspaceState` (this workspace only). */
export const WorkspaceStateKey = {
  reportsQuery: 'pageReports.reports.query',
  projectsQuery: 'pageReports.projects.query',
  /** The analysis before each of the last re-analyses, per origin, for "Since the previous analysis" (src/common/recentAnalyses.ts). */
  recentAnalyses: 'pageReports.recentAnalyses',
} as const;

/** The SecretStorage key of an origin's API key is this prefix and the origin. */
export const SECRET_KEY_PREFIX = 'pageReports.apiKey:';

/** Webview panel types (the serializers' and `onWebviewPanel:` activation events' ids). */
export const WebviewType = {
  report: 'pageReports.report',
  insights: 'pageReports.insights',
} as const;

/** The status bar item's id (its entry in the status bar's context menu). */
export const STATUS_BAR_ITEM_ID = 'pageReports.service';

/** Colours the extension contributes (`contributes.colors`); a theme or the user can set them. */
export const ThemeColorId = {
  /** A good report's icon in the views: the Testing view's pass colour is too pale in light themes. */
  resultGood: 'pageReports.resultGood',
  /** A decent report's icon: the Problems view's warning colour is 2.9:1 against a light sidebar. */
  resultDecent: 'pageReports.resultDecent',
} as const;

/**
 * Where the extension publishes its parts on `globalThis` in `ExtensionMode.Test` only, for the
 * integration tests (`Symbol.for`, so the tests find them without importing the bundle).
 */
export const TestHook = {
  views: Symbol.for('pageReports.views'),
  handleUri: Symbol.for('pageReports.handleUri'),
  accounts: Symbol.for('pageReports.accounts'),
  insights: Symbol.for('pageReports.insights.testHook'),
} as const;

/** The authentication provider's id (package.json `contributes.authentication`). */
export const AUTH_PROVIDER_ID = 'pageReports';
