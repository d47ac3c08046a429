/**
 * The command table: every command id of package.json mapped to its handler, run
 * through one wrapper that logs failures and reports them to the user, so no command ever
 * ends in an unhandled rejection.
 */
import * as vscode from 'vscode';
import { switchService } from '../accounts/switchService';
import { removeApiKey, setApiKey, setServiceUrl } from '../connection/commands';
import { hasNotFoundEvent } from '../connection/errorReporter';
import type { Parts } from '../parts';
import * as views from '../views/commands';
import { showAllInsights, showInsights } from '../insights/command';
import { reportExportCommands } from './exports';
import { linkCommands } from './links';
import { reportOpenCommands } from './open';
import { projectWriteCommands } from './projects';
import { reportWriteCommands } from './reports';

type Handler = (...args: unknown[]) => unknown;

/** Every command id is `pageReports.` and the table's key. */
const PREFIX = 'pageReports.';

/**
 * Builds the table, keyed by the ids without {@link PREFIX}. Arguments are what menus, the
 * panel, tests or other extensions pass; the writes and reading commands take them as they
 * come (each handler's parameters are the command's arguments).
 */
function commandTable(parts: Parts): Record<string, Handler> {
  const writes = reportWriteCommands(parts);
  const reading = reportOpenCommands(parts);
  const exports = reportExportCommands(parts);
  const links = linkCommands(parts);
  const onPanel = activePanelFallback(parts);
  return {
    // Connection
    setServiceUrl: (url) => setServiceUrl(parts, url),
    setApiKey: (key) => setApiKey(parts, key),
    removeApiKey: (options) => removeApiKey(parts, options),
    switchService: (arg) => switchService(parts, arg),
    showLog: () => parts.log.show(),

    // Projects view (src/views/commands.ts)
    searchProjects: (text) => views.searchProjects(parts, text),
    sortProjects: (sort) => views.sortProjects(parts, sort),
    clearProjectSearch: () => views.clearProjectSearch(parts),
    refreshProjects: () => views.refreshProjects(parts),
    showProjectInReports: (item) => views.showProjectInReports(parts, item),
    deleteProject: projectWriteCommands(parts).deleteProject,

    // Reports view (src/views/commands.ts)
    filterReports: (filter) => views.filterReports(parts, filter),
    sortReports: (sort) => views.sortReports(parts, sort),
    clearReportFilters: () => views.clearReportFilters(parts),
    refreshReports: () => views.refreshReports(parts),
    loadMore: (item) => views.loadMore(parts, item),
    retry: (item) => views.retry(parts, item),

    // Reports: reading
    openReport: reading.openReport,
    openReportPage: reading.openPage,
    openReportOnService: onPanel(reading.openOnService),
    copyReportUrl: reading.copyUrl,

    // Reports: writing
    createReport: writes.createReport,
    reanalyzeReport: onPanel(writes.reanalyze),
    changeReportPrivacy: onPanel(writes.changePrivacy),
    deleteReport: onPanel(writes.deleteReports),

    // Insights (src/insights/)
    showInsights: (arg) => showInsights(parts, arg),
    showAllInsights: () => showAllInsights(parts),

    // Developer workflow: links and exports
    copyReportLink: onPanel(links.copyLink),
    copyReportMarkdown: onPanel(exports.copyMarkdown),
    exportReportJson: onPanel(exports.exportJson),
    exportReportsCsv: exports.exportCsv,
    analyzeUrl: () => links.analyzeUrl(),
  };
}

/**
 * For commands in the report panel's title bar: VS Code passes no report there (at most the
 * panel's own resource URI and an editor context), so a call without a report argument while a
 * report panel is the active editor acts on that panel's report. Anything else passes through.
 */
function activePanelFallback(parts: Parts): (handler: Handler) => Handler {
  return (handler) =>
    (...args: unknown[]) => {
      const [first] = args;
      const noReport = first === undefined || first instanceof vscode.Uri;
      const active = noReport ? parts.panels.activeReportId() : undefined;
      return active === undefined ? handler(...args) : handler({ id: active });
    };
}

/** The URI handler's work (`activate` registers the handler and forwards here). */
export function uriHandler(parts: Parts): ReturnType<typeof linkCommands>['handleUri'] {
  return linkCommands(parts).handleUri;
}

/** Ids in the table and not in the manifest, and the other way round. */
export function compareWithManifest(
  tableIds: readonly string[],
  manifestIds: readonly string[],
): { missing: string[]; extra: string[] } {
  return {
    missing: manifestIds.filter((id) => !tableIds.includes(id)),
    extra: tableIds.filter((id) => !manifestIds.includes(id)),
  };
}

function manifestCommandIds(context: vscode.ExtensionContext): string[] {
  const contributes = (context.extension.packageJSON as { contributes?: { commands?: { command?: unknown }[] } })
    .contributes;
  return (contributes?.commands ?? []).map((c) => c.command).filter((c): c is string => typeof c === 'string');
}

/** Runs a handler; a failure is logged and reported once, and the command resolves undefined. */
function wrap(parts: Parts, id: string, handler: Handler): Handler {
  return async (...args: unknown[]) => {
    try {
      return await handler(...args);
    } catch (e) {
      parts.log.warn(`Command ${id} failed.`);
      parts.errors.report(e);
      return undefined;
    }
  };
}

/** Every command's handler, wrapped, by id; `activate` registered the ids and forwards to these. */
export interface CommandHandlers extends vscode.Disposable {
  readonly handlers: ReadonlyMap<string, Handler>;
}

/**
 * Builds every command of the table. Outside production, a table that differs from
 * package.json is logged as an error (the integration tests check it too).
 */
export function commandHandlers(parts: Parts): CommandHandlers {
  const table = Object.entries(commandTable(parts)).map(([key, handler]) => [PREFIX + key, handler] as const);
  if (parts.context.extensionMode !== vscode.ExtensionMode.Production) {
    const { missing, extra } = compareWithManifest(
      table.map(([id]) => id),
      manifestCommandIds(parts.context),
    );
    if (missing.length > 0) parts.log.error(`Commands without a handler: ${missing.join(', ')}`);
    if (extra.length > 0) parts.log.error(`Handlers without a command in package.json: ${extra.join(', ')}`);
  }
  const handlers = new Map(table.map(([id, handler]) => [id, wrap(parts, id, handler)]));
  return {
    handlers,
    // The views refresh on the reporter's onNotFound themselves (views/register.ts). The
    // reporter is a Disposable nothing else holds: it goes with the commands.
    dispose: () => {
      if (hasNotFoundEvent(parts.errors)) parts.errors.dispose();
    },
  };
}
