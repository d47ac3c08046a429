/**
 * Registers the language model tools at activation (VS Code lists a contributed tool only
 * while its extension has registered it), each a thin forwarder: `main.ts` and the tools'
 * work (`tools.ts`) load on a tool's first call, as they do on a command's first run.
 * Imports only `vscode`, `src/ids.ts` and types, as the activation entry's modules do.
 */
import * as vscode from 'vscode';
import { LmTool, TestHook, type LmToolName } from '../ids';
import type { AgentTools } from './tools';

/** Registers every tool of {@link LmTool}; `load` builds the tools on first use. */
export function registerAgentTools(context: vscode.ExtensionContext, load: () => AgentTools): vscode.Disposable {
  // VS Code before the language model API (or a host without it) has no tools to offer.
  if (typeof vscode.lm?.registerTool !== 'function') return { dispose() {} };
  const registrations = Object.values(LmTool).map((name: LmToolName) =>
    vscode.lm.registerTool<unknown>(name, {
      invoke: (options, token) => load().invoke(name, options.input, token),
      prepareInvocation: (options, token) => load().prepare(name, options.input, token),
    }),
  );
  // Under extension tests VS Code confirms a tool call without showing anything: the tests read
  // each write's confirmation here instead (only in the extension's test mode).
  const hook: Record<symbol, unknown> = globalThis;
  if (context.extensionMode === vscode.ExtensionMode.Test) {
    Object.defineProperty(hook, TestHook.agentTools, {
      configurable: true,
      get: () => ({
        prepare: (name: LmToolName, input: unknown) =>
          load().prepare(name, input, new vscode.CancellationTokenSource().token),
      }),
    });
  }
  return {
    dispose() {
      for (const registration of registrations) registration.dispose();
      delete hook[TestHook.agentTools];
    },
  };
}
