/**
 * The writes on reports (product spec "Writing"): New Report…, Re-analyze, Change
 * Privacy…, Delete Report…, each for one report or, where it makes sense, a selection.
 *
 * - Writes are sent once: never retried automatically, and a second invocation for the
 *   same report and operation while the first is in flight is ignored.
 * - Passwords live only in local variables of one flow: never stored, logged or echoed.
 */
import * as vscode from 'vscode';
import { l10n } from 'vscode';
import { isApiError, type ApiError } from '../api/errors';
import type { NewReport, Privacy, Report, ReportId, ReportsApi } from '../api/types';
import type { Parts } from '../parts';
import { originOf } from '../common/recentAnalyses';
import { isListSummary } from '../views/summary';
import { diffAnalyses } from '../common/diff';
import { escapeForMessage, escapeIcons, singleLine } from '../common/text';
import { urlForLog } from '../common/urls';
import { runBatch, showBatchSummary } from './batch';
import { showChangesSummary, type ReportChangeSummary } from './changes';
import { BACK, pickStep, textStep, type Back, type PickStepItem } from '../ui/input';
import type { ReportRef } from '../common/commandArgs';
import { displayUrl, loadReport, reportTargets } from './refs';
import { confirmModal, type ConfirmOptions, flash, idText, offer, requireApi, windowProgress, withoutSecret } from '../ui/notify';
import { isOptions } from '../common/guards';
import { InFlight } from './writes';
import { Command } from '../ids';

/**
 * New Report…'s argument, as the table reads it: `{ url, privacy?, password? }` sends without
 * asking (tests, automation); `{ prefill }` or nothing asks. The values are checked by the
 * command like the inputs check what is typed.
 */
export type CreateReportArgs =
  | { readonly send: { readonly url: string; readonly privacy: unknown; readonly password: unknown } }
  | { readonly prefill: string | undefined };

/** Reads New Report…'s argument (see {@link CreateReportArgs}). */
export function createReportArgs(arg: unknown): CreateReportArgs {
  if (isOptions(arg) && typeof arg.url === 'string') return { send: { url: arg.url, privacy: arg.privacy, password: arg.password } };
  return { prefill: isOptions(arg) && typeof arg.prefill === 'string' ? arg.prefill : undefined };
}

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

function privacyItems(current: Privacy | undefined): PickStepItem<Privacy>[] {
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

/** An absolute http(s) URL with a host: the only thing New Report… sends. */
export function isHttpUrl(text: string): boolean {
  if (!/^https?:\/\//i.test(text)) return false;
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

function urlError(value: string): string | undefined {
  const text = value.trim();
  if (text === '') return l10n.t('Enter the URL of the page to analyze.');
  if (/\s/.test(text)) return l10n.t('A URL has no spaces.');
  if (!isHttpUrl(text)) return l10n.t('Enter an absolute http:// or https:// URL, e.g. https://example.com/pricing.');
  return undefined;
}

function passwordError(value: string): string | undefined {
  return value === '' ? l10n.t('Enter the password that will open the report page.') : undefined;
}

/** A privacy and password given as arguments, checked: the values to send, or what is wrong. */
function checkPrivacyArgs(privacy: unknown, password: unknown): { privacy: Privacy; password?: string } | string {
  if (!isPrivacy(privacy)) return l10n.t('Privacy must be 0 (Public), 1 (Private) or 2 (Password).');
  if (privacy !== 2) return { privacy };
  const text = typeof password === 'string' ? password : '';
  return passwordError(text) ?? { privacy, password: text };
}

/**
 * The clipboard's text for a suggestion, or ''. Not in a browser (VS Code for the Web,
 * code-server): there reading the clipboard needs a permission, and a refusal shows an
 * error notification and leaves the read hanging; a suggestion is not worth either. A slow
 * clipboard elsewhere never holds up the input box either.
 */
async function clipboardText(): Promise<string> {
  if (vscode.env.uiKind === vscode.UIKind.Web) return '';
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      Promise.resolve(vscode.env.clipboard.readText()),
      new Promise<string>((resolve) => (timer = setTimeout(() => resolve(''), 500))),
    ]);
  } catch {
    return ''; // no clipboard access: no suggestion
  } finally {
    clearTimeout(timer);
  }
}

/** A URL worth prefilling: the editor's selection, else the clipboard, when it is one. */
async function suggestedUrl(): Promise<string> {
  const candidates: string[] = [];
  const editor = vscode.window.activeTextEditor;
  if (editor && !editor.selection.isEmpty) candidates.push(editor.document.getText(editor.selection));
  candidates.push(await clipboardText());
  for (const candidate of candidates) {
    const text = candidate.trim();
    if (text.length <= 2048 && !/\s/.test(text) && isHttpUrl(text)) return text;
  }
  return '';
}

/** The field messages of a 422, per field, or undefined for other errors. */
function fieldErrors(e: unknown): ApiError | undefined {
  return isApiError(e) && e.kind === 'validation' ? e : undefined;
}

/** The handlers of the report writes, sharing one in-flight guard. */
export function reportWriteCommands(parts: Parts) {
  const inFlight = new InFlight();
  const { reportsView, projectsView, panels, errors, log } = parts;

  function setBusy(id: ReportId, busy: boolean): void {
    reportsView.setBusy(id, busy);
    projectsView.setBusy(id, busy);
    panels.setBusy(id, busy);
  }

  function showUpdated(report: Report): void {
    reportsView.update(report);
    projectsView.update(report);
    panels.update(report);
  }

  async function refreshViews(): Promise<void> {
    await Promise.allSettled([reportsView.refresh(), projectsView.refresh()]);
  }

  /** True, after saying so, when the write `op` on report `id` is still in flight. */
  function stillRunning(op: string, id: ReportId): boolean {
    if (!inFlight.has(`${op}:${id}`)) return false;
    flash(l10n.t('Report {0} is still being changed; wait for it to finish.', idText(id)));
    return true;
  }

  /**
   * Runs the write `op` on report `id` unless it is in flight already (then resolves
   * undefined), the report's items and panel busy meanwhile.
   */
  function write<T>(op: string, id: ReportId, task: () => Promise<T>): Promise<T | undefined> {
    return inFlight.run(`${op}:${id}`, async () => {
      setBusy(id, true);
      try {
        return await task();
      } finally {
        setBusy(id, false);
      }
    });
  }

  /**
   * Sends one store with a progress notification. Cancelling stops waiting (the service
   * may still create the report).
   */
  async function sendCreate(api: ReportsApi, input: NewReport): Promise<Report | 'cancelled'> {
    const key = `create:${input.url}`;
    if (inFlight.has(key)) {
      flash(l10n.t('A report for this URL is already being created.'));
      return 'cancelled';
    }
    log.info(`Creating a report for ${urlForLog(input.url)} (privacy ${input.privacy ?? 0}).`);
    const created = await inFlight.run(key, () =>
      vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: l10n.t('Analyzing {0}…', escapeIcons(displayUrl(input.url))),
          cancellable: true,
        },
        async (_progress, token) => {
          const controller = new AbortController();
          const sub = token.onCancellationRequested(() => controller.abort());
          try {
            return await api.createReport(input, controller.signal);
          } catch (e) {
            if (token.isCancellationRequested) return 'cancelled' as const;
            throw withoutSecret(e, input.password);
          } finally {
            sub.dispose();
          }
        },
      ),
    );
    if (created === 'cancelled') {
      log.info(`Stopped waiting for the new report for ${urlForLog(input.url)}.`);
      offer(
        vscode.window.showInformationMessage,
        l10n.t('Stopped waiting. The service may still create the report; refresh the lists in a moment to see it.'),
        l10n.t('Refresh'),
        refreshViews,
      );
    }
    return created ?? 'cancelled';
  }

  /** After a create: both views refresh, the new report is revealed and its panel opens. */
  async function showCreated(report: Report): Promise<void> {
    log.info(`Report ${report.id} created for ${urlForLog(report.url)}.`);
    await refreshViews();
    await panels.open(report.id, report);
    await reportsView.reveal(report);
    flash(l10n.t('Report {0} created.', idText(report.id)));
  }

  /** New Report… with arguments: checks them like the inputs do, then sends. */
  async function createFromArgs(
    api: ReportsApi,
    args: { url: string; privacy: unknown; password: unknown },
  ): Promise<Report | undefined> {
    const url = args.url.trim();
    const checked = urlError(url) ?? checkPrivacyArgs(args.privacy ?? 0, args.password);
    if (typeof checked === 'string') {
      void vscode.window.showErrorMessage(checked);
      return undefined;
    }
    const input: NewReport = { url, ...checked };
    try {
      const created = await sendCreate(api, input);
      if (created === 'cancelled') return undefined;
      await showCreated(created);
      return created;
    } catch (e) {
      errors.report(e, { action: l10n.t('New report') });
      return undefined;
    }
  }

  /**
   * New Report… with inputs: URL, privacy, and a password when privacy is Password. A 422
   * goes back to the step of the field it names, with the service's message next to it
   * and everything typed kept.
   */
  async function createWithInputs(api: ReportsApi, prefill?: string): Promise<Report | undefined> {
    let url = prefill ?? (await suggestedUrl());
    let privacy: Privacy = 0;
    let password = '';
    const messages: { url?: string; privacy?: string; password?: string } = {};
    type Step = 'url' | 'privacy' | 'password' | 'send';
    let step: Step = 'url';
    const title = l10n.t('New Report');
    const totalSteps = (): number => (privacy === 2 ? 3 : 2);

    for (;;) {
      if (step === 'url') {
        const value: string | Back | undefined = await textStep({
          title,
          step: 1,
          totalSteps: totalSteps(),
          prompt: l10n.t('URL of the page to analyze'),
          placeholder: 'https://example.com/pricing',
          value: url,
          error: messages.url,
          validate: urlError,
        });
        messages.url = undefined;
        if (value === undefined || value === BACK) return undefined;
        url = value.trim();
        step = 'privacy';
      } else if (step === 'privacy') {
        const value: Privacy | Back | undefined = await pickStep<Privacy>({
          title,
          step: 2,
          totalSteps: totalSteps(),
          placeholder: messages.privacy ?? l10n.t('Who may open the report page?'),
          items: privacyItems(undefined),
          active: privacy,
          back: true,
        });
        messages.privacy = undefined;
        if (value === undefined) return undefined;
        if (value === BACK) {
          step = 'url';
          continue;
        }
        privacy = value;
        step = privacy === 2 ? 'password' : 'send';
      } else if (step === 'password') {
        const value: string | Back | undefined = await textStep({
          title,
          step: 3,
          totalSteps: 3,
          prompt: l10n.t('Password that will open the report page (not stored by VS Code)'),
          value: password,
          password: true,
          back: true,
          error: messages.password,
          validate: passwordError,
        });
        messages.password = undefined;
        if (value === undefined) return undefined;
        if (value === BACK) {
          step = 'privacy';
          continue;
        }
        password = value;
        step = 'send';
      } else {
        const input: NewReport = privacy === 2 ? { url, privacy, password } : { url, privacy };
        let created: Report | 'cancelled';
        try {
          created = await sendCreate(api, input);
        } catch (e) {
          const invalid = fieldErrors(e);
          if (invalid === undefined) {
            errors.report(e, { action: l10n.t('New report') });
            return undefined;
          }
          // Back to the input the service complained about, with its words next to it.
          log.warn(`The service refused the new report: ${invalid.fieldMessages().join(' ')}`);
          const onPassword = invalid.fieldMessages('password');
          const onPrivacy = invalid.fieldMessages('privacy');
          if (onPassword.length > 0 && privacy === 2) {
            messages.password = escapeForMessage(onPassword.join(' '));
            step = 'password';
          } else if (onPrivacy.length > 0) {
            messages.privacy = escapeForMessage(onPrivacy.join(' '));
            step = 'privacy';
          } else {
            const onUrl = invalid.fieldMessages('url');
            const all = onUrl.length > 0 ? onUrl : invalid.fieldMessages();
            messages.url = escapeForMessage(
              all.length > 0 ? all.join(' ') : (invalid.serviceMessage ?? invalid.message),
            );
            step = 'url';
          }
          continue;
        }
        if (created === 'cancelled') return undefined;
        await showCreated(created);
        return created;
      }
    }
  }

  /**
   * New Report…: `Command.createReport(args?: { url, privacy?, password? } | { prefill })`. With
   * `url` it sends without asking; with `prefill` (a link, Analyze Page) it asks with that URL
   * filled in, so nothing is sent without the user's confirmation. Resolves the new report.
   */
  async function createReport(args: CreateReportArgs): Promise<Report | undefined> {
    const api = await requireApi(parts.connection);
    if (api === undefined) return undefined;
    return 'send' in args ? createFromArgs(api, args.send) : createWithInputs(api, args.prefill);
  }

  /**
   * Re-analyzes one report: busy item and panel, then both show the new analysis. The analysis
   * the extension had just before (fetched first when it had none) goes to the recent analyses
   * store, so the panel can say what changed. Resolves both.
   */
  async function reanalyzeOne(api: ReportsApi, ref: ReportRef): Promise<{ before: Report; after: Report } | undefined> {
    return write('reanalyze', ref.id, async () => {
      // A list's copy is a summary without the analysis: the diff needs a whole report.
      const whole = [ref.report, panels.current(ref.id)].find((r) => r !== undefined && !isListSummary(r));
      const before = whole ?? (await api.getReport(ref.id));
      const origin = originOf(parts.connection.serviceUrl);
      if (origin !== undefined) {
        await parts.analyses.remember(origin, ref.id, before.raw).then(undefined, (e: unknown) => {
          log.warn(
            `Could not keep the previous analysis of report ${ref.id}: ${e instanceof Error ? e.name : 'error'}`,
          );
        });
      }
      const after = await api.updateReport(ref.id, { update: true });
      showUpdated(after);
      log.info(`Report ${ref.id} re-analyzed.`);
      return { before, after };
    });
  }

  /**
   * Re-analyze: `Command.reanalyzeReport(item?, selected?, options?)`. One report
   * resolves the updated report; several ask once and resolve the batch outcome.
   */
  async function reanalyze(item?: unknown, selected?: unknown, options?: unknown) {
    const api = await requireApi(parts.connection);
    if (api === undefined) return undefined;
    const refs = await reportTargets(api, item, selected, l10n.t('Re-analyze which report?'));
    if (refs.length === 0) return undefined;
    if (refs.length === 1 && refs[0]) {
      const ref = refs[0];
      if (stillRunning('reanalyze', ref.id)) return undefined;
      try {
        const done = await windowProgress(l10n.t('Re-analyzing report {0}…', idText(ref.id)), () =>
          reanalyzeOne(api, ref),
        );
        if (done) flash(l10n.t('Report {0} re-analyzed.', idText(ref.id)));
        return done?.after;
      } catch (e) {
        errors.report(e, {
          action: l10n.t('Re-analyze report {0}', idText(ref.id)),
          retry: () => vscode.commands.executeCommand(Command.reanalyzeReport, { id: ref.id }),
        });
        return undefined;
      }
    }
    const ok = await confirmModal(
      parts.context,
      l10n.t('Re-analyze {0} reports?', refs.length),
      listForConfirmation(refs),
      l10n.t('Re-analyze'),
      confirmOptions(selected, options),
    );
    if (!ok) return undefined;
    const changes: ReportChangeSummary[] = [];
    const outcome = await runBatch(parts, {
      title: l10n.t('Re-analyzing {0} reports', refs.length),
      refs,
      action: 'Re-analyze report',
      run: async (ref) => {
        const done = await reanalyzeOne(api, ref);
        if (done === undefined) throw new Error(l10n.t('Already being re-analyzed.'));
        changes.push({ report: done.after, diff: diffAnalyses(done.before, done.after) });
      },
    });
    // A report may have gone meanwhile (404): the lists show what is left.
    if (outcome.failed.length > 0) void refreshViews();
    if (outcome.failed.length > 0 || outcome.skipped.length > 0) {
      showBatchSummary(parts, outcome, (n) => l10n.t('Re-analyzed {0} of {1} reports.', n, refs.length));
    }
    if (changes.length > 0) showChangesSummary(parts, changes);
    return {
      ...outcome,
      changes: changes.map((c) => ({ id: c.report.id, trend: c.diff.trend, delta: c.diff.score.delta })),
    };
  }

  /**
   * Change Privacy…: `Command.changeReportPrivacy(item?, argsOrSelected?)` where the
   * second argument may be `{ privacy, password? }`. Resolves the updated report.
   */
  async function changePrivacy(item: unknown, args: PrivacyArgs | undefined): Promise<Report | undefined> {
    const api = await requireApi(parts.connection);
    if (api === undefined) return undefined;
    // One report at a time: with several selected, the one the menu was opened on.
    const refs = await reportTargets(api, item, undefined, l10n.t('Change the privacy of which report?'));
    const ref = refs[0];
    if (ref === undefined) return undefined;
    if (stillRunning('privacy', ref.id)) return undefined;

    /** Sends the change once; resolves the updated report or throws. */
    const send = async (privacy: Privacy, password: string | undefined): Promise<Report | undefined> =>
      write('privacy', ref.id, async () => {
        log.info(`Changing the privacy of report ${ref.id} to ${privacy}.`);
        try {
          return await api.updateReport(ref.id, privacy === 2 ? { privacy, password } : { privacy });
        } catch (e) {
          throw withoutSecret(e, password);
        }
      });
    /** Reports a failure of this change; resolves the command's undefined. */
    const failed = (e: unknown): undefined => {
      errors.report(e, { action: l10n.t('Change privacy of report {0}', idText(ref.id)) });
      return undefined;
    };
    const done = (updated: Report, privacy: Privacy): Report => {
      showUpdated(updated);
      void vscode.window.showInformationMessage(
        l10n.t('Report {0} is now {1}.', idText(ref.id), privacyAdjective(privacy)),
      );
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
        return failed(e);
      }
    }

    // The picker marks the current value: the report is needed (fetched when only an id came).
    let report: Report;
    try {
      report = await loadReport(api, ref);
    } catch (e) {
      return failed(e);
    }
    const title = l10n.t('Privacy of Report {0}', idText(ref.id));
    for (;;) {
      const privacy = await pickStep<Privacy>({
        title,
        placeholder: l10n.t('Who may open the page of {0}?', escapeIcons(displayUrl(report.url))),
        items: privacyItems(report.privacy),
        active: report.privacy,
      });
      if (privacy === undefined || privacy === BACK) return undefined;
      if (privacy !== 2) {
        if (privacy === report.privacy) {
          flash(l10n.t('Report {0} is already {1}.', idText(ref.id), privacyAdjective(privacy)));
          return undefined;
        }
        try {
          const updated = await send(privacy, undefined);
          return updated ? done(updated, privacy) : undefined;
        } catch (e) {
          return failed(e);
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
            : l10n.t('Password that will open the report page (not stored by VS Code)'),
        value: '',
        password: true,
        back: true,
        validate: passwordError,
        submit: async (password) => {
          try {
            updated = await send(2, password);
            return undefined;
          } catch (e) {
            const invalid = fieldErrors(e);
            if (invalid !== undefined) {
              const messages = invalid.fieldMessages();
              return escapeForMessage(
                messages.length > 0 ? messages.join(' ') : (invalid.serviceMessage ?? invalid.message),
              );
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

  /** Deletes one report on the service; a 404 means it is gone already, which is the goal. */
  async function deleteOne(api: ReportsApi, ref: ReportRef): Promise<'deleted' | 'gone' | undefined> {
    return write('delete', ref.id, async () => {
      try {
        await api.deleteReport(ref.id);
        log.info(`Report ${ref.id} deleted.`);
        const origin = originOf(parts.connection.serviceUrl);
        if (origin !== undefined) await parts.analyses.forget(origin, ref.id).then(undefined, () => undefined);
        return 'deleted' as const;
      } catch (e) {
        if (isApiError(e) && e.kind === 'notFound') {
          log.info(`Report ${ref.id} was already deleted.`);
          return 'gone' as const;
        }
        throw e;
      }
    });
  }

  /**
   * Delete Report…: `Command.deleteReport(item?, selected?, options?)`. Asks once in a
   * modal naming what goes; resolves true (one report) or the batch outcome (several).
   */
  async function deleteReports(item?: unknown, selected?: unknown, options?: unknown) {
    const api = await requireApi(parts.connection);
    if (api === undefined) return undefined;
    if (isOptions(item) && item.selection === true) {
      // The Delete key: a keybinding passes no item, so the view's selection is what goes.
      const chosen = reportsView.selectedReports();
      if (chosen.length === 0) return undefined;
      const nodes = chosen.map((report) => ({ kind: 'report', report }));
      return deleteReports(nodes[0], nodes, item);
    }
    const refs = await reportTargets(api, item, selected, l10n.t('Delete which report?'));
    if (refs.length === 0) return undefined;
    const confirm = confirmOptions(selected, options);

    if (refs.length === 1 && refs[0]) {
      const ref = refs[0];
      if (stillRunning('delete', ref.id)) return undefined;
      let report: Report;
      try {
        report = await loadReport(api, ref);
      } catch (e) {
        errors.report(e, { action: l10n.t('Delete report {0}', idText(ref.id)) });
        return undefined;
      }
      const ok = await confirmModal(
        parts.context,
        l10n.t('Delete the report for {0}?', singleLine(report.url)),
        l10n.t('Report {0} is deleted on the service. This cannot be undone.', idText(ref.id)),
        l10n.t('Delete'),
        confirm,
      );
      if (!ok) return false;
      try {
        const outcome = await windowProgress(l10n.t('Deleting report {0}…', idText(ref.id)), () => deleteOne(api, ref));
        if (outcome === undefined) return false;
        panels.close(ref.id);
        await refreshViews();
        flash(
          outcome === 'gone'
            ? l10n.t('Report {0} was already deleted.', idText(ref.id))
            : l10n.t('Report {0} deleted.', idText(ref.id)),
        );
        return true;
      } catch (e) {
        errors.report(e, {
          action: l10n.t('Delete report {0}', idText(ref.id)),
          retry: () => vscode.commands.executeCommand(Command.deleteReport, { id: ref.id }),
        });
        return false;
      }
    }

    const ok = await confirmModal(
      parts.context,
      l10n.t('Delete {0} reports?', refs.length),
      `${listForConfirmation(refs)}\n\n${l10n.t('They are deleted on the service. This cannot be undone.')}`,
      l10n.t('Delete {0} Reports', refs.length),
      confirm,
    );
    if (!ok) return undefined;
    const outcome = await runBatch(parts, {
      title: l10n.t('Deleting {0} reports', refs.length),
      refs,
      action: 'Delete report',
      run: async (ref) => {
        if ((await deleteOne(api, ref)) === undefined) throw new Error(l10n.t('Already being deleted.'));
        panels.close(ref.id);
      },
    });
    await refreshViews();
    showBatchSummary(parts, outcome, (n) => l10n.t('Deleted {0} of {1} reports.', n, refs.length));
    return outcome;
  }

  return { createReport, reanalyze, changePrivacy, deleteReports };
}

/** Confirmation options passed as the third argument, or as the second from the palette/tests. */
function confirmOptions(selected: unknown, options: unknown): ConfirmOptions | undefined {
  if (isOptions(options)) return options;
  if (isOptions(selected)) return selected;
  return undefined;
}

/** The URLs (or ids) of the reports, one a line, at most ten, for a confirmation's detail. */
function listForConfirmation(refs: readonly ReportRef[]): string {
  const lines = refs.slice(0, 10).map((r) => (r.report ? r.report.url : l10n.t('Report {0}', idText(r.id))));
  if (refs.length > 10) lines.push(l10n.t('…and {0} more', refs.length - 10));
  return lines.join('\n');
}
