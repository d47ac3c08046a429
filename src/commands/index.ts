/**
 * The command table: every command id of package.json mapped to its handler, run
 * through one wrapper that logs failures and reports them to the user, so no command ever
 * ends in an unhandled rejection.
 */
import * as vscode from 'vscode';
import * as l10n from '@vscode/l10n';
import { switchService } from '../services/switchService';
import { openAccountPage, removeApiKey, setApiKey, setServiceUrl } from '../services/commands';
import { Command, WALKTHROUGH_ID, type CommandId } from '../ids';
import type { Parts } from '../parts';
import { escapeForMessage } from '../text/text';
import { offerCommand } from '../ui/notify';
import * as views from '../views/commands';
import { showInsights } from '../insights/command';
import { reportExportCommands } from './exports';
import { linkCommands } from './links';
import { reportOpenCommands } from './open';
import { createReport, createReportArgs } from './create';
import { deleteReports } from './delete';
import { deleteProject } from './deleteProject';
import { changePrivacy, privacyArgs } from './privacy';
import { reanalyze } from './reanalyze';
import { confirmOf, writeArgs, type Writes } from './writes';
import { askAgentToFixCommand } from './askAgent';
import { openSource } from './openSource';

type Handler = (...args: unknown[]) => unknown;

/** Builds the table, keyed by the command ids of src/ids.ts (`Record<CommandId, …>`: every id has a handler). */
function commandTable(parts: Parts, writes: Writes): Record<CommandId, Handler> {
  const reading = reportOpenCommands(parts);
  const exports = reportExportCommands(parts);
  const links = linkCommands(parts);
  const onPanel = activePanelFallback(parts);
  return {
    // Connection
    [Command.setServiceUrl]: (url) => setServiceUrl(parts, url),
    [Command.setApiKey]: (key) => setApiKey(parts, key),
    [Command.removeApiKey]: (options) => removeApiKey(parts, options),
    [Command.switchService]: (arg) => switchService(parts, arg),
    [Command.showLog]: () => parts.log.show(),
    [Command.getStarted]: () =>
      vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH_ID, false),
    [Command.openAccountPage]: () => openAccountPage(parts),

    // Projects view (src/views/commands.ts)
    [Command.searchProjects]: (text) => views.searchProjects(parts, text),
    [Command.sortProjects]: (sort) => views.sortProjects(parts, sort),
    [Command.clearProjectSearch]: () => parts.projectsView.clearSearch(),
    [Command.refreshProjects]: () => refreshWithFindings(parts, parts.projectsView.refresh()), // page 1 again, expansion kept
    [Command.showProjectInReports]: (item) => views.showProjectInReports(parts, item),
    [Command.deleteProject]: (item, ...rest) => deleteProject(writes, item, confirmOf(...rest)),

    // Reports view (src/views/commands.ts)
    [Command.filterReports]: (filter) => views.filterReports(parts, filter),
    [Command.sortReports]: (sort) => views.sortReports(parts, sort),
    [Command.clearReportFilters]: () => parts.reportsView.clearFilters(), // the sort stays
    [Command.refreshReports]: () => refreshWithFindings(parts, parts.reportsView.refresh()), // page 1 again
    [Command.loadMore]: (item) => views.loadMore(parts, item),
    [Command.retry]: (item) => views.retry(parts, item),

    // Reports: reading
    [Command.openReport]: reading.openReport,
    [Command.openReportPage]: reading.openPage,
    [Command.openReportOnService]: onPanel(reading.openOnService),
    [Command.copyReportUrl]: reading.copyUrl,

    // Reports: writing
    [Command.createReport]: (arg) => createReport(writes, createReportArgs(arg)),
    [Command.reanalyzeReport]: onPanel((...args) => reanalyze(writes, writeArgs(...args))),
    [Command.changeReportPrivacy]: onPanel((item, second) => changePrivacy(writes, item, privacyArgs(second))),
    [Command.deleteReport]: onPanel((...args) => deleteReports(writes, writeArgs(...args))),

    // Insights (src/insights/)
    [Command.showInsights]: (arg) => showInsights(parts, arg),
    [Command.showAllInsights]: () => parts.insights.open(null),

    // Developer workflow: links and exports
    [Command.copyReportLink]: onPanel(links.copyLink),
    [Command.copyReportMarkdown]: onPanel(exports.copyMarkdown),
    [Command.exportReportJson]: onPanel(exports.exportJson),
    // The first argument only: the second of exportCsv is its own Retry's progress.
    [Command.exportReportsCsv]: (args) => exports.exportCsv(args),
    [Command.analyzeUrl]: () => links.analyzeUrl(),

    // Agents (src/agent/)
    [Command.askAgentToFix]: onPanel((arg) => askAgentToFixCommand(parts, arg)),
    // Findings in the code (src/findings/)
    [Command.openSource]: onPanel((item) => openSource(parts, item)),
  };
}

/** Refresh in a view reloads the findings in the code too: their reports may have changed with the list. */
async function refreshWithFindings(parts: Parts, view: Promise<void>): Promise<void> {
  await Promise.all([view, parts.findings.refresh()]);
}

/**
 * VS Code passes no report to commands in the report panel's title bar, so a call without one
 * acts on the active panel's report. A panel of another service is refused: the same id on
 * the current service is another report.
 */
function activePanelFallback(parts: Parts): (handler: Handler) => Handler {
  return (handler) =>
    (...args: unknown[]) => {
      const [first] = args;
      const noReport = first === undefined || first instanceof vscode.Uri;
      const active = noReport ? parts.panels.activeReport() : undefined;
      if (active === undefined) return handler(...args);
      if (active.foreignService !== undefined) return refuseForeign(active.foreignService, active.serviceUrl);
      return handler(parts.panels.current(active.id) ?? { id: active.id });
    };
}

/** Says that the active panel's report belongs to another service, with Switch Back to it. */
function refuseForeign(service: string, serviceUrl: string | undefined): void {
  const message = l10n.t(
    'This report belongs to {0}. Switch back to that service to act on it.',
    escapeForMessage(service),
  );
  offerCommand(vscode.window.showWarningMessage, message, l10n.t('Switch Back'), Command.switchService, {
    switchBack: serviceUrl,
  });
}

/** The URI handler's work (`activate` registers the handler and forwards here). */
export function uriHandler(parts: Parts): ReturnType<typeof linkCommands>['handleUri'] {
  return linkCommands(parts).handleUri;
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
export function commandHandlers(parts: Parts, writes: Writes): ReadonlyMap<string, Handler> {
  return new Map(Object.entries(commandTable(parts, writes)).map(([id, handler]) => [id, wrap(parts, id, handler)]));
}
