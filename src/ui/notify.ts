/**
 * Small pieces of editor UI the parts share: modal confirmations, the "connect first" prompt,
 * progress, notifications with one button, status bar confirmations, and the localized,
 * inert description of a failure.
 */
import * as vscode from 'vscode';
import * as l10n from '@vscode/l10n';
import { ApiError, isApiError } from '../api/errors';
import { describeError, type ErrorContext, type ErrorDescription } from '../api/messages';
import { secretInMessage, withoutSecrets } from '../api/failures';
import type { ReportId, ReportsApi } from '../api/types';
import type { ConnectionApi } from '../parts';
import { escapeForMessage } from '../text/text';
import { formatCount } from '../presentation/insightsAggregate';
import { Command } from '../ids';

/** A count in the display language's digits ("2,000"). */
export function countText(value: number): string {
  return formatCount(value, vscode.env.language);
}

/** A report id (from the server) for a message or the status bar: see {@link escapeForMessage}. */
export function idText(id: ReportId): string {
  return escapeForMessage(String(id));
}

/**
 * The error with `secret` (a report password) blanked out of every text the service sent back, so a
 * server echoing it cannot put it into a message or the log.
 */
export function withoutSecret(error: unknown, secret: string | undefined): unknown {
  if (!secret || !isApiError(error)) return error;
  // As the client's first pass: a message is blanked, or dropped (a field's is put in its place).
  const placeholder = secretInMessage();
  const clean = (text: string): string | undefined => (text === placeholder ? text : withoutSecrets(text, [secret]));
  const fieldErrors =
    error.fieldErrors === undefined
      ? undefined
      : Object.fromEntries(
          Object.entries(error.fieldErrors).map(([field, messages]) => [
            field,
            messages.map((message) => clean(message) ?? placeholder),
          ]),
        );
  // The technical message is the extension's own text: a short password found inside its words is no echo.
  const serviceMessage = error.serviceMessage === undefined ? undefined : clean(error.serviceMessage);
  return new ApiError({ ...error, serviceMessage, fieldErrors }, clean(error.message) ?? error.message);
}

/**
 * `describeError` with the message made inert ({@link escapeForMessage}): it may hold server
 * text, and notifications would run a `[label](command:…)` in it.
 */
export function describe(error: unknown, context?: ErrorContext): ErrorDescription {
  const described = describeError(error, context);
  return { ...described, message: escapeForMessage(described.message) };
}

/** Options a caller may pass as a command argument to skip a confirmation. */
export interface ConfirmOptions {
  /**
   * Skips the modal confirmation, honoured ONLY while the extension runs its integration tests
   * (`ExtensionMode.Test`), where VS Code refuses to show modal dialogs.
   */
  confirmed?: boolean;
}

/**
 * Asks a modal question with one affirmative button. Resolves true only when the user
 * chose it (Escape, Cancel and closing the dialog all mean no).
 */
export async function confirmModal(
  context: vscode.ExtensionContext,
  message: string,
  detail: string,
  button: string,
  options?: ConfirmOptions,
): Promise<boolean> {
  if (options?.confirmed === true && context.extensionMode === vscode.ExtensionMode.Test) return true;
  const choice = await vscode.window.showWarningMessage(message, { modal: true, detail }, button);
  return choice === button;
}

/**
 * The client when the connection is ready. Otherwise says what is missing, with a button
 * for that step, and resolves undefined. Waits for the key's read, so a command run right
 * after start-up or a switch of service does not claim the key is missing.
 */
export async function requireApi(connection: ConnectionApi): Promise<ReportsApi | undefined> {
  await connection.ready;
  const api = connection.api;
  if (api !== undefined) return api;
  const noUrl = connection.state === 'noUrl';
  const message = noUrl ? l10n.t('Set the service URL first.') : l10n.t('Set the API key for the service first.');
  const button = noUrl ? l10n.t('Set Service URL…') : l10n.t('Set API Key…');
  offerCommand(
    vscode.window.showInformationMessage,
    message,
    button,
    noUrl ? Command.setServiceUrl : Command.setApiKey,
  );
  return undefined;
}

/**
 * Runs `task` under a notification titled `title` with a Cancel button: cancelling aborts the
 * signal the task is given (the token says whether the user cancelled).
 */
export function cancellableProgress<T>(
  title: string,
  task: (
    progress: vscode.Progress<{ message?: string; increment?: number }>,
    signal: AbortSignal,
    token: vscode.CancellationToken,
  ) => Promise<T>,
): Thenable<T> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title, cancellable: true },
    async (progress, token) => {
      const controller = new AbortController();
      const subscription = token.onCancellationRequested(() => controller.abort());
      try {
        return await task(progress, controller.signal, token);
      } finally {
        subscription.dispose();
      }
    },
  );
}

/** Runs `task` with `title` shown as progress in the status bar. */
export function windowProgress<T>(title: string, task: () => PromiseLike<T>): Thenable<T> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title }, task);
}

/**
 * Shows `message` with one `button` (by `show`: showInformationMessage, showErrorMessage, …)
 * and runs `action` when it is chosen. Not awaited by callers: the command answers now.
 */
export function offer(
  show: (message: string, ...items: string[]) => Thenable<string | undefined>,
  message: string,
  button: string,
  action: () => unknown,
): void {
  // The commands `action` runs report their own failures.
  show(message, button)
    .then((choice) => (choice === button ? action() : undefined))
    .then(undefined, () => undefined);
}

/** {@link offer} whose button runs the command `command` with `args`. */
export function offerCommand(
  show: (message: string, ...items: string[]) => Thenable<string | undefined>,
  message: string,
  button: string,
  command: string,
  ...args: unknown[]
): void {
  offer(show, message, button, () => vscode.commands.executeCommand(command, ...args));
}

/** A URL template setting that gives no http(s) URL: says so, with Open Settings on that setting. */
export function offerSettingFix(setting: string): void {
  offerCommand(
    vscode.window.showErrorMessage,
    l10n.t('The setting {0} does not give an http or https URL.', setting),
    l10n.t('Open Settings'),
    'workbench.action.openSettings',
    setting,
  );
}

/** A short confirmation in the status bar (Copy URL, a re-analysis done). Server text in `message` must pass `escapeIcons` (or `escapeForMessage`). */
export function flash(message: string): void {
  vscode.window.setStatusBarMessage(`$(check) ${message}`, 4000);
}

/**
 * Opens a checked http(s) URL as it is: given a `Uri`, VS Code rebuilds the URL from decoded parts
 * (`?q=t%26c` opens as `?q=t&c`). Should a VS Code refuse the string, the `Uri` opens.
 */
export function openInBrowser(url: string): Thenable<boolean> {
  return vscode.env
    .openExternal(url as unknown as vscode.Uri)
    .then(undefined, () => vscode.env.openExternal(vscode.Uri.parse(url, true)));
}
