/**
 * The command table: every command id of package.json mapped to its handler, run
 * through one wrapper that logs failures and reports them to the user, so no command ever
 * ends in an unhandled rejection.
 */
import * as vscode from 'vscode';
import { removeApiKey, setApiKey, setServiceUrl } from '../connection/commands';
import { hasNotFoundEvent } from '../connection/errorReporter';
import type { Parts } from '../parts';
import * as views from '../views/commands';
import { reportOpenCommands } from './open';
import { projectWriteCommands } from './projects';
import { reportWriteCommands } from './reports';

type Handler = (...args: unknown[]) => unknown;

/** Builds the table. Arguments are what menus, the panel, tests or other extensions pass. */
function commandTable(parts: Parts): Record<string, Handler> {
  const writes = reportWriteCommands(parts);
  const reading = reportOpenCommands(parts);
  const projects = projectWriteCommands(parts);
  return {
    // Connection
    'pageReports.setServiceUrl': (url) => setServiceUrl(parts, url),
    'pageReports.setApiKey': (key) => setApiKey(parts, key),
    'pageReports.removeApiKey': (options) => removeApiKey(parts, options),
    'pageReports.showLog': () => parts.log.show(),

    // Projects view (src/views/commands.ts)
    'pageReports.searchProjects': (text) => views.searchProjects(parts, text),
    'pageReports.sortProjects': (sort) => views.sortProjects(parts, sort),
    'pageReports.clearProjectSearch': () => views.clearProjectSearch(parts),
    'pageReports.refreshProjects': () => views.refreshProjects(parts),
    'pageReports.showProjectInReports': (item) => views.showProjectInReports(parts, item),
    'pageReports.deleteProject': (item, second, third) => projects.deleteProject(item, second, third),

    // Reports view (src/views/commands.ts)
    'pageReports.filterReports': (filter) => views.filterReports(parts, filter),
    'pageReports.sortReports': (sort) => views.sortReports(parts, sort),
    'pageReports.clearReportFilters': () => views.clearReportFilters(parts),
    'pageReports.refreshReports': () => views.refreshReports(parts),
    'pageReports.loadMore': (item) => views.loadMore(parts, item),
    'pageReports.retry': (item) => views.retry(parts, item),

    // Reports: reading
    'pageReports.openReport': (item, selected) => reading.openReport(item, selected),
    'pageReports.openReportPage': (item, selected) => reading.openPage(item, selected),
    'pageReports.openReportOnService': (item, selected) => reading.openOnService(item, selected),
    'pageReports.copyReportUrl': (item, selected) => reading.copyUrl(item, selected),

    // Reports: writing
    'pageReports.createReport': (args) => writes.createReport(args),
    'pageReports.reanalyzeReport': (item, selected, options) => writes.reanalyze(item, selected, options),
    'pageReports.changeReportPrivacy': (item, second) => writes.changePrivacy(item, second),
    'pageReports.deleteReport': (item, selected, options) => writes.deleteReports(item, selected, options),
  };
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
  const table = commandTable(parts);
  if (parts.context.extensionMode !== vscode.ExtensionMode.Production) {
    const { missing, extra } = compareWithManifest(Object.keys(table), manifestCommandIds(parts.context));
    if (missing.length > 0) parts.log.error(`Commands without a handler: ${missing.join(', ')}`);
    if (extra.length > 0) parts.log.error(`Handlers without a command in package.json: ${extra.join(', ')}`);
  }
  const handlers = new Map(Object.entries(table).map(([id, handler]) => [id, wrap(parts, id, handler)]));
  return {
    handlers,
    // The views refresh on the reporter's onNotFound themselves (views/register.ts). The
    // reporter is a Disposable nothing else holds: it goes with the commands.
    dispose: () => {
      if (hasNotFoundEvent(parts.errors)) parts.errors.dispose();
    },
  };
}
