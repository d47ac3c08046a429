/**
 * Turns what a command was invoked with (a tree node, a report (the panel's), `{ id }`,
 * a bare id, or nothing from the palette) into the reports or project it acts on.
 */
import * as vscode from 'vscode';
import * as l10n from '@vscode/l10n';
import type { Project, Report, ReportsApi } from '../api/types';
import { escapeForMessage, escapeIcons, singleLine } from '../text/text';
import { reportName } from '../views/format';
import { resultLabel } from '../presentation/format';
import { describe } from '../ui/notify';
import { isOptions } from '../text/guards';
import { reportRefs, type ReportRef } from '../ui/commandArgs';
import { isListSummary } from '../views/summary';

/** The report behind `ref`, asking the service when the caller only had its id. */
export async function loadReport(api: ReportsApi, ref: ReportRef): Promise<Report> {
  return ref.report ?? api.getReport(ref.id);
}

/**
 * The whole report behind `ref`, analysis included: a list's copy is a summary without it
 * (`views/summary.ts`), so that one is asked of the service too.
 */
export async function loadWholeReport(api: ReportsApi, ref: ReportRef): Promise<Report> {
  return holdsWholeReport(ref) ? ref.report : api.getReport(ref.id);
}

/** Whether `ref` carries the whole report (a panel's), not a list row's summary. */
export function holdsWholeReport(ref: ReportRef): ref is ReportRef & { report: Report } {
  return ref.report !== undefined && !isListSummary(ref.report);
}

/** The URL without its scheme, as the Reports view shows it. */
export function displayUrl(url: string): string {
  return url.replace(/^https?:\/\//i, '');
}

/**
 * A report as a message names it, escaped for a notification or the status bar: its page
 * (`/keyboard on shop.example`) when the command was given the report, else `report 42`.
 */
export function refName(ref: ReportRef): string {
  return escapeForMessage(ref.report ? reportName(ref.report) : l10n.t('report {0}', String(ref.id)));
}

/** Short description of a report for pickers and confirmations: `#42 · Decent · 72`. */
export function reportSummary(report: Report): string {
  const parts = [`#${singleLine(String(report.id))}`];
  if (report.result !== undefined) parts.push(resultLabel(report.result));
  if (report.score !== undefined) parts.push(String(Math.round(report.score)));
  return parts.join(' · ');
}

interface ServerPickOptions<T> {
  title: string;
  placeholder: string;
  /** One page of candidates for the typed text (server-side search). */
  load: (search: string, signal: AbortSignal) => Promise<T[]>;
  toItem: (value: T) => vscode.QuickPickItem;
}

type PickItem<T> = vscode.QuickPickItem & { value?: T };

/**
 * A quick pick whose items come from the server's search as the user types; an older answer
 * never replaces a newer one, and Enter before the answer takes that answer's first item, not
 * a row of the older list. Resolves undefined when dismissed.
 */
function serverPick<T>(options: ServerPickOptions<T>): Promise<T | undefined> {
  return new Promise<T | undefined>((resolve) => {
    const pick = vscode.window.createQuickPick<PickItem<T>>();
    pick.title = options.title;
    pick.placeholder = options.placeholder;
    pick.matchOnDescription = true;
    let controller: AbortController | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let result: T | undefined;
    // Whether the items answer what is typed, and whether Enter waits for the answer.
    let answered = false;
    let acceptOnAnswer = false;
    const accept = (value: T | undefined): void => {
      if (value === undefined) return;
      result = value;
      pick.hide();
    };

    const load = (search: string): void => {
      controller?.abort();
      const current = new AbortController();
      controller = current;
      pick.busy = true;
      options.load(search, current.signal).then(
        (values) => {
          if (controller !== current) return;
          pick.busy = false;
          // The server already filtered by the typed text: keep its answer visible even
          // where the label (URL without scheme) does not contain the text literally.
          pick.items = values.map((value) => ({ ...options.toItem(value), alwaysShow: true, value }));
          if (values.length === 0) {
            pick.items = [{ label: l10n.t('Nothing matches “{0}”.', escapeIcons(search)), alwaysShow: true }];
          }
          // An answer that arrives after more was typed answers the older text.
          answered = search === pick.value.trim();
          if (answered && acceptOnAnswer) accept(values[0]);
          if (answered) acceptOnAnswer = false;
        },
        (e: unknown) => {
          // Only this picker's own abort ends a load silently (another search replaced it, or
          // the picker closed); a load the connection stopped (a switch of service) says so.
          if (controller !== current || current.signal.aborted) return;
          pick.busy = false;
          pick.items = [{ label: `$(error) ${escapeIcons(describe(e).message)}`, alwaysShow: true }];
          answered = search === pick.value.trim();
          if (answered) acceptOnAnswer = false;
        },
      );
    };

    pick.onDidChangeValue((value) => {
      // An Enter waiting for the answer to the text before is for that text only.
      answered = false;
      acceptOnAnswer = false;
      clearTimeout(timer);
      timer = setTimeout(() => load(value.trim()), 250);
    });
    pick.onDidAccept(() => {
      if (answered) accept(pick.selectedItems[0]?.value);
      // Nothing typed yet: nothing was asked for (the first list is still on its way).
      else if (pick.value.trim() !== '') acceptOnAnswer = true;
    });
    pick.onDidHide(() => {
      clearTimeout(timer);
      controller?.abort();
      pick.dispose();
      resolve(result);
    });
    load('');
    pick.show();
  });
}

/** Asks which report, searching the service by URL as the user types. */
export async function pickReport(api: ReportsApi, title: string): Promise<ReportRef | undefined> {
  const report = await serverPick<Report>({
    title,
    placeholder: l10n.t('Type to search reports by URL'),
    load: async (search, signal) =>
      (await api.listReports({ ...(search ? { search } : {}), perPage: 25 }, 1, signal)).items,
    toItem: (r) => ({ label: escapeIcons(displayUrl(r.url)), description: escapeIcons(reportSummary(r)) }),
  });
  return report ? { id: report.id, report } : undefined;
}

/**
 * The reports a command acts on: the clicked item and selection, else (invoked from the
 * palette, or with only options) the one the user picks, asked with `title`.
 */
export async function reportTargets(
  api: ReportsApi,
  item: unknown,
  selected: unknown,
  title: string,
): Promise<ReportRef[]> {
  const refs = reportRefs(item, selected);
  if (refs.length > 0) return refs;
  if (item !== undefined && !isOptions(item)) throw new Error(`Not a report: ${typeof item}`);
  const picked = await pickReport(api, title);
  return picked ? [picked] : [];
}

/** Asks which project, searching the service by name as the user types. */
export async function pickProject(api: ReportsApi, title: string): Promise<string | undefined> {
  const project = await serverPick<Project>({
    title,
    placeholder: l10n.t('Type to search projects by name'),
    load: async (search, signal) =>
      (await api.listProjects({ ...(search ? { search } : {}), perPage: 25 }, 1, signal)).items,
    toItem: (p) => ({ label: escapeIcons(p.name) }),
  });
  return project?.name;
}
