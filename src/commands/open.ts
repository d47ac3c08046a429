/**
 * Reading commands on reports: Open Report, Open Page in Browser, Open on Service, Copy URL.
 * Only `http:` and `https:` URLs are ever opened; the API key is never part of a URL.
 */
import * as vscode from 'vscode';
import * as l10n from '@vscode/l10n';
import type { Report, ReportsApi } from '../api/types';
import type { Parts } from '../parts';
import type { ReportRef } from '../ui/commandArgs';
import { loadReport, reportTargets } from './refs';
import { flash, idText, offerSettingFix, openInBrowser, requireApi } from '../ui/notify';
import { DEFAULT_REPORT_PAGE_URL, openableUrl, reportPageUrl } from '../text/urls';
import { clipboardUrls } from '../text/text';
import { Setting } from '../ids';

/** Most panels (or browser tabs) one command on a selection opens. */
const MAX_OPEN = 10;

/** Says that a selection of more than {@link MAX_OPEN} opened only the first `opened`. */
function sayCapped(selected: number, opened = MAX_OPEN): void {
  if (selected <= MAX_OPEN) return;
  void vscode.window.showInformationMessage(
    l10n.t('Opened {0} of the {1} selected reports (at most {2} at once).', opened, selected, MAX_OPEN),
  );
}

/** The handlers of the reading commands. */
export function reportOpenCommands(parts: Parts) {
  const { errors } = parts;

  /** The full reports, fetching those the caller only named by id. */
  async function reportsOf(api: ReportsApi, refs: readonly ReportRef[]): Promise<Report[]> {
    return Promise.all(refs.map((ref) => loadReport(api, ref)));
  }

  /** Open Report: opens (or reveals) the panel of each selected report. */
  async function openReport(item?: unknown, selected?: unknown): Promise<void> {
    const api = await requireApi(parts.connection);
    if (api === undefined) return;
    const refs = await reportTargets(api, item, selected, l10n.t('Open which report?'));
    for (const ref of refs.slice(0, MAX_OPEN)) await parts.panels.open(ref.id, ref.report);
    sayCapped(refs.length);
  }

  /** Open Page in Browser: the analysed page itself, only when its URL is http(s). */
  async function openPage(item?: unknown, selected?: unknown): Promise<boolean> {
    const api = await requireApi(parts.connection);
    if (api === undefined) return false;
    const refs = await reportTargets(api, item, selected, l10n.t('Open the page of which report?'));
    let opened = 0;
    for (const report of await reportsOf(api, refs.slice(0, MAX_OPEN))) {
      // The one rule for URLs from the service: what VS Code opens is the host shown.
      const url = openableUrl(report.url);
      if (url === undefined) {
        void vscode.window.showWarningMessage(
          l10n.t('Report {0} has no http or https URL to open.', idText(report.id)),
        );
        continue;
      }
      if (await openInBrowser(url)) opened++;
    }
    sayCapped(refs.length, opened);
    return opened > 0;
  }

  /** Open on Service: the service's own page of the report (setting `Setting.reportPageUrl`). */
  async function openOnService(item?: unknown, selected?: unknown): Promise<boolean> {
    const api = await requireApi(parts.connection);
    const baseUrl = parts.connection.serviceUrl;
    if (api === undefined || baseUrl === undefined) return false;
    const refs = await reportTargets(api, item, selected, l10n.t('Open which report on the service?'));
    const template = vscode.workspace.getConfiguration().get<string>(Setting.reportPageUrl) || DEFAULT_REPORT_PAGE_URL;
    let opened = 0;
    for (const ref of refs.slice(0, MAX_OPEN)) {
      const url = reportPageUrl(template, baseUrl, ref.id);
      if (url === undefined) {
        offerSettingFix(Setting.reportPageUrl);
        return false;
      }
      if (await openInBrowser(url)) opened++;
    }
    sayCapped(refs.length, opened);
    return opened > 0;
  }

  /** Copy URL: the analysed page's URL (for a selection, each, separated by spaces) to the clipboard, on one line. */
  async function copyUrl(item?: unknown, selected?: unknown): Promise<string | undefined> {
    const api = await requireApi(parts.connection);
    if (api === undefined) return undefined;
    const refs = await reportTargets(api, item, selected, l10n.t('Copy the page URL of which report?'));
    if (refs.length === 0) return undefined;
    try {
      const urls = (await reportsOf(api, refs)).map((r) => r.url);
      const text = clipboardUrls(urls);
      await vscode.env.clipboard.writeText(text);
      flash(urls.length === 1 ? l10n.t('URL copied.') : l10n.t('{0} URLs copied.', urls.length));
      return text;
    } catch (e) {
      errors.report(e, { action: l10n.t("Couldn't copy the page URL") });
      return undefined;
    }
  }

  return { openReport, openPage, openOnService, copyUrl };
}
