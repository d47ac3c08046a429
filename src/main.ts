/**
 * Everything `activate` defers until first use (a command, a visible view, a panel coming back
 * after a reload, or a change of the connection's setting or secret): the log, the connection and
 * its client, the views' logic, the panels and the commands' implementations.
 */
import * as vscode from 'vscode';
import type { ServiceStatusBar } from './services/statusBar';
import { commandHandlers, uriHandler } from './commands/index';
import { Writes } from './commands/writes';
import { createAgentTools, type AgentTools } from './agent/tools';
import type { UriOutcome } from './commands/links';
import type { ConfirmOptions } from './ui/notify';
import { Connection } from './services/connection';
import { createErrorReporter } from './ui/errorReporter';
import { RecentAnalyses } from './stores/recentAnalyses';
import { RecentReports } from './stores/recentReports';
import { InsightsPanels } from './insights/panel';
import { Findings } from './findings/findings';
import { Log } from './log';
import { registerPanels, type ReportPanels } from './panels/register';
import type { Parts } from './parts';
import { registerViews, type RegisteredViews } from './views/register';
import type { TreeShells } from './views/shell';

/** The built parts, as `activate`'s thin handlers reach them. */
export interface Main extends vscode.Disposable {
  readonly views: RegisteredViews;
  readonly panels: ReportPanels;
  /** The language model tools' work (src/agent/), which `activate`'s registrations forward to. */
  readonly agentTools: AgentTools;
  /** Runs the command `id` (its failures are reported and resolve undefined). */
  run(id: string, args: unknown[]): Promise<unknown>;
  /** Handles a URI opened for the extension (`vscode://page-reports.page-reports/…`). */
  readonly handleUri: (uri: vscode.Uri, options?: ConfirmOptions) => Promise<UriOutcome>;
  /** Restores a report panel VS Code kept across a reload. */
  revive(panel: vscode.WebviewPanel, state: unknown): Promise<void>;
  /** Restores an insights panel VS Code kept across a reload. */
  reviveInsights(panel: vscode.WebviewPanel, state: unknown): Promise<void>;
}

/**
 * Builds the parts. Nothing here awaits the network: the connection reads its settings and
 * secret in the background and the views load when first shown.
 */
export function start(context: vscode.ExtensionContext, shells: TreeShells, statusBar: ServiceStatusBar): Main {
  const log = new Log();
  const connection = new Connection(context, log);
  log.redactWith((text) => connection.redact(text));
  // The status bar item (built by activate) shows what the connection learns.
  const showHealth = (): void => statusBar.setHealth(connection.health);
  const health = [
    connection.onDidChange(showHealth),
    connection.onDidChangeHealth(showHealth),
    // Remove Service: the label may drop the path that told two services on one origin apart.
    connection.onDidChangeServices(() => statusBar.update()),
  ];
  showHealth();
  const errors = createErrorReporter(log, connection);
  const recentReports = new RecentReports();
  // Another service or key may see other reports: what the lists brought in goes.
  const forgetListed = connection.onDidChange(() => recentReports.clear());
  // The views ask the findings, built below once the panels are, which pages map to a file.
  const built: { findings?: Findings } = {};
  const hasSource = (pageUrl: string): boolean => built.findings?.sources.isDeclared(pageUrl) ?? false;
  const views = registerViews({ context, log, connection, errors, recentReports, hasSource }, shells);
  const analyses = new RecentAnalyses(context.workspaceState);
  const panels = registerPanels({ context, log, connection, errors, analyses, recentReports });
  const insights = new InsightsPanels({ context, log, connection, errors, panels });
  const findings = new Findings({ log, connection, errors, panels });
  built.findings = findings;
  const parts: Parts = {
    context,
    log,
    connection,
    errors,
    reportsView: views.reportsView,
    projectsView: views.projectsView,
    panels,
    analyses,
    insights,
    findings,
  };
  // One in-flight guard for the commands' writes and the agent tools': one write at a time per report.
  const writes = new Writes(parts);
  const commands = commandHandlers(parts, writes);
  const agentTools = createAgentTools(parts, writes);
  const disposables: vscode.Disposable[] = [
    ...health,
    forgetListed,
    findings,
    insights,
    panels,
    views,
    errors,
    connection,
    log,
  ];
  return {
    views,
    panels,
    agentTools,
    async run(id, args) {
      const handler = commands.get(id);
      if (!handler) throw new Error(`No handler for the command ${id}.`);
      return handler(...args);
    },
    revive: (panel, state) => panels.revive(panel, state),
    handleUri: uriHandler(parts),
    reviveInsights: (panel, state) => insights.revive(panel, state),
    dispose() {
      for (const d of disposables.splice(0)) d.dispose();
    },
  };
}
