/**
 * Activation does the least it can: it registers every command id with a thin handler, creates both
 * tree views with thin providers, registers the panels' serializers, the URI handler and the
 * Accounts provider, and sets the connection's context key from the note the connection keeps.
 * `start` (`main.ts`: the connection and its client, the views' logic, the panels, the commands'
 * implementations) runs on first use, in the same bundle: a command, a visible view asking for its
 * children, a panel coming back, or a change of the service URL setting or a stored key.
 */
import * as vscode from 'vscode';
import { keyCreator, registerAuthProvider } from './services/authProvider';
import { createTreeShells } from './views/shell';
import { notedState, rawServiceUrl } from './services/stateNote';
import { ServiceStatusBar } from './services/statusBar';
import { start, type Main } from './main';
import { registerAgentTools } from './agent/register';
import { Command, ContextKey, Setting, TestHook, WebviewType } from './ids';

export function activate(context: vscode.ExtensionContext): void {
  let main: Main | undefined;
  let disposed = false;
  const load = (): Main => {
    if (main) return main;
    if (disposed) throw new Error('Page Reports is deactivated.');
    main = start(context, shells, statusBar);
    return main;
  };
  const subscriptions = context.subscriptions;
  // Disposed first: the views let go of the tree views before those go.
  subscriptions.push({
    dispose() {
      disposed = true;
      clearTimeout(timer);
      main?.dispose();
      main = undefined;
    },
  });
  const shells = createTreeShells(load);
  subscriptions.push(shells.reports, shells.projects);

  // The Accounts menu lists the sessions only once the provider is registered, so this is done
  // here (the extension also activates on onStartupFinished): it reads SecretStorage and global
  // state on demand, never the network, and starts the rest only for Set API Key….
  const statusBar = new ServiceStatusBar(context);
  const auth = registerAuthProvider(
    context,
    keyCreator(() => load().run(Command.setApiKey, [])),
  );
  subscriptions.push(statusBar, auth);
  // The language model tools (src/agent/): registered now, built with main.ts on first call.
  subscriptions.push(registerAgentTools(context, () => load().agentTools));

  for (const command of Object.values(Command)) {
    subscriptions.push(vscode.commands.registerCommand(command, (...args: unknown[]) => load().run(command, args)));
  }
  subscriptions.push(
    vscode.window.registerWebviewPanelSerializer(WebviewType.report, {
      deserializeWebviewPanel: (panel, state: unknown) => load().revive(panel, state),
    }),
    vscode.window.registerWebviewPanelSerializer(WebviewType.insights, {
      deserializeWebviewPanel: (panel, state: unknown) => load().reviveInsights(panel, state),
    }),
    // A new URL, or a key stored or removed in another window, changes the state: the
    // connection works it out (and then follows these changes itself).
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!main && (e.affectsConfiguration(Setting.serviceUrl) || e.affectsConfiguration(Setting.sources))) load();
    }),
    context.secrets.onDidChange(() => {
      if (!main) load();
    }),
  );

  // Links into the editor (activation event onUri): the handler loads the rest on first use.
  // Registered after the serializer, and never allowed to stop activation: a window that
  // cannot take links still restores its panels.
  try {
    subscriptions.push(
      vscode.window.registerUriHandler({
        handleUri: async (uri) => {
          await load().handleUri(uri);
        },
      }),
    );
  } catch (e) {
    console.warn(
      `Page Reports: links cannot be handled in this window (${e instanceof Error ? e.message : String(e)}).`,
    );
  }

  const state = notedState(
    context.globalState,
    rawServiceUrl(vscode.workspace.getConfiguration().get<string>(Setting.serviceUrl)),
  );
  // Without a note for this setting (first start, or the setting changed while the extension
  // was not running) the connection works the state out right after activation.
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (state) void vscode.commands.executeCommand('setContext', ContextKey.state, state);
  // A workspace that maps pages to its files (findings in the code) wants its diagnostics at once.
  if (!state || mapsPagesToFiles()) timer = setTimeout(() => (disposed ? undefined : load()), 0);

  // Integration tests read the views' providers; only in the extension's test mode.
  if (context.extensionMode === vscode.ExtensionMode.Test) {
    const hook: Record<symbol, unknown> = globalThis;
    Object.defineProperty(hook, TestHook.views, { configurable: true, get: () => load().views });
    // The web workbench has no handler for vscode:// links from outside: tests call this one.
    Object.defineProperty(hook, TestHook.handleUri, { configurable: true, get: () => load().handleUri });
    // The accounts tests read the provider, the status bar and the panels the same way.
    Object.defineProperty(hook, TestHook.accounts, {
      configurable: true,
      get: () => ({
        provider: auth.provider,
        statusBar,
        panels: load().panels,
        secrets: context.secrets,
        globalState: context.globalState,
      }),
    });
    subscriptions.push({
      dispose: () => {
        delete hook[TestHook.views];
        delete hook[TestHook.handleUri];
        delete hook[TestHook.accounts];
      },
    });
  }
}

/** Whether a workspace folder sets `pageReports.sources` (checked without loading main.ts). */
function mapsPagesToFiles(): boolean {
  return (vscode.workspace.workspaceFolders ?? []).some((folder) => {
    const sources = vscode.workspace.getConfiguration(undefined, folder.uri).get<unknown>(Setting.sources);
    return Array.isArray(sources) && sources.length > 0;
  });
}

export function deactivate(): void {
  // Everything is in context.subscriptions.
}
