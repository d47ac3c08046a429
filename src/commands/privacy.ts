/**
 * Change Privacy… of one report: Public, Private or Password (the password is sent from its input
 * box, so the service's answer to it shows there).
 */
import * as vscode from 'vscode';
import * as l10n from '@vscode/l10n';
import type { Privacy, Report } from '../api/types';
import { isApiError } from '../api/errors';
import { validationText } from '../api/messages';
import { isOptions } from '../text/guards';
import { escapeForMessage, escapeIcons } from '../text/text';
import { BACK, pickStep, textStep, type PickStepItem } from '../ui/input';
import { describe, flash, requireApi, withoutSecret } from '../ui/notify';
import { Command } from '../ids';
import { displayUrl, loadReport, refName, reportTargets } from './refs';
import { fieldErrors, type Writes } from './writes';

/** Change Privacy…'s values given as an argument (`{ privacy, password? }`), checked by the command. */
export interface PrivacyArgs {
  readonly privacy: unknown;
  readonly password: unknown;
}

/** Reads Change Privacy…'s second argument: `{ privacy, password? }`, or undefined to ask. */
export function privacyArgs(second: unknown): PrivacyArgs | undefined {
  return isOptions(second) && 'privacy' in second ? { privacy: second.privacy, password: second.password } : undefined;
}

const PRIVACY_VALUES: readonly Privacy[] = [0, 1, 2];

function isPrivacy(value: unknown): value is Privacy {
  return PRIVACY_VALUES.includes(value as Privacy);
}

/** Lower-case name of a privacy value for sentences ("Report 42 is now private."). */
function privacyAdjective(privacy: Privacy): string {
  switch (privacy) {
    case 0:
      return l10n.t('public');
    case 1:
      return l10n.t('private');
    case 2:
      return l10n.t('password-protected');
  }
}

export function privacyItems(current: Privacy | undefined): PickStepItem<Privacy>[] {
  const items: PickStepItem<Privacy>[] = [
    {
      value: 0,
      label: l10n.t('Public'),
      iconPath: new vscode.ThemeIcon('globe'),
      detail: l10n.t('Anyone with the link can open the report page.'),
    },
    {
      value: 1,
      label: l10n.t('Private'),
      iconPath: new vscode.ThemeIcon('lock'),
      detail: l10n.t('Only your account can open the report page.'),
    },
    {
      value: 2,
      label: l10n.t('Password'),
      iconPath: new vscode.ThemeIcon('key'),
      detail: l10n.t('Anyone with the password can open the report page.'),
    },
  ];
  for (const item of items) if (item.value === current) item.description = l10n.t('$(check) current');
  return items;
}

/** The password step's prompt (New Report…, and Change Privacy… of a report without a password). */
export function passwordPrompt(): string {
  return l10n.t('Password that will open the report page (not stored by VS Code)');
}

export function passwordError(value: string): string | undefined {
  return value === '' ? l10n.t('Enter the password that will open the report page.') : undefined;
}

/** A privacy and password given as arguments, checked: the values to send, or what is wrong. */
export function checkPrivacyArgs(
  privacy: unknown,
  password: unknown,
): { privacy: Privacy; password?: string } | string {
  if (!isPrivacy(privacy)) return l10n.t('Privacy must be 0 (Public), 1 (Private) or 2 (Password).');
  if (privacy !== 2) return { privacy };
  const text = typeof password === 'string' ? password : '';
  return passwordError(text) ?? { privacy, password: text };
}

/** Whether sending the same request again may succeed: the service failed or was out of reach for a moment. */
function sendAgainHelps(error: unknown): boolean {
  return isApiError(error) && ['server', 'network', 'timeout', 'rateLimited', 'badResponse'].includes(error.kind) && describe(error).actions.includes('retry');
}

/**
 * Change Privacy…: `Command.changeReportPrivacy(item?, argsOrSelected?)` where the
 * second argument may be `{ privacy, password? }`. Resolves the updated report.
 */
export async function changePrivacy(
  w: Writes,
  item: unknown,
  args: PrivacyArgs | undefined,
): Promise<Report | undefined> {
  const api = await requireApi(w.parts.connection);
  if (api === undefined) return undefined;
  // One report at a time: with several selected, the one the menu was opened on.
  const refs = await reportTargets(api, item, undefined, l10n.t('Change the privacy of which report?'));
  const ref = refs[0];
  if (ref === undefined) return undefined;
  if (w.stillRunning(ref.id)) return undefined;

  /** Sends the change once; resolves the updated report or throws. */
  const send = async (privacy: Privacy, password: string | undefined): Promise<Report | undefined> =>
    w.write(ref.id, async (serviceUrl) => {
      w.log.info(`Changing the privacy of report ${ref.id} to ${privacy}.`);
      let updated: Report;
      try {
        updated = await api.updateReport(ref.id, privacy === 2 ? { privacy, password } : { privacy });
      } catch (e) {
        throw withoutSecret(e, password);
      }
      w.showUpdated(updated, serviceUrl);
      return updated;
    });
  const startedOn = w.serviceUrl;
  /**
   * Reports a failure of this change, with a Retry that runs the command again with `again`
   * (the values that failed, or none to ask again); resolves the command's undefined.
   */
  const failed = (e: unknown, again?: PrivacyArgs): undefined => {
    w.errors.report(e, {
      action: l10n.t("Couldn't change the privacy of {0}", refName(ref)),
      retry: w.retryCommand(startedOn, Command.changeReportPrivacy, { id: ref.id }, again),
    });
    return undefined;
  };
  const done = (updated: Report, privacy: Privacy): Report => {
    // The row and the panel show it: the status bar is enough.
    flash(l10n.t('{0} is now {1}.', refName({ id: ref.id, report: updated }), privacyAdjective(privacy)));
    return updated;
  };

  if (args !== undefined) {
    const checked = checkPrivacyArgs(args.privacy, args.password);
    if (typeof checked === 'string') {
      void vscode.window.showErrorMessage(checked);
      return undefined;
    }
    try {
      const updated = await send(checked.privacy, checked.password);
      return updated ? done(updated, checked.privacy) : undefined;
    } catch (e) {
      // The password stays in memory only with that notification's Retry, as New Report's does.
      return failed(e, args);
    }
  }

  // The picker marks the current value: the report is needed (fetched when only an id came).
  let report: Report;
  try {
    report = await loadReport(api, ref);
  } catch (e) {
    return failed(e);
  }
  const title = l10n.t('Privacy of {0}', refName({ id: ref.id, report }));
  for (;;) {
    const privacy = await pickStep<Privacy>({
      title,
      placeholder: l10n.t('Who may open the page of {0}?', escapeIcons(displayUrl(report.url))),
      items: privacyItems(report.privacy),
      active: report.privacy,
    });
    if (privacy === undefined || privacy === BACK) return undefined;
    if (privacy !== 2) {
      // "Already" only when the report was just fetched: a copy held (the panel's, a row's)
      // may be older than a change made elsewhere, and sending the same value is harmless.
      if (privacy === report.privacy && ref.report === undefined) {
        flash(l10n.t('{0} is already {1}.', refName({ id: ref.id, report }), privacyAdjective(privacy)));
        return undefined;
      }
      try {
        const updated = await send(privacy, undefined);
        return updated ? done(updated, privacy) : undefined;
      } catch (e) {
        return failed(e, { privacy, password: undefined });
      }
    }
    // Password: the request goes out from the box, so the service's answer to the
    // password shows next to it and nothing has to be typed again.
    let updated: Report | undefined;
    const value = await textStep({
      title,
      prompt:
        report.privacy === 2
          ? l10n.t('New password for the report page (not stored by VS Code)')
          : passwordPrompt(),
      value: '',
      password: true,
      back: true,
      validate: passwordError,
      submit: async (password, isOpen) => {
        try {
          updated = await send(2, password);
          return undefined;
        } catch (e) {
          // Where sending again can help (field messages, a 5xx, the network, a rate limit) the
          // box shows why and Enter sends again; otherwise a notification says what became of it.
          if (isOpen()) {
            const invalid = fieldErrors(e);
            if (invalid !== undefined) {
              return escapeForMessage(validationText(invalid));
            }
            if (sendAgainHelps(e) && w.serviceUrl === startedOn) return describe(e).message;
          }
          failed(e);
          throw e;
        }
      },
    });
    if (value === BACK) continue;
    return updated ? done(updated, 2) : undefined;
  }
}
