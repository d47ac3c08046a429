import * as vscode from 'vscode';
import * as l10n from '@vscode/l10n';
import { isApiError, KEY_REMOVED, KEY_REPLACED, SERVICE_CHANGED } from '../api/errors';
import type { Log } from '../log';
import type { ConnectionApi, ErrorReporter, NotFound } from '../parts';
import { describe } from './notify';
import { escapeForMessage } from '../text/text';
import { targetOf, type ErrorAction } from '../api/messages';
import { Command, EXTENSION_ID, SECTION } from '../ids';


/**
 * Whether an error only says that someone stopped waiting: never shown to the user. A request
 * not sent because the user switched service or removed its key is shown: a command they
 * started stopped.
 */
export function isCancellation(error: unknown): boolean {
  if (isApiError(error))
    return error.kind === 'cancelled' && error.reason !== SERVICE_CHANGED && error.reason !== KEY_REMOVED;
  if (error instanceof vscode.CancellationError) return true;
  return error instanceof Error && error.name === 'AbortError';
}

/** The report id or project name an API path like `/api/v1/reports/42` addresses, if one. */
export function subjectOf(path: string): NotFound {
  const target = targetOf(path);
  if (target?.name === undefined) return {};
  if (target.collection === 'projects') return { project: target.name };
  return { reportId: /^\d+$/.test(target.name) ? Number(target.name) : target.name };
}

/** Identical messages without buttons closer together than this are shown once. */
const BURST_MS = 5000;

/**
 * Server text for a one-line log entry and a notification: whitespace runs made one space
 * and the length bounded. Escaping is the sinks' (`escapeForMessage`, and the log's own).
 */
function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 500 ? `${flat.slice(0, 500)}…` : flat;
}

/**
 * The way forward of the actions that are commands, with its title: a notification's button
 * here, and the row of a failed list (views/items.ts).
 */
export function actionCommand(action: 'setApiKey' | 'openSettings' | 'readAboutCors'): vscode.Command {
  switch (action) {
    case 'setApiKey':
      return { command: Command.setApiKey, title: l10n.t('Set API Key…') };
    case 'openSettings':
      return { command: 'workbench.action.openSettings', title: l10n.t('Open Settings'), arguments: [SECTION] };
    case 'readAboutCors':
      return { command: 'markdown.showPreview', title: l10n.t('Read About CORS'), arguments: [readmeAt(README_CORS_SECTION)] };
  }
}

/**
 * The way forward a failure's `actions` offer beside Retry, where retrying alone would fail
 * the same way (Open Settings, Set API Key…, Read About CORS): the panels' second button.
 */
export function wayForward(actions: readonly ErrorAction[]): vscode.Command | undefined {
  const action = actions.find(isCommandAction);
  return action === undefined ? undefined : actionCommand(action);
}

/** Whether an action is one of the commands of {@link actionCommand}. */
export function isCommandAction(action: ErrorAction): action is 'setApiKey' | 'openSettings' | 'readAboutCors' {
  return action === 'setApiKey' || action === 'openSettings' || action === 'readAboutCors';
}

/** Runs a command of {@link actionCommand} (a notification's button, a panel's way forward). */
export function runAction(command: vscode.Command): Thenable<unknown> {
  return vscode.commands.executeCommand(command.command, ...(command.arguments ?? []));
}

/**
 * The one place failures reach the user: a notification from `describeError` with its
 * buttons, and a one-line summary in the log. 401s give one prompt while it is open;
 * identical messages are not stacked; cancellations are silent.
 */
export function createErrorReporter(log: Log, connection: ConnectionApi): ErrorReporter & vscode.Disposable {
  const notFound = new vscode.EventEmitter<NotFound>();
  /**
   * Messages whose notification is still open. With buttons it stays on screen until
   * answered, so the same text again adds nothing; without, it fades into the
   * notification center, so only the same text within a burst is dropped.
   */
  const open = new Map<string, { sticky: boolean; at: number }>();
  let keyPromptOpen = false;
  const redact = (text: string): string => connection.redact(text);
  // A new key deserves its own prompt if it is rejected too.
  const onConnection = connection.onDidChange(() => {
    keyPromptOpen = false;
  });

  const labels = {
    retry: l10n.t('Retry'),
    setApiKey: actionCommand('setApiKey').title,
    openSettings: actionCommand('openSettings').title,
    showLog: l10n.t('Show Log'),
    readAboutCors: actionCommand('readAboutCors').title,
  } as const;

  async function show(error: unknown, options: { retry?: () => unknown; action?: string }): Promise<void> {
    const subject = isApiError(error) ? subjectOf(error.path) : {};
    const described = describe(error, subject);
    const message = escapeForMessage(oneLine(redact(described.message)));
    log.error(oneLine(redact(summary(error, options.action, message))));

    if (isApiError(error, 'notFound')) notFound.fire(subject);

    // A refused key (not one the user has replaced since) is asked for once, whatever failed.
    const unauthorized = isApiError(error, 'unauthorized') && error.reason !== KEY_REPLACED;
    if (unauthorized) {
      if (keyPromptOpen) return;
      keyPromptOpen = true;
    }
    const text = options.action !== undefined && !unauthorized ? escapeForMessage(`${options.action}: ${message}`) : message;
    const actions = described.actions.filter((a) => a !== 'retry' || options.retry !== undefined);
    const buttons = actions.map((a) => labels[a]);
    const already = open.get(text);
    if (already !== undefined && (already.sticky || Date.now() - already.at < BURST_MS)) return;
    const entry = { sticky: buttons.length > 0, at: Date.now() };
    open.set(text, entry);
    try {
      const choice = await vscode.window.showErrorMessage(text, ...buttons);
      // The notification is gone: the same failure again (a Retry that fails too) is shown anew.
      if (open.get(text) === entry) open.delete(text);
      const action = actions.find((a) => labels[a] === choice);
      if (action === 'retry') {
        try {
          await options.retry?.();
        } catch (e) {
          report(e, options);
        }
      } else if (action === 'showLog') log.show();
      else if (action !== undefined) await runAction(actionCommand(action));
    } finally {
      if (open.get(text) === entry) open.delete(text);
      if (unauthorized) keyPromptOpen = false;
    }
  }

  function report(error: unknown, options: { retry?: () => unknown; action?: string } = {}): void {
    try {
      if (isCancellation(error)) return;
      show(error, options).catch((e: unknown) => {
        log.error(`Could not show or act on an error: ${oneLine(redact(errorText(e)))}`);
      });
    } catch (e) {
      log.error(`Could not report an error: ${oneLine(redact(errorText(e)))}`);
    }
  }

  return {
    onNotFound: notFound.event,
    gone: (subject) => notFound.fire(subject),
    report,
    dispose() {
      onConnection.dispose();
      notFound.dispose();
    },
  };
}

/** The README's heading (as Markdown preview's anchor) that says what a service must allow for the browser. */
export const README_CORS_SECTION = 'works-in-the-browser';

/**
 * The extension's own README (it ships in the VSIX) at a section, for Markdown preview: it
 * works offline and in the browser, unlike a link to a repository.
 */
function readmeAt(anchor: string): vscode.Uri {
  // This extension's own entry, there while its code runs; `extensionUri` is its folder or, in a browser, its URL.
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  const folder = extension?.extensionUri ?? vscode.Uri.file('/');
  return vscode.Uri.joinPath(folder, 'README.md').with({ fragment: anchor });
}

/** One log line: what was done, the request, and the message the user saw. Never a body. */
function summary(error: unknown, action: string | undefined, message: string): string {
  // An action says the outcome itself ("Couldn't re-analyze /keyboard on shop.example").
  const what = action ?? 'A command failed';
  if (isApiError(error)) {
    const status = error.status !== undefined ? ` ${error.status}` : '';
    return `${what} (${error.kind}${status}, ${error.method} ${error.path}): ${message}`;
  }
  return `${what}: ${errorText(error)}`;
}

function errorText(e: unknown): string {
  if (e instanceof Error) return `${e.name}: ${e.message}`;
  return typeof e === 'string' ? e : 'unknown error';
}
