/**
 * The view commands. The commands table (`src/commands/index.ts`) registers them and wraps each in
 * its error policy; these are plain async functions taking the views (`Parts` satisfies `ViewsRef`)
 * and the command's arguments.
 */
import * as vscode from 'vscode';
import * as l10n from '@vscode/l10n';
import type { ProjectsViewApi, ReportsViewApi } from '../parts';
import type { ReportResult } from '../api/types';
import { BACK, quickPickStep as pickStep } from '../ui/input';
import { pickFilters } from './filterPick';
import {
  MAX_FILTER_LENGTH,
  isProjectSortKey,
  isReportResult,
  isReportSortKey,
  isSortDirection,
  normalizeProjectName,
  projectSortChoices,
  reportSortChoices,
  withProjectSearch,
  withProjectSort,
  withReportFilters,
  withReportSort,
  type SortChoice,
} from './query';
import { focusViewCommand, View } from '../ids';
import { isRecord } from '../text/guards';
import { projectName } from '../ui/commandArgs';

/** The views as the commands table has them (`Parts` satisfies this). */
export interface ViewsRef {
  readonly reportsView: ReportsViewApi;
  readonly projectsView: ProjectsViewApi;
}

/** Why filter text cannot be used, or undefined when it can. */
function filterTextProblem(text: string): string | undefined {
  if (text.trim().length > MAX_FILTER_LENGTH) return l10n.t('Use at most {0} characters.', MAX_FILTER_LENGTH);
  // eslint-disable-next-line no-control-regex -- a line break or control character cannot be part of a URL search
  if (/[\u0000-\u001f\u007f]/.test(text)) return l10n.t('Use text without line breaks or control characters.');
  return undefined;
}

/** An argument that is a bad value for a command: says what was expected. */
function badArgument(what: string): Error {
  return new Error(l10n.t('Invalid argument for {0}.', what));
}

// ---- Projects view ------------------------------------------------------------------------

/**
 * `Command.searchProjects`: asks for text in project names (server-side `search`), the
 * current search prefilled; empty text clears it. A string argument is used without asking.
 */
export async function searchProjects(ref: ViewsRef, text?: unknown): Promise<void> {
  const projects = ref.projectsView;
  let search: string | undefined;
  if (typeof text === 'string') {
    if (filterTextProblem(text) !== undefined) throw badArgument('searchProjects');
    search = text;
  } else {
    search = await vscode.window.showInputBox({
      title: l10n.t('Search Projects'),
      prompt: l10n.t('Part of a project name. Leave empty to show all projects.'),
      placeHolder: l10n.t('e.g. shop'),
      value: projects.query.search ?? '',
      validateInput: filterTextProblem,
    });
    if (search === undefined) return;
  }
  await projects.setQuery(withProjectSearch(projects.query, search));
}

/** `Command.sortProjects`: quick pick of created date / name × direction, the current choice marked. */
export async function sortProjects(ref: ViewsRef, choice?: unknown): Promise<void> {
  const projects = ref.projectsView;
  await sortView(projects, choice, 'sortProjects', isProjectSortKey, withProjectSort, () =>
    pickSort(l10n.t('Sort Projects'), projectSortChoices(), projects.query),
  );
}

/**
 * Applies the sort `choice` (checked with `isKey`; the command `command` is named when it is
 * bad) to `view`, or the one the user picks when there is no argument.
 */
async function sortView<K extends string, Q extends { sortBy: K; sort: 'asc' | 'desc' }>(
  view: { readonly query: Q; setQuery(query: Q): Promise<void> },
  choice: unknown,
  command: string,
  isKey: (value: unknown) => value is K,
  withSort: (query: Q, sortBy: K, sort: 'asc' | 'desc') => Q,
  pick: () => Promise<SortChoice<K> | undefined>,
): Promise<void> {
  if (choice !== undefined && (!isRecord(choice) || !isKey(choice.sortBy) || !isSortDirection(choice.sort))) {
    throw badArgument(command);
  }
  const sort = (choice as SortChoice<K> | undefined) ?? (await pick());
  if (sort) await view.setQuery(withSort(view.query, sort.sortBy, sort.sort));
}

/**
 * `Command.showProjectInReports`: sets the Reports view's project filter to the project
 * (a project node, a `Project` or its name) and shows the Reports view.
 */
export async function showProjectInReports(ref: ViewsRef, projectNodeOrName: unknown): Promise<void> {
  const reports = ref.reportsView;
  // A name is trimmed (the panel's project link sends one); a node or object gives its name as is.
  const name =
    typeof projectNodeOrName === 'string' ? normalizeProjectName(projectNodeOrName) : projectName(projectNodeOrName);
  if (name === undefined) throw badArgument('showProjectInReports');
  await reports.setProjectFilter(name);
  // `<viewId>.focus` is the command VS Code defines for every view: it opens and focuses it.
  await vscode.commands.executeCommand(focusViewCommand(View.reports));
}

// ---- Reports view -------------------------------------------------------------------------

interface FilterDraft {
  search: string | undefined;
  result: ReportResult | undefined;
  project: string | undefined;
}

/** Reads `{ search?, project?, result? }`; a present key with a bad value is an error. */
function filterArgument(arg: Record<string, unknown>): Partial<FilterDraft> {
  const change: Partial<FilterDraft> = {};
  for (const key of ['search', 'project'] as const) {
    if (!(key in arg)) continue;
    const value = arg[key];
    if (
      value !== undefined &&
      value !== null &&
      (typeof value !== 'string' || filterTextProblem(value) !== undefined)
    ) {
      throw badArgument('filterReports');
    }
    change[key] = typeof value === 'string' ? value : undefined;
  }
  if ('result' in arg) {
    const value = arg.result;
    if (value !== undefined && value !== null && !isReportResult(value)) throw badArgument('filterReports');
    change.result = isReportResult(value) ? value : undefined;
  }
  return change;
}

/**
 * `Command.filterReports`: one quick pick (`filterPick.ts`): typed text is the URL search, a result
 * and a project are checked; Enter applies them at once (one reload), Escape changes nothing.
 */
export async function filterReports(ref: ViewsRef, filters?: unknown): Promise<void> {
  const reports = ref.reportsView;
  if (filters !== undefined) {
    if (!isRecord(filters)) throw badArgument('filterReports');
    await reports.setQuery(withReportFilters(reports.query, filterArgument(filters)));
    return;
  }
  const current = reports.query;
  const chosen = await pickFilters(
    { search: current.search, result: current.result, project: current.project },
    { projectNames: (search, signal) => reports.projectNames(signal, search), searchProblem: filterTextProblem },
  );
  if (chosen === undefined) return;
  // Onto the query as it is now: the sort may have changed while the picker was open.
  await reports.setQuery(withReportFilters(reports.query, chosen));
}

/**
 * `Command.sortReports`: quick pick of the report sorts (date created, date generated, URL, score ×
 * direction), the current one checked and active.
 */
export async function sortReports(ref: ViewsRef, choice?: unknown): Promise<void> {
  const reports = ref.reportsView;
  await sortView(reports, choice, 'sortReports', isReportSortKey, withReportSort, () =>
    pickSort(l10n.t('Sort Reports'), reportSortChoices(), reports.query),
  );
}

/** The list key of a `loadMore` or `error` node, or undefined. */
function listKeyOf(node: unknown, kind: 'loadMore' | 'error'): string | undefined {
  return isRecord(node) && node.kind === kind && typeof node.listKey === 'string' ? node.listKey : undefined;
}

/** `Command.loadMore`: appends the next page of the list the `Load more` node ends. */
export async function loadMore(ref: ViewsRef, node: unknown): Promise<void> {
  const { reportsView: reports, projectsView: projects } = ref;
  const listKey = listKeyOf(node, 'loadMore');
  if (listKey === undefined) throw badArgument('loadMore');
  if (listKey === 'reports') await reports.loadMore();
  else await projects.loadMore(listKey);
}

/** `Command.retry`: runs the failed step of the list the error node ends (page 1 or the next page). */
export async function retry(ref: ViewsRef, node?: unknown): Promise<void> {
  const { reportsView: reports, projectsView: projects } = ref;
  const listKey = listKeyOf(node, 'error');
  if (listKey === undefined) {
    await Promise.all([reports.retry(), projects.retry('projects')]);
    return;
  }
  if (listKey === 'reports') await reports.retry();
  else await projects.retry(listKey);
}

// ---- Quick input steps --------------------------------------------------------------------

/** The mark of the current choice: a check, and the others aligned with a blank icon. */
function marked<T extends vscode.QuickPickItem>(item: T, current: boolean): T {
  return current
    ? { ...item, iconPath: new vscode.ThemeIcon('check'), picked: true, description: l10n.t('current') }
    : { ...item, iconPath: new vscode.ThemeIcon('blank') };
}

type SortItem<K extends string> = vscode.QuickPickItem & { choice: SortChoice<K> };

async function pickSort<K extends string>(
  title: string,
  choices: SortChoice<K>[],
  current: { sortBy: K; sort: 'asc' | 'desc' },
): Promise<SortChoice<K> | undefined> {
  const items = choices.map((choice) =>
    marked<SortItem<K>>(
      { label: choice.label, choice },
      choice.sortBy === current.sortBy && choice.sort === current.sort,
    ),
  );
  const answer = await pickStep({
    title,
    placeholder: l10n.t('Choose the order of the list'),
    viewStep: true,
    items,
    active: items.find((i) => i.picked === true),
  });
  return answer === undefined || answer === BACK ? undefined : answer.choice;
}
