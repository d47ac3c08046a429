/**
 * Links into and out of the editor: Copy Link to Report
 * (`${uriScheme}://page-reports.page-reports/report?id=42&service=SERVICE_URL`), the URI
 * handler (`/report?id=…&service=…`, `/new?url=…`) and Analyze Page. A link never sends a
 * write by itself, and a `service=` the machine does not know is refused, never contacted.
 */
import * as vscode from 'vscode';
import * as l10n from '@vscode/l10n';
import type { ReportId } from '../api/types';
import { originOf } from '../services/labels';
import { indexedOrigins } from '../services/keyIndex';
import { knownServices } from '../services/knownServices';
import { askForMissingKey, setServiceUrl } from '../services/commands';
import type { Parts } from '../parts';
import { reportTargets } from './refs';
import { isPrefillUrl } from './create';
import { switchQuestion } from './linkQuestion';
import { confirmModal, flash, offerCommand, requireApi, type ConfirmOptions } from '../ui/notify';
import { escapeForMessage } from '../text/text';
import { truncate } from '../presentation/format';
import { linkQuery } from '../text/urls';
import { parseServiceUrl } from '../api/serviceUrl';
import { Command, EXTENSION_ID } from '../ids';

/** What the handler did with a URI (tests read it through the test hook). */
export type UriOutcome = 'opened' | 'prefilled' | 'refused' | 'cancelled';

/**
 * The known service a link's `service=` names, or undefined: the current one, those Switch
 * Service… lists, or an origin with a stored key. A bare origin (older links) means the known
 * service there, the current one first.
 */
export function linkedService(parts: Pick<Parts, 'context' | 'connection'>, service: string): string | undefined {
  const parsed = parseServiceUrl(service);
  if (!parsed.ok) return undefined;
  const { globalState } = parts.context;
  const services = [parts.connection.serviceUrl, ...knownServices(globalState).map((s) => s.url)].filter(
    (url): url is string => url !== undefined,
  );
  if (services.includes(parsed.url)) return parsed.url;
  const origin = originOf(parsed.url);
  const there = services.find((url) => originOf(url) === origin);
  if (parsed.url === origin && there !== undefined) return there;
  // Another path on a known origin: the same key's service; switching to it is asked first.
  return [...services.map(originOf), ...indexedOrigins(globalState)].includes(origin) ? parsed.url : undefined;
}

/**
 * A report id as a link may carry it: a positive integer (taken as a number, as the service
 * sends it), or a short token of letters, digits, `-` and `_` starting with a letter or digit
 * (services with text ids). Anything else is no report id.
 */
export function linkReportId(text: string | null): ReportId | undefined {
  if (text === null) return undefined;
  if (/^[1-9]\d{0,14}$/.test(text)) return Number(text);
  return /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/.test(text) && !/^\d+$/.test(text) ? text : undefined;
}

/** The link to a report on the service at `serviceUrl`, for outside VS Code. */
export async function reportLink(id: ReportId, serviceUrl: string): Promise<string> {
  const query = new URLSearchParams({ id: String(id), service: serviceUrl }).toString();
  const internal = vscode.Uri.parse(`${vscode.env.uriScheme}://${EXTENSION_ID}/report?${query}`, true);
  const external = await vscode.env.asExternalUri(internal);
  return external.toString(true);
}

/** The URL under the cursor, or the selection when it is one. */
export function urlAt(document: vscode.TextDocument, selection: vscode.Selection): string | undefined {
  const candidate = selection.isEmpty
    ? (() => {
        const range = document.getWordRangeAtPosition(selection.active, /https?:\/\/[^\s"'<>[\]{}`]+/i);
        return range ? document.getText(range) : undefined;
      })()
    : document.getText(selection);
  const text = candidate === undefined ? undefined : withoutTrailingPunctuation(candidate.trim());
  return text !== undefined && isPrefillUrl(text) ? text : undefined;
}

/**
 * A URL as written in prose: without the sentence's punctuation after it, nor a closing
 * parenthesis it does not open (`(see https://example.com/a)`), while one it opens stays
 * (`https://en.wikipedia.org/wiki/Foo_(bar)`).
 */
function withoutTrailingPunctuation(url: string): string {
  let text = url;
  for (;;) {
    const trimmed = text.replace(/[.,;:!?]+$/, '');
    const opens = trimmed.split('(').length - 1;
    const closes = trimmed.split(')').length - 1;
    const next = trimmed.endsWith(')') && closes > opens ? trimmed.slice(0, -1) : trimmed;
    if (next === text) return text;
    text = next;
  }
}

export function linkCommands(parts: Parts) {
  const { log } = parts;

  /** Copy Link to Report: one link a line for a selection. Resolves the text copied. */
  async function copyLink(item?: unknown, selected?: unknown): Promise<string | undefined> {
    const api = await requireApi(parts.connection);
    const serviceUrl = parts.connection.serviceUrl;
    if (api === undefined || serviceUrl === undefined) return undefined;
    const refs = await reportTargets(api, item, selected, l10n.t('Copy the link of which report?'));
    if (refs.length === 0) return undefined;
    // Only ids the handler takes back (linkReportId): a link that can only be refused helps no one.
    const unlinkable = refs.filter((ref) => linkReportId(String(ref.id)) === undefined);
    if (unlinkable.length > 0) {
      void vscode.window.showWarningMessage(
        l10n.t(
          'No link for report {0}: its id is not one a link can carry. Copy URL gives the page it is about.',
          escapeForMessage(unlinkable.map((ref) => String(ref.id).slice(0, 80)).join(', ')),
        ),
      );
    }
    const linkable = refs.filter((ref) => !unlinkable.includes(ref));
    if (linkable.length === 0) return undefined;
    const links = await Promise.all(linkable.map((ref) => reportLink(ref.id, serviceUrl)));
    const text = links.join('\n');
    await vscode.env.clipboard.writeText(text);
    if (vscode.env.uiKind === vscode.UIKind.Web) {
      // The web workbench's callback URL: it works in this tab only, while the tab stays open.
      flash(
        links.length === 1
          ? l10n.t('Link copied: it opens the report in this browser tab while the tab stays open.')
          : l10n.t(
              '{0} links copied: they open the reports in this browser tab while the tab stays open.',
              links.length,
            ),
      );
    } else flash(links.length === 1 ? l10n.t('Link copied.') : l10n.t('{0} links copied.', links.length));
    return text;
  }

  /**
   * Makes `service` (a service URL from a link) the current service: nothing to do when it is;
   * asks first when it is another known one; refuses an unknown one; asks for a missing key.
   * Resolves whether the link may go on.
   */
  async function useService(service: string | null, options?: ConfirmOptions): Promise<boolean> {
    // The current service without a key asks for it, as a switch does: the link goes on with one.
    if (service === null) return askForMissingKey(parts, parts.connection);
    const target = linkedService(parts, service);
    if (target === undefined) {
      // Only its origin is shown, at most 100 characters of it (a host has no length limit): the
      // rest is the link's own text, which any web page can write to read as a message from the
      // editor ("Your API key expired: paste it at …").
      const whole = /^https?:\/\//i.test(service) ? originOf(service) : undefined;
      const origin = whole && truncate(whole, 100).text;
      log.warn(
        `Refused a link naming a service this machine does not know (${origin ?? 'not a service URL'}; not contacted).`,
      );
      void vscode.window.showErrorMessage(
        origin === undefined
          ? l10n.t('The link does not name a service URL. Nothing was contacted.')
          : l10n.t(
              'The link names a service Page Reports does not know ({0}). It was not contacted; set it up with Set Service URL… first.',
              escapeForMessage(origin),
            ),
      );
      return false;
    }
    if (target === parts.connection.serviceUrl) return askForMissingKey(parts, parts.connection);
    const known = knownServices(parts.context.globalState).some((s) => s.url === target);
    const question = switchQuestion(target, known);
    const ok = await confirmModal(parts.context, question.message, question.detail, question.button, options);
    if (!ok || !(await setServiceUrl(parts, target))) return false;
    // A known service without a key asks for it, as Switch Service… does; the link goes on with one.
    return askForMissingKey(parts, parts.connection);
  }

  /** Handles a URI opened for this extension. Never throws; resolves what it did. */
  async function handleUri(uri: vscode.Uri, options?: ConfirmOptions): Promise<UriOutcome> {
    const params = new URLSearchParams(uri.query);
    log.info(`Handling a link to ${uri.path.slice(0, 40)}.`);
    if (uri.path === '/report') {
      const id = linkReportId(params.get('id'));
      if (id === undefined) {
        void vscode.window.showErrorMessage(l10n.t('The link does not name a report: its id must be a report id.'));
        return 'refused';
      }
      if (!(await useService(params.get('service'), options))) return 'refused';
      if ((await requireApi(parts.connection)) === undefined) return 'cancelled';
      await parts.panels.open(id);
      return 'opened';
    }
    if (uri.path === '/new') {
      const linked = linkQuery(uri.query);
      const url = linked.url?.trim() ?? '';
      if (!isPrefillUrl(url)) {
        void vscode.window.showErrorMessage(l10n.t('The link does not hold an http or https URL to analyze.'));
        return 'refused';
      }
      if (!(await useService(linked.params.get('service'), options))) return 'refused';
      // New Report… asks, with the URL filled in: nothing is sent until the user confirms.
      void vscode.commands.executeCommand(Command.createReport, { prefill: url });
      return 'prefilled';
    }
    void vscode.window.showErrorMessage(l10n.t('Page Reports cannot open this link.'));
    return 'refused';
  }

  /**
   * Analyze Page: the editor's selection, else the URL under the cursor, into New Report….
   * Resolves the URL it started with, or undefined after saying there was none.
   */
  function analyzeUrl(): string | undefined {
    const editor = vscode.window.activeTextEditor;
    const url = editor ? urlAt(editor.document, editor.selection) : undefined;
    if (url === undefined) {
      // New Report… asks for one instead.
      offerCommand(
        vscode.window.showInformationMessage,
        l10n.t('Select a URL, or put the cursor on one, to analyze its page.'),
        l10n.t('New Report…'),
        Command.createReport,
      );
      return undefined;
    }
    // Without a key, New Report… would only say so, and the URL be lost: the key is asked for first.
    void askForMissingKey(parts, parts.connection).then(
      (ok) => ok && vscode.commands.executeCommand(Command.createReport, { prefill: url }),
    );
    return url;
  }

  return { copyLink, handleUri, analyzeUrl };
}
