/**
 * Every public or persisted name the extension uses: command ids, view ids, context keys,
 * setting ids, global and workspace state keys, the secret key prefix, webview types and the
 * test hooks. Nothing else in src spells them out, so `grep` for an id lands here, and
 * test/unit/ids.test.ts checks that the commands, views and settings agree with package.json.
 */

/** The extension's id (publisher.name): the authority of its URIs. */
export const EXTENSION_ID = 'page-reports.page-reports';

/** The walkthrough of package.json `contributes.walkthroughs`, as `workbench.action.openWalkthrough` takes it. */
export const WALKTHROUGH_ID = `${EXTENSION_ID}#pageReports.gettingStarted`;

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
  getStarted: 'pageReports.getStarted',
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
  // Agents (src/agent/)
  askAgentToFix: 'pageReports.askAgentToFix',
  // Findings in the code (src/findings/)
  openSource: 'pageReports.openSource',
} as const;

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
  /** Some workspace folder maps pages to files (`pageReports.sources`): report items offer Open Source. */
  sourcesMapped: 'pageReports.sources.mapped',
  /** The active report panel's page is under a `pageReports.sources` prefix: its title bar offers Open Source. */
  reportHasSource: 'pageReports.report.hasSource',
} as const;

/**
 * The settings of package.json `contributes.configuration`, as full ids: read them with
 * `vscode.workspace.getConfiguration().get(Setting.x)` and test changes with `affectsConfiguration(Setting.x)`.
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
  sources: 'pageReports.sources',
  hovers: 'pageReports.hovers',
} as const;

/** Keys of `ExtensionContext.globalState` (shared by every window). */
export const GlobalStateKey = {
  /** The connection state last worked out, and for which setting (src/services/stateNote.ts). */
  stateNote: 'pageReports.stateNote',
  /** Origins the user allowed plain http for. */
  insecureOriginsAllowed: 'pageReports.insecureOriginsAllowed',
  /** Services used before (Switch Service…). */
  knownServices: 'pageReports.knownServices',
  /** Origins with an API key in SecretStorage (SecretStorage cannot list its keys). */
  originsWithKey: 'pageReports.originsWithKey',
  /** The folder of the last export: the next save dialog opens there (src/commands/exports.ts). */
  lastExportFolder: 'pageReports.lastExportFolder',
  /** Which window wrote global state last, and its how-manyth write (src/stores/globalMemento.ts). */
  writeStamp: 'pageReports.writeStamp',
} as const;

/** Keys of `ExtensionContext.workspaceState` (this workspace only). */
export const WorkspaceStateKey = {
  reportsQuery: 'pageReports.reports.query',
  projectsQuery: 'pageReports.projects.query',
  /** The analysis before each of the last re-analyses, per origin, for "Since the previous analysis" (src/stores/recentAnalyses.ts). */
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
  /** A decent report's colour: amber, apart from the warnings' yellow (olive in light themes, near Good's green). */
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
  /** `{ cancel() }`: presses Cancel on the running bulk write (integration tests cannot reach its notification). */
  batch: Symbol.for('pageReports.batch.testHook'),
  /** The agent tools' `prepareInvocation`, which VS Code calls without showing anything under tests. */
  agentTools: Symbol.for('pageReports.agentTools'),
  findings: Symbol.for('pageReports.findings.testHook'),
} as const;

/**
 * The language model tools of package.json `contributes.languageModelTools` (src/agent/): public
 * names agents and prompts (`#pageReports_getReport`) use, so they never change.
 */
export const LmTool = {
  findReports: 'pageReports_findReports',
  getReport: 'pageReports_getReport',
  getInsights: 'pageReports_getInsights',
  reanalyzeReport: 'pageReports_reanalyzeReport',
  createReport: 'pageReports_createReport',
} as const;

export type LmToolName = (typeof LmTool)[keyof typeof LmTool];

/** The authentication provider's id (package.json `contributes.authentication`). */
export const AUTH_PROVIDER_ID = 'pageReports';
