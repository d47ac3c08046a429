/**
 * Everything `activate` defers until first use (a command, a visible view, a panel coming
 * back after a reload, or a change of the connection's setting or secret): the log, the
 * connection and its client, the views' logic, the panels and the commands' implementations.
 * `extension.ts` requires this module then and builds the parts once.
 */
import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import { commandHandlers } from './commands/index';
import { createConnection } from './connection/connection';
import { createErrorReporter } from './connection/errorReporter';
import { Log } from './log';
import { registerPanels } from './panels/register';
import type { Parts } from './parts';
import { registerViews, type RegisteredViews } from './views/register';
import type { TreeShells } from './views/shell';

/** The built parts, as `activate`'s thin handlers reach them. */
export interface Main extends vscode.Disposable {
  readonly views: RegisteredViews;
  /** Runs the command `id` (its failures are reported and resolve undefined). */
  run(id: string, args: unknown[]): Promise<unknown>;
  /** Restores a report panel VS Code kept across a reload. */
  revive(panel: vscode.WebviewPanel, state: unknown): Promise<void>;
}

/**
 * Builds the parts. Nothing here awaits the network: the connection reads its settings and
 * secret in the background and the views load when first shown.
 */
export function start(context: vscode.ExtensionContext, shells: TreeShells): Main {
  // The vscode-free modules (error sentences, the views' words) translate with `@vscode/l10n`:
  // give it the bundle VS Code loaded for the display language (none in English).
  if (vscode.l10n.bundle) l10n.config({ contents: vscode.l10n.bundle });
  const log = new Log();
  const connection = createConnection(context, log);
  const errors = createErrorReporter(log, connection);
  const views = registerViews({ context, log, connection, errors }, shells);
  const panels = registerPanels({ context, log, connection, errors });
  const parts: Parts = {
    context,
    log,
    connection,
    errors,
    reportsView: views.reportsView,
    projectsView: views.projectsView,
    panels: panels.panels,
  };
  const commands = commandHandlers(parts);
  const disposables: vscode.Disposable[] = [commands, panels, views, connection, log];
  return {
    views,
    async run(id, args) {
      const handler = commands.handlers.get(id);
      if (!handler) throw new Error(`No handler for the command ${id}.`);
      return handler(...args);
    },
    revive: (panel, state) => panels.panels.revive(panel, state),
    dispose() {
      for (const d of disposables.splice(0)) d.dispose();
    },
  };
}
