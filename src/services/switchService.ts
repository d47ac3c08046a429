/**
 * Switch Service…: a quick pick of the known services, plus Add Service… and a remove button on
 * each row. Choosing one writes `Setting.serviceUrl`; everything else follows the connection.
 */
import * as vscode from 'vscode';
import * as l10n from '@vscode/l10n';
import { parseServiceUrl } from '../api/serviceUrl';
import { confirmModal, flash } from '../ui/notify';
import { isOptions } from '../text/guards';
import { escapeForMessage, escapeIcons } from '../text/text';
import {
  askForKey,
  askForMissingKey,
  askServiceUrl,
  checkGivenKey,
  confirmInsecure,
  save,
  setServiceUrl,
  writeServiceUrl,
  type ConnectionCommandDeps,
} from './commands';
import { knownServices, rememberService, type KnownService } from './knownServices';
import { originOf, serviceName } from './labels';
import type { ConnectionControls } from '../parts';
import { formatAbsolute } from '../text/dates';

interface ServiceItem extends vscode.QuickPickItem {
  readonly service?: KnownService;
  readonly add?: true;
}

/**
 * The command. A URL string switches to it; `{ switchBack }` switches back to a known service;
 * `{ add, key }` adds one after checking its key; `{ remove, confirmed }` removes one.
 */
export async function switchService(deps: ConnectionCommandDeps, arg?: unknown): Promise<boolean> {
  const conn = deps.connection;
  await conn.ready;
  if (typeof arg === 'string') return setServiceUrl(deps, arg);
  if (isOptions(arg)) {
    if (typeof arg.switchBack === 'string') return switchBack(deps, conn, arg.switchBack);
    if (typeof arg.remove === 'string') return removeService(deps, conn, arg.remove, arg);
    if (typeof arg.add === 'string' && typeof arg.key === 'string')
      return addServiceWithKey(deps, conn, arg.add, arg.key);
    return false;
  }
  return pickService(deps, conn);
}

function items(
  deps: ConnectionCommandDeps,
  conn: ConnectionControls,
  removeButton: vscode.QuickInputButton,
): ServiceItem[] {
  const services = knownServices(deps.context.globalState);
  const urls = services.map((s) => s.url);
  const withKey = conn.originsWithKey();
  const rows: ServiceItem[] = services.map((service) => {
    const origin = originOf(service.url) ?? service.url;
    const current = service.url === conn.serviceUrl;
    const details = [
      // In words too: a screen reader does not read the icon.
      withKey.includes(origin) ? `$(key) ${l10n.t('key stored')}` : l10n.t('no key'),
      current ? l10n.t('current') : undefined,
      service.lastUsed > 0
        ? l10n.t('last used {0}', formatAbsolute(service.lastUsed, vscode.env.language) ?? '')
        : l10n.t('never used'),
    ].filter((part): part is string => part !== undefined);
    return {
      label: `${current ? '$(check)' : '$(blank)'} ${escapeIcons(serviceName(service.url, urls))}`,
      description: details.join(' · '),
      detail: service.url === origin ? undefined : escapeIcons(service.url),
      buttons: [removeButton],
      service,
    };
  });
  return [
    ...rows,
    { label: '', kind: vscode.QuickPickItemKind.Separator },
    { label: `$(add) ${l10n.t('Add Service…')}`, add: true, alwaysShow: true },
  ];
}

/** Makes a known service current; one without a stored key asks for it, as Set Service URL… does. */
async function switchTo(deps: ConnectionCommandDeps, conn: ConnectionControls, url: string): Promise<boolean> {
  const switched = await setServiceUrl(deps, url);
  if (switched) await askForMissingKey(deps, conn);
  return switched;
}

/**
 * Switch Back to the service of a panel or a failed command: only to one still known (the user
 * may have removed it since), asking for its key when it has none.
 */
async function switchBack(deps: ConnectionCommandDeps, conn: ConnectionControls, url: string): Promise<boolean> {
  const known = knownServices(deps.context.globalState).map((s) => s.url);
  if (!known.includes(url)) {
    void vscode.window.showWarningMessage(
      l10n.t(
        '{0} was removed from Page Reports. Add it again with Switch Service… to go back to it.',
        escapeForMessage(serviceName(url, known)),
      ),
    );
    return false;
  }
  return switchTo(deps, conn, url);
}

function pickService(deps: ConnectionCommandDeps, conn: ConnectionControls): Promise<boolean> {
  const removeButton: vscode.QuickInputButton = {
    iconPath: new vscode.ThemeIcon('trash'),
    tooltip: l10n.t('Remove Service…'),
  };
  return new Promise<boolean>((resolve) => {
    const pick = vscode.window.createQuickPick<ServiceItem>();
    pick.title = l10n.t('Page Reports: Switch Service');
    pick.placeholder = l10n.t('The service whose projects and reports the views show');
    pick.matchOnDescription = true;
    pick.matchOnDetail = true;
    const refresh = (): void => {
      pick.items = items(deps, conn, removeButton);
      pick.activeItems = pick.items.filter((i) => i.service?.url === conn.serviceUrl);
    };
    refresh();
    let outcome: Promise<boolean> = Promise.resolve(false);
    let acting = false;
    pick.onDidTriggerItemButton(({ item }) => {
      if (!item.service || acting) return;
      acting = true;
      pick.busy = true;
      void removeService(deps, conn, item.service.url, undefined).then(
        () => {
          acting = false;
          pick.busy = false;
          refresh();
          pick.show();
        },
        () => {
          acting = false;
          pick.busy = false;
        },
      );
    });
    pick.onDidAccept(() => {
      const chosen = pick.selectedItems[0];
      if (!chosen || acting) return;
      if (chosen.add) outcome = addService(deps, conn);
      else if (chosen.service)
        outcome =
          chosen.service.url === conn.serviceUrl ? Promise.resolve(false) : switchTo(deps, conn, chosen.service.url);
      pick.hide();
    });
    pick.onDidHide(() => {
      if (acting) return; // the remove confirmation took the focus; the pick comes back
      pick.dispose();
      outcome.then(resolve, () => resolve(false));
    });
    pick.show();
  });
}

/** Add Service…: the URL, then the key as Set Service URL does; nothing is saved unless the key checks out. */
async function addService(deps: ConnectionCommandDeps, conn: ConnectionControls): Promise<boolean> {
  const input = await askServiceUrl(l10n.t('Page Reports: Add Service'));
  if (input === undefined) return false;
  // A service already known is switched to, asking for its key when it has none.
  const parsed = await serviceToAdd(deps, input, (url) => switchTo(deps, conn, url));
  if ('done' in parsed) return parsed.done;
  const { origin } = parsed;
  if (parsed.insecure && !(await confirmInsecure(deps, conn, origin))) return false;
  if (!conn.originsWithKey().includes(origin)) {
    const saved = await askForKey(deps, conn, { url: parsed.url, origin });
    if (!saved) return false;
  }
  await rememberService(deps.context.globalState, parsed.url);
  return setServiceUrl(deps, parsed.url);
}

async function addServiceWithKey(
  deps: ConnectionCommandDeps,
  conn: ConnectionControls,
  raw: string,
  rawKey: string,
): Promise<boolean> {
  const parsed = await serviceToAdd(deps, raw, (url) => setServiceUrl(deps, url));
  if ('done' in parsed) return parsed.done;
  const { origin } = parsed;
  if (parsed.insecure && !conn.isInsecureAllowed(origin)) return false;
  const key = rawKey.trim();
  const outcome = await checkGivenKey(deps, parsed.url, key);
  if (outcome === undefined) return false;
  if (outcome.kind !== 'ok') {
    void vscode.window.showErrorMessage(
      outcome.kind === 'rejected'
        ? l10n.t('The service rejected the API key.')
        : outcome.kind === 'failed'
          ? l10n.t('Could not check the API key: {0} Nothing was saved.', escapeForMessage(outcome.message))
          : l10n.t('Could not check the API key; nothing was saved.'),
    );
    return false;
  }
  await save(conn, origin, key, deps);
  await rememberService(deps.context.globalState, parsed.url);
  return setServiceUrl(deps, parsed.url);
}

/**
 * The service Add Service… adds, with its origin; `done` when there is nothing to add (an
 * invalid URL, said so, or a known service, switched to instead).
 */
async function serviceToAdd(
  deps: ConnectionCommandDeps,
  raw: string,
  switchToKnown: (url: string) => Promise<boolean>,
): Promise<{ url: string; origin: string; insecure: boolean } | { done: boolean }> {
  const parsed = parseServiceUrl(raw);
  if (!parsed.ok) {
    void vscode.window.showErrorMessage(parsed.error);
    return { done: false };
  }
  if (knownServices(deps.context.globalState).some((s) => s.url === parsed.url)) {
    return { done: await switchToKnown(parsed.url) };
  }
  return { url: parsed.url, origin: new URL(parsed.url).origin, insecure: parsed.insecure };
}

/** Removes a known service and, unless another known service shares its origin, its key, after a modal confirmation. */
async function removeService(
  deps: ConnectionCommandDeps,
  conn: ConnectionControls,
  url: string,
  options: Record<string, unknown> | undefined,
): Promise<boolean> {
  const services = knownServices(deps.context.globalState);
  if (!services.some((s) => s.url === url)) return false;
  const origin = originOf(url) ?? url;
  const label = serviceName(
    url,
    services.map((s) => s.url),
  );
  // Keys are stored per origin: another known service there keeps using it.
  const originStillUsed = services.some((s) => s.url !== url && originOf(s.url) === origin);
  const ok = await confirmModal(
    deps.context,
    l10n.t('Remove the service {0}?', label),
    originStillUsed
      ? l10n.t('Its API key stays on this computer: another service at {0} uses it.', new URL(origin).host)
      : l10n.t('Its API key is removed from this computer too. The key itself stays valid on the service.'),
    l10n.t('Remove Service'),
    options,
  );
  if (!ok) return false;
  // The current one first stops being current, so no reload can list it again meanwhile.
  if (url === conn.serviceUrl) {
    if (!(await writeServiceUrl(deps, undefined))) return false;
    await conn.reloadNow();
  }
  await conn.forgetService(url);
  if (!originStillUsed) await conn.removeKey(origin);
  deps.log.info(`Service removed: ${url}.`);
  flash(l10n.t('Service {0} removed.', escapeIcons(label)));
  return true;
}
