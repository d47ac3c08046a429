/**
 * Ask Agent to Fix (`pageReports.askAgentToFix`): opens the chat in agent mode with a prompt that
 * names the report and its page (askAgentPrompt.ts), filled in but not sent, so the user reads it first.
 */
import * as vscode from 'vscode';
import * as l10n from '@vscode/l10n';
import type { Report } from '../api/types';
import { reportRef } from '../ui/commandArgs';
import { isRecord } from '../text/guards';
import { pickReport } from './refs';
import type { Parts } from '../parts';
import { requireApi } from '../ui/notify';
import { agentFixPrompt, type FixTarget } from './askAgentPrompt';

/** The workbench command that opens the chat view with a query. */
const OPEN_CHAT = 'workbench.action.chat.open';

/** Opens the chat in agent mode with the prompt for `target` in its input, not sent. Resolves the prompt. */
export async function askAgentToFix(target: FixTarget): Promise<string> {
  const query = agentFixPrompt(target);
  try {
    await vscode.commands.executeCommand(OPEN_CHAT, { mode: 'agent', query, isPartialQuery: true });
  } catch {
    // No chat in this editor (the menus hide the command there; a keybinding or another extension may not).
    void vscode.window.showInformationMessage(l10n.t('This editor has no chat to ask an agent in.'));
  }
  return query;
}

/**
 * The report `arg` names and its page: what the other report commands accept (a tree node, a
 * report, `{ id }`, an id), plus `{ id, url }` and `{ id, report }`.
 */
export function fixTargetOf(arg: unknown): FixTarget | undefined {
  const ref = reportRef(arg);
  if (ref === undefined) return undefined;
  const url =
    ref.report?.url ??
    (isRecord(arg) && typeof arg.url === 'string'
      ? arg.url
      : isRecord(arg) && isRecord(arg.report) && typeof arg.report.url === 'string'
        ? arg.report.url
        : undefined);
  return url === undefined ? { id: ref.id } : { id: ref.id, url };
}

/**
 * The command: the report of its argument (or the one the user picks), its page looked up
 * when only the id came (an open panel's report, else the service's), then {@link askAgentToFix}.
 */
export async function askAgentToFixCommand(parts: Parts, arg: unknown): Promise<string | undefined> {
  let target = fixTargetOf(arg);
  if (target === undefined) {
    const api = await requireApi(parts.connection);
    if (api === undefined) return undefined;
    const picked = await pickReport(api, l10n.t('Ask an agent to fix which report?'));
    if (picked === undefined) return undefined;
    target = { id: picked.id, ...(picked.report ? { url: picked.report.url } : {}) };
  }
  if (target.url === undefined) {
    const known: Report | undefined = parts.panels.current(target.id);
    const api = parts.connection.api;
    // Without its page the prompt still names the report; the agent reads the rest.
    const report =
      known ??
      (api === undefined
        ? undefined
        : await api.getReport(target.id).then(
            (r) => r,
            () => undefined,
          ));
    if (report !== undefined) target = { id: target.id, url: report.url };
  }
  return askAgentToFix(target);
}
