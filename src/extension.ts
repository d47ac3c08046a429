import * as vscode from 'vscode';
import { Log } from './log';
import { createConnection } from './connection/connection';
import { createErrorReporter } from './connection/errorReporter';
import { registerViews } from './views/register';
import { registerPanels } from './panels/register';
import { registerCommands } from './commands/index';
import type { Parts } from './parts';

/**
 * Builds the parts and registers them. Nothing here awaits the network: the connection
 * reads its settings and secret in the background and the views load when first shown.
 */
export function activate(context: vscode.ExtensionContext): void {
  const log = new Log();
  context.subscriptions.push(log);
  const connection = createConnection(context, log);
  context.subscriptions.push(connection);
  const errors = createErrorReporter(log, connection);
  const views = registerViews({ context, log, connection, errors });
  context.subscriptions.push(views);
  const panels = registerPanels({ context, log, connection, errors });
  context.subscriptions.push(panels);
  const parts: Parts = {
    context,
    log,
    connection,
    errors,
    reportsView: views.reportsView,
    projectsView: views.projectsView,
    panels: panels.panels,
  };
  context.subscriptions.push(registerCommands(parts));
}

export function deactivate(): void {
  // Everything is in context.subscriptions.
}
