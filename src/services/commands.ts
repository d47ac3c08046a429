/**
 * Set Service URL…, Set API Key… and Remove API Key. The key is typed into a password
 * box, checked with one cheap authenticated request, and only then stored in
 * SecretStorage for the service's origin. It never reaches settings, logs or messages.
 */
import * as vscode from 'vscode';
import * as l10n from '@vscode/l10n';
import { HTTP_BLOCKED, httpBlockedInBrowser } from '../api/browser';
import { createClient } from '../api/client';
import { isApiError, messageOf } from '../api/errors';
import { httpBlockedMessage } from '../api/messages';
import { parseServiceUrl } from '../api/serviceUrl';
import type { Log } from '../log';
import type { ConnectionControls } from '../parts';
import {
  confirmModal,
  describe,
  flash,
  offerCommand,
  offerSettingFix,
  openInBrowser,
  windowProgress,
} from '../ui/notify';
import { isOptions } from '../text/guards';
import { escapeForMessage, escapeIcons } from '../text/text';
import { serviceLabel } from './labels';
import { Command, Setting } from '../ids';
import { accountPageUrl, DEFAULT_ACCOUNT_PAGE_URL } from '../text/urls';

/** What the connection commands need from the parts. */
export interface ConnectionCommandDeps {
  readonly context: vscode.ExtensionContext;
  readonly log: Log;
  readonly connection: ConnectionControls;
}

/** What checking a key found; `wrongUrl`: the URL is what to fix, so saving the key unchecked cannot help. */
type KeyCheck =
  | { kind: 'ok' }
  | { kind: 'rejected' }
  | { kind: 'failed'; message: string; wrongUrl: boolean; forbidden: boolean }
  | { kind: 'cancelled' };

const hostOf = (url: string): string => new URL(url).host;

/** Message for a typed key that cannot be a key, or undefined when it may be one. */
export function keyFormatError(key: string): string | undefined {
  if (key === '') return l10n.t('Enter the API key.');
  // Only what an HTTP header carries as it is: anything else could not be sent, and a key
  // that is refused before it leaves must not read as "rejected by the service".
  if (!/^[\x21-\x7e]+$/.test(key)) return l10n.t('An API key has only visible ASCII characters (no spaces).');
  if (key.length > 4096) return l10n.t('This is too long to be an API key.');
  return undefined;
}

/**
 * Asks the service for one small page of projects with `key`. A 401 means the service
 * rejected the key; any other failure means the key could not be checked.
 */
export async function checkKey(
  baseUrl: string,
  key: string,
  deps: ConnectionCommandDeps,
  signal: AbortSignal,
): Promise<KeyCheck> {
  const timeoutMs = deps.connection.requestTimeoutMs;
  const host = hostOf(baseUrl);
  // One request, not retried: a failure is shown next to the input, where Enter tries again.
  const api = createClient({
    baseUrl,
    getKey: () => key,
    timeoutMs,
    retry: { limit: 0 },
    onRequest: (entry) => deps.log.request(entry),
  });
  deps.log.info(`Checking an API key with ${host}.`);
  try {
    await api.listProjects({ perPage: 10 }, 1, signal);
    deps.log.info(`${host} accepted the API key.`);
    return { kind: 'ok' };
  } catch (e) {
    if (signal.aborted || isApiError(e, 'cancelled')) return { kind: 'cancelled' };
    if (isApiError(e, 'unauthorized')) {
      deps.log.warn(`${host} rejected the API key (401).`);
      return { kind: 'rejected' };
    }
    const message = describe(e).message;
    deps.log.warn(`Could not check the API key with ${host}: ${message}`);
    // A URL that cannot work: the fix is the URL, not saving the key unchecked.
    const wrongUrl =
      isApiError(e) &&
      (e.kind === 'notFound' || e.kind === 'redirect' || (e.kind === 'network' && e.reason === HTTP_BLOCKED));
    // 403: the key authenticates but may not list projects; asking again answers the same.
    return { kind: 'failed', message, wrongUrl, forbidden: isApiError(e, 'forbidden') };
  }
}

/**
 * Checks a key given as an argument (tests, automation) with the service at `url`, under a
 * progress note; undefined, after saying why, when it cannot be a key.
 */
export async function checkGivenKey(
  deps: ConnectionCommandDeps,
  url: string,
  key: string,
): Promise<KeyCheck | undefined> {
  const formatError = keyFormatError(key);
  if (formatError !== undefined) {
    void vscode.window.showErrorMessage(formatError);
    return undefined;
  }
  return windowProgress(l10n.t('Checking the API key…'), () => checkKey(url, key, deps, new AbortController().signal));
}

/** Logs a failed save by the error's name only: its message could hold the key. */
function logSaveFailure(deps: ConnectionCommandDeps, e: unknown): void {
  deps.log.error(`Could not save the API key: ${e instanceof Error ? e.name : 'error'}`);
}

export async function save(
  conn: ConnectionControls,
  origin: string,
  key: string,
  deps: ConnectionCommandDeps,
): Promise<void> {
  await conn.storeKey(origin, key);
  deps.log.info(`API key saved for ${origin}.`);
  flash(l10n.t('API key saved for {0}.', hostOf(origin)));
}

/** Set API Key…; a string argument skips the input box, not the check. Resolves whether a key was saved. */
export async function setApiKey(deps: ConnectionCommandDeps, arg?: unknown): Promise<boolean> {
  const conn = deps.connection;
  await conn.ready;
  if (conn.serviceUrl === undefined) {
    // Without a URL there is nothing to check the key against: set it first.
    if (typeof arg === 'string') {
      void vscode.window.showErrorMessage(l10n.t('Set the service URL before the API key.'));
      return false;
    }
    if (!(await setServiceUrl(deps, undefined, { chainKey: false }))) return false;
    if (conn.serviceUrl === undefined) return false;
  }
  return typeof arg === 'string' ? setKeyFromArgument(deps, conn, arg) : askForKey(deps, conn);
}

async function setKeyFromArgument(
  deps: ConnectionCommandDeps,
  conn: ConnectionControls,
  raw: string,
): Promise<boolean> {
  const key = raw.trim();
  const url = conn.serviceUrl;
  const origin = conn.origin;
  if (url === undefined || origin === undefined) return false;
  const outcome = await checkGivenKey(deps, url, key);
  if (outcome === undefined) return false;
  if (outcome.kind === 'ok') {
    await save(conn, origin, key, deps);
    return true;
  }
  if (outcome.kind === 'rejected') {
    offerCommand(
      vscode.window.showErrorMessage,
      l10n.t('The service rejected the API key.'),
      l10n.t('Set API Key…'),
      Command.setApiKey,
    );
    return false;
  }
  if (outcome.kind === 'failed' && outcome.wrongUrl) {
    offerCommand(
      vscode.window.showErrorMessage,
      l10n.t('Could not check the API key: {0} Nothing was saved.', escapeForMessage(outcome.message)),
      l10n.t('Set Service URL…'),
      Command.setServiceUrl,
    );
    return false;
  }
  if (outcome.kind === 'failed') {
    const saveAnyway = l10n.t('Save Without Checking');
    const retry = l10n.t('Retry');
    // Not awaited: the command answers now; the buttons act later with the key kept only
    // in this closure, and only for the service it was typed for.
    void vscode.window
      .showWarningMessage(
        l10n.t('Could not check the API key: {0}', escapeForMessage(outcome.message)),
        saveAnyway,
        retry,
      )
      .then(async (choice) => {
        if (choice === undefined) return;
        if (conn.serviceUrl !== url) {
          void vscode.window.showWarningMessage(
            l10n.t(
              'The service changed since the key was given, so it was not saved. Set the API key again for the current service.',
            ),
          );
          return;
        }
        if (choice === saveAnyway) await save(conn, origin, key, deps);
        else if (choice === retry) await setKeyFromArgument(deps, conn, key);
      })
      .then(undefined, (e: unknown) => logSaveFailure(deps, e));
  }
  return false;
}

/**
 * The password box. Enter checks the key with the box busy; a 401 shows the service's
 * rejection next to the input and keeps what was typed; other failures offer to try
 * again (Enter) or save without checking (the box's button).
 */
export function askForKey(
  deps: ConnectionCommandDeps,
  conn: ConnectionControls,
  target: { url: string | undefined; origin: string | undefined } = { url: conn.serviceUrl, origin: conn.origin },
): Promise<boolean> {
  const { url, origin } = target;
  if (url === undefined || origin === undefined) return Promise.resolve(false);
  return new Promise<boolean>((resolve) => {
    const box = vscode.window.createInputBox();
    const saveUncheckedTitle = l10n.t('Save Without Checking');
    const saveUnchecked: vscode.QuickInputButton = {
      iconPath: new vscode.ThemeIcon('save'),
      tooltip: saveUncheckedTitle,
    };
    const accountPage: vscode.QuickInputButton = {
      iconPath: new vscode.ThemeIcon('link-external'),
      tooltip: l10n.t('Open Account Page'),
    };
    let checking: AbortController | undefined;
    /** The typed key whose check failed for a reason other than the key itself. */
    let unchecked: string | undefined;
    let saved = false;

    box.title = l10n.t('API Key for {0}', hostOf(url));
    box.prompt = l10n.t(
      'Paste the API key from your account page on the service (Open Account Page, top right). It is checked with the service, then kept in VS Code secret storage.',
    );
    box.placeholder = l10n.t('API key');
    box.password = true;
    box.ignoreFocusOut = true;
    box.buttons = [accountPage];

    const finish = async (key: string): Promise<void> => {
      await save(conn, origin, key, deps);
      saved = true;
      box.hide();
    };
    const saveFailed = (e: unknown): void => {
      box.busy = false;
      box.enabled = true;
      box.validationMessage = l10n.t('Could not save the API key.');
      logSaveFailure(deps, e);
    };
    const severe = (
      message: string,
      severity: vscode.InputBoxValidationSeverity,
    ): vscode.InputBoxValidationMessage => ({
      message,
      severity,
    });

    box.onDidChangeValue((value) => {
      checking?.abort();
      checking = undefined;
      unchecked = undefined;
      box.busy = false;
      box.buttons = [accountPage];
      const error = value.trim() === '' ? undefined : keyFormatError(value.trim());
      box.validationMessage = error;
    });

    box.onDidAccept(() => {
      const key = box.value.trim();
      const formatError = keyFormatError(key);
      if (formatError !== undefined) {
        box.validationMessage = formatError;
        return;
      }
      if (checking !== undefined) return;
      const controller = new AbortController();
      checking = controller;
      box.busy = true;
      box.enabled = false;
      box.validationMessage = severe(
        l10n.t('Checking the key with the service…'),
        vscode.InputBoxValidationSeverity.Info,
      );
      void checkKey(url, key, deps, controller.signal)
        .then(async (outcome) => {
          if (checking !== controller) return; // typed over or closed meanwhile
          checking = undefined;
          box.busy = false;
          box.enabled = true;
          switch (outcome.kind) {
            case 'ok':
              box.validationMessage = undefined;
              await finish(key);
              break;
            case 'rejected':
              box.validationMessage = severe(
                l10n.t('The service rejected the API key.'),
                vscode.InputBoxValidationSeverity.Error,
              );
              break;
            case 'failed':
              if (outcome.wrongUrl) {
                // The URL is wrong: a key saved unchecked would not work either.
                unchecked = undefined;
                box.buttons = [accountPage];
                box.validationMessage = severe(
                  l10n.t('Could not check the key: {0} Check the service URL (Set Service URL…).', outcome.message),
                  vscode.InputBoxValidationSeverity.Error,
                );
                break;
              }
              unchecked = key;
              box.buttons = [saveUnchecked, accountPage];
              box.validationMessage = severe(
                outcome.forbidden
                  ? l10n.t(
                      'Could not check the key: {0} To keep it anyway, use Save Without Checking in the notification.',
                      outcome.message,
                    )
                  : l10n.t(
                      'Could not check the key: {0} Press Enter to try again, or use Save Without Checking in the notification.',
                      outcome.message,
                    ),
                vscode.InputBoxValidationSeverity.Warning,
              );
              // A named choice, not only the box's icon: the notification stays until answered.
              void vscode.window
                .showWarningMessage(
                  l10n.t("Couldn't check the API key for {0}: {1}", hostOf(url), escapeForMessage(outcome.message)),
                  saveUncheckedTitle,
                )
                .then((choice) => {
                  if (choice === saveUncheckedTitle) saveWithoutChecking();
                });
              break;
            case 'cancelled':
              box.validationMessage = undefined;
              break;
          }
        })
        .catch(saveFailed);
    });

    /** Saves the key whose check failed, while it is still the one typed in the open box. */
    const saveWithoutChecking = (): void => {
      if (saved || unchecked === undefined || unchecked !== box.value.trim()) return;
      const key = unchecked;
      deps.log.warn(`Saving an API key for ${origin} without checking it.`);
      finish(key).catch(saveFailed);
    };

    box.onDidTriggerButton((button) => {
      if (button === accountPage) void openAccountPage(deps);
      else if (button === saveUnchecked) saveWithoutChecking();
    });

    box.onDidHide(() => {
      checking?.abort();
      box.dispose();
      resolve(saved);
    });
    box.show();
  });
}

/** Open Account Page: the service's page where a user gets an API key (setting `Setting.accountPageUrl`). */
export async function openAccountPage(deps: ConnectionCommandDeps): Promise<boolean> {
  const conn = deps.connection;
  await conn.ready;
  if (conn.serviceUrl === undefined) {
    offerCommand(
      vscode.window.showInformationMessage,
      l10n.t('Set the service URL first: the account page is on the service.'),
      l10n.t('Set Service URL…'),
      Command.setServiceUrl,
    );
    return false;
  }
  const template = vscode.workspace.getConfiguration().get<string>(Setting.accountPageUrl) || DEFAULT_ACCOUNT_PAGE_URL;
  const url = accountPageUrl(template, conn.serviceUrl);
  if (url === undefined) {
    offerSettingFix(Setting.accountPageUrl);
    return false;
  }
  return openInBrowser(url);
}

/**
 * The input box for a service URL (Set Service URL…, Add Service…), checked as it is typed;
 * answers what was entered, or undefined when cancelled.
 */
export function askServiceUrl(title: string, value?: string): Thenable<string | undefined> {
  return vscode.window.showInputBox({
    title,
    prompt: l10n.t('The base URL of the report service; the API lives under /api/v1 below it.'),
    placeHolder: 'https://reports.example.com',
    value,
    ignoreFocusOut: true,
    validateInput: validateServiceUrl,
  });
}

/** Checks a service URL as it is typed: an error, the warning that the key would travel unencrypted, or nothing. */
function validateServiceUrl(value: string): string | vscode.InputBoxValidationMessage | undefined {
  const parsed = parseServiceUrl(value);
  if (!parsed.ok) return value.trim() === '' ? undefined : parsed.error;
  const { origin, host } = new URL(parsed.url);
  if (httpBlockedInBrowser(origin)) return httpBlockedMessage(host);
  if (parsed.insecure) {
    return {
      message: l10n.t('http: to another machine: the API key would travel unencrypted.'),
      severity: vscode.InputBoxValidationSeverity.Warning,
    };
  }
  return undefined;
}

/**
 * Asks, once per origin, before the API key goes over http: to another machine (Set Service
 * URL…, Add Service…); true when it may.
 */
export async function confirmInsecure(
  deps: ConnectionCommandDeps,
  conn: ConnectionControls,
  origin: string,
): Promise<boolean> {
  if (conn.isInsecureAllowed(origin)) return true;
  const host = hostOf(origin);
  const ok = await confirmModal(
    deps.context,
    l10n.t('Send the API key unencrypted to {0}?', host),
    l10n.t(
      'The URL uses http: to another machine. Anyone on the network between this computer and {0} could read the API key and the reports. Use https: when the service offers it.',
      host,
    ),
    l10n.t('Use Unencrypted Connection'),
  );
  if (ok) await conn.allowInsecure(origin);
  return ok;
}

/**
 * After a switch, the current service's key: asked for when the service has none (the views
 * would only say "Add the API key"). Resolves whether there is a key now.
 */
export async function askForMissingKey(deps: ConnectionCommandDeps, conn: ConnectionControls): Promise<boolean> {
  // Right after start-up the stored key may not be read yet: not missing, only not known.
  await conn.ready;
  return conn.state !== 'noKey' || askForKey(deps, conn);
}

/**
 * Writes `Setting.serviceUrl` in the user settings (undefined: removes it). VS Code refuses the
 * write while settings.json has unsaved changes or errors, and says nothing itself: this says
 * why, with a way to the file. Resolves whether it was written.
 */
export async function writeServiceUrl(deps: ConnectionCommandDeps, url: string | undefined): Promise<boolean> {
  try {
    await vscode.workspace.getConfiguration().update(Setting.serviceUrl, url, vscode.ConfigurationTarget.Global);
    return true;
  } catch (e) {
    deps.log.warn(`Could not change the setting ${Setting.serviceUrl}: ${messageOf(e)}`);
    offerCommand(
      vscode.window.showErrorMessage,
      l10n.t('Could not change the setting {0}: {1}', Setting.serviceUrl, escapeForMessage(messageOf(e))),
      l10n.t('Open User Settings (JSON)'),
      'workbench.action.openSettingsJson',
    );
    return false;
  }
}

/**
 * Set Service URL…; a string argument skips the input box, not the checks. Resolves whether a
 * URL was set; from the input box, a URL without a stored key goes on to Set API Key….
 */
export async function setServiceUrl(
  deps: ConnectionCommandDeps,
  arg?: unknown,
  flow: { chainKey: boolean } = { chainKey: true },
): Promise<boolean> {
  const conn = deps.connection;
  const fromArgument = typeof arg === 'string';
  let input: string | undefined;
  if (fromArgument) {
    input = arg;
  } else {
    const current = vscode.workspace.getConfiguration().get<string>(Setting.serviceUrl) ?? '';
    input = await askServiceUrl(l10n.t('Page Reports: Service URL'), current);
    if (input === undefined) return false;
  }

  const parsed = parseServiceUrl(input);
  if (!parsed.ok) {
    void vscode.window.showErrorMessage(parsed.error);
    return false;
  }
  const { origin, host } = new URL(parsed.url);
  if (httpBlockedInBrowser(origin)) {
    void vscode.window.showErrorMessage(httpBlockedMessage(host));
    return false;
  }
  if (parsed.insecure && !(await confirmInsecure(deps, conn, origin))) return false;

  if (!(await writeServiceUrl(deps, parsed.url))) return false;
  // The same value written again fires no configuration event; read it explicitly.
  await conn.reloadNow();
  deps.log.info(`Service URL set to ${parsed.url}.`);
  flash(l10n.t('Service URL set to {0}.', escapeIcons(parsed.url)));
  if (!fromArgument && flow.chainKey) await askForMissingKey(deps, conn);
  return true;
}

/**
 * Remove API Key: offers every origin with a stored key, the current one first, and deletes the
 * chosen one's after a confirmation (`{ origin, confirmed }` skips the pick). Resolves whether
 * a key was removed.
 */
export async function removeApiKey(deps: ConnectionCommandDeps, arg?: unknown): Promise<boolean> {
  const conn = deps.connection;
  await conn.ready;
  const options = isOptions(arg) ? arg : undefined;
  const stored = conn.originsWithKey();
  let origin: string | undefined;
  if (options) {
    origin = typeof options.origin === 'string' ? options.origin : conn.state === 'ready' ? conn.origin : undefined;
    if (origin !== undefined && !stored.includes(origin) && origin !== conn.origin) origin = undefined;
  } else {
    const picked = await pickOriginWithKey(conn, stored);
    if (picked === null) return false;
    origin = picked;
  }
  if (origin === undefined) {
    void vscode.window.showInformationMessage(l10n.t('No API key is stored for the current service.'));
    return false;
  }
  const host = hostOf(origin);
  const ok = await confirmModal(
    deps.context,
    l10n.t('Remove the API key for {0} from this computer?', host),
    origin === conn.origin
      ? l10n.t('The views stay empty until a key is set again. The key itself stays valid on the service.')
      : l10n.t('The key itself stays valid on the service.'),
    l10n.t('Remove Key'),
    options,
  );
  if (!ok) return false;
  await conn.removeKey(origin);
  deps.log.info(`API key removed for ${origin}.`);
  flash(l10n.t('API key removed.'));
  return true;
}

/**
 * The origin whose key to remove: the only one, or the user's pick of all of them (the
 * current service first). undefined when none is stored, null when the user cancelled.
 */
async function pickOriginWithKey(
  conn: ConnectionControls,
  stored: readonly string[],
): Promise<string | undefined | null> {
  const origins = [...stored].sort((a, b) => Number(b === conn.origin) - Number(a === conn.origin));
  if (origins.length <= 1) return origins[0];
  const picked = await vscode.window.showQuickPick(
    origins.map((origin) => ({
      label: serviceLabel(origin),
      description: origin === conn.origin ? l10n.t('current service') : undefined,
      detail: origin,
      origin,
    })),
    { title: l10n.t('Remove API Key'), placeHolder: l10n.t('The service whose API key to remove from this computer') },
  );
  return picked === undefined ? null : picked.origin;
}
