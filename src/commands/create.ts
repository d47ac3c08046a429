/**
 * New Report… (product spec "Writing"): asks for the URL, the privacy and, for Password, the
 * password, then sends one store; or sends what the arguments give. A 422 goes back to the step
 * of the field it names. The password lives only in local variables of one flow.
 */
import * as vscode from 'vscode';
import * as l10n from '@vscode/l10n';
import { describeError, validationText } from '../api/messages';
import type { NewReport, Privacy, Report, ReportsApi } from '../api/types';
import { isOptions } from '../text/guards';
import { escapeForMessage } from '../text/text';
import { urlForLog } from '../text/urls';
import { BACK, pickStep, textStep, type Back } from '../ui/input';
import { cancellableProgress, flash, offer, requireApi, withoutSecret } from '../ui/notify';
import { displayUrl, refName } from './refs';
import { fieldErrors, mayHaveActed, type Writes } from './writes';
import { checkPrivacyArgs, passwordError, passwordPrompt, privacyItems } from './privacy';
import { messageOf } from '../api/errors';

/**
 * New Report…'s argument, as the table reads it: `{ url, privacy?, password? }` sends without
 * asking (tests, automation); `{ prefill }` or nothing asks.
 */
export type CreateReportArgs =
  | { readonly send: { readonly url: string; readonly privacy: unknown; readonly password: unknown } }
  | { readonly prefill: string | undefined };

/** Reads New Report…'s argument (see {@link CreateReportArgs}). */
export function createReportArgs(arg: unknown): CreateReportArgs {
  if (isOptions(arg) && typeof arg.url === 'string')
    return { send: { url: arg.url, privacy: arg.privacy, password: arg.password } };
  return { prefill: isOptions(arg) && typeof arg.prefill === 'string' ? arg.prefill : undefined };
}

/** An absolute http(s) URL with a host: the only thing New Report… sends. */
export function isHttpUrl(text: string): boolean {
  // For http(s), a URL that parses has that protocol and a host: WHATWG URL refuses an empty one.
  return /^https?:\/\//i.test(text) && URL.canParse(text);
}

/** An http(s) URL to fill in or take from a link: at most 2,048 characters, no spaces. */
export function isPrefillUrl(text: string): boolean {
  return text.length <= 2048 && !/\s/.test(text) && isHttpUrl(text);
}

function urlError(value: string): string | undefined {
  const text = value.trim();
  if (text === '') return l10n.t('Enter the URL of the page to analyze.');
  if (/\s/.test(text)) return l10n.t('A URL has no spaces.');
  if (!isHttpUrl(text)) return l10n.t('Enter an absolute http:// or https:// URL, e.g. https://example.com/pricing.');
  return undefined;
}

/**
 * The clipboard's text for a suggestion, or ''. Not in a browser, where the read needs a
 * permission whose refusal shows an error and hangs: a suggestion is not worth that.
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
    if (isPrefillUrl(text)) return text;
  }
  return '';
}

/** Sends one store with a progress notification. */
async function sendCreate(w: Writes, api: ReportsApi, input: NewReport): Promise<Report | 'cancelled'> {
  const key = `create:${input.url}`;
  if (w.inFlight.has(key)) {
    flash(l10n.t('A report for this URL is already being created.'));
    return 'cancelled';
  }
  w.log.info(`Creating a report for ${urlForLog(input.url)} (privacy ${input.privacy ?? 0}).`);
  const created = await w.inFlight.run(key, () =>
    cancellableProgress(
      l10n.t('Analyzing {0}…', escapeForMessage(displayUrl(input.url))),
      async (_progress, signal, token) => {
        try {
          return await api.createReport(input, signal);
        } catch (e) {
          if (token.isCancellationRequested) return 'cancelled' as const;
          throw withoutSecret(e, input.password);
        }
      },
    ),
  );
  if (created === 'cancelled') {
    w.log.info(`Stopped waiting for the new report for ${urlForLog(input.url)}.`);
    offer(
      vscode.window.showInformationMessage,
      l10n.t('Stopped waiting. The service may still create the report; refresh the lists in a moment to see it.'),
      l10n.t('Refresh'),
      () => w.refreshViews(),
    );
  }
  return created ?? 'cancelled';
}

/**
 * After a create on `serviceUrl`: both views refresh, the new report is revealed and its panel
 * opens. After a switch of service meanwhile, only its panel opens, saying whose it is.
 */
async function showCreated(w: Writes, report: Report, serviceUrl: string | undefined): Promise<void> {
  w.log.info(`Report ${report.id} created for ${urlForLog(report.url)}.`);
  w.parts.findings.reportChanged(report, serviceUrl);
  await w.refreshViews(serviceUrl);
  await w.panels.open(report.id, report, serviceUrl);
  if (w.serviceUrl === serviceUrl) await w.reportsView.reveal(report);
  flash(l10n.t('Created a report of {0}.', refName({ id: report.id, report })));
}

/**
 * Sends the store and shows the new report. A 422 is rethrown for the inputs to show next to
 * the field. When the service may have created the report anyway ({@link mayHaveActed}), the
 * message offers Refresh rather than Retry, which could make a second one.
 */
async function createAndShow(w: Writes, api: ReportsApi, input: NewReport): Promise<Report | undefined> {
  const serviceUrl = w.serviceUrl;
  let created: Report | 'cancelled';
  try {
    created = await sendCreate(w, api, input);
  } catch (e) {
    if (fieldErrors(e) !== undefined) throw e;
    if (mayHaveActed(e)) {
      const reason = messageOf(e);
      w.log.warn(`New report for ${urlForLog(input.url)}: ${w.parts.connection.redact(reason)} It may have been created.`);
      offer(
        vscode.window.showWarningMessage,
        l10n.t(
          '{0} The service may have created the report for {1} all the same: refresh the lists to see it before you try again.',
          escapeForMessage(w.parts.connection.redact(describeError(e).message)),
          escapeForMessage(displayUrl(input.url)),
        ),
        l10n.t('Refresh'),
        () => w.refreshViews(),
      );
    } else {
      w.errors.report(e, {
        action: l10n.t("Couldn't analyze {0}", escapeForMessage(displayUrl(input.url))),
        // On the connection of the moment; never on another service than the one typed for.
        retry: w.retryOn(
          serviceUrl,
          async () => {
            const now = await requireApi(w.parts.connection);
            if (now !== undefined) await createAndShow(w, now, input);
          },
          l10n.t('The service changed since this report was typed. Run New Report again for the current service.'),
        ),
      });
    }
    return undefined;
  }
  if (created === 'cancelled') return undefined;
  await showCreated(w, created, serviceUrl);
  return created;
}

/** New Report… with arguments: checks them like the inputs do, then sends. */
async function createFromArgs(
  w: Writes,
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
    return await createAndShow(w, api, input);
  } catch (e) {
    w.errors.report(e, { action: l10n.t("Couldn't analyze {0}", escapeForMessage(displayUrl(input.url))) }); // a 422: no inputs to go back to
    return undefined;
  }
}

/** New Report… with inputs; a 422 goes back to the step of its field, everything typed kept. */
async function createWithInputs(w: Writes, api: ReportsApi, prefill?: string): Promise<Report | undefined> {
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
        prompt: passwordPrompt(),
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
      try {
        return await createAndShow(w, api, input);
      } catch (e) {
        const invalid = fieldErrors(e);
        if (invalid === undefined) throw e;
        // Back to the input the service complained about, with its words next to it.
        w.log.warn(`The service refused the new report: ${invalid.fieldMessages().join(' ')}`);
        const onPassword = invalid.fieldMessages('password');
        const onPrivacy = invalid.fieldMessages('privacy');
        if (onPassword.length > 0 && privacy === 2) {
          messages.password = escapeForMessage(validationText(invalid, onPassword));
          step = 'password';
        } else if (onPrivacy.length > 0) {
          messages.privacy = escapeForMessage(validationText(invalid, onPrivacy));
          step = 'privacy';
        } else {
          const onUrl = invalid.fieldMessages('url');
          messages.url = escapeForMessage(validationText(invalid, onUrl.length > 0 ? onUrl : undefined));
          step = 'url';
        }
        continue;
      }
    }
  }
}

/**
 * New Report…: `Command.createReport(args?: { url, privacy?, password? } | { prefill })`. With
 * `url` it sends without asking; with `prefill` (a link, Analyze Page) it asks with that URL
 * filled in, so nothing is sent without the user's confirmation. Resolves the new report.
 */
export async function createReport(w: Writes, args: CreateReportArgs): Promise<Report | undefined> {
  const api = await requireApi(w.parts.connection);
  if (api === undefined) return undefined;
  return 'send' in args ? createFromArgs(w, api, args.send) : createWithInputs(w, api, args.prefill);
}
