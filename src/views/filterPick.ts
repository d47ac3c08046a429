/**
 * Filter Reports… in one step: one quick pick where typed text is the URL search, and the results
 * and the service's projects are items to check. The service filters by one result and one project
 * a request, so checking another result or project replaces the one checked.
 */
import * as vscode from 'vscode';
import * as l10n from '@vscode/l10n';
import { REPORT_RESULTS, type ReportResult } from '../api/types';
import { resultLabel } from '../presentation/format';
import { escapeIcons, projectLabel } from './format';
import { normalizeFilterText } from './query';

/** The filters the pick edits. */
export interface Filters {
  readonly search: string | undefined;
  readonly result: ReportResult | undefined;
  readonly project: string | undefined;
}

type Choice =
  { kind: 'search'; text: string } | { kind: 'result'; result: ReportResult } | { kind: 'project'; name: string };
type FilterItem = vscode.QuickPickItem & { choice?: Choice };

/** How long typing pauses before the projects are searched on the service. */
const PROJECT_SEARCH_DELAY_MS = 250;

export interface FilterPickOptions {
  /** The service's project names containing `search` (all when undefined); never rejects. */
  readonly projectNames: (search: string | undefined, signal: AbortSignal) => Promise<string[]>;
  /** Why typed text cannot be a URL search, or undefined when it can. */
  readonly searchProblem: (text: string) => string | undefined;
}

/** Shows the pick; resolves the filters accepted, or undefined when dismissed. */
export function pickFilters(current: Filters, options: FilterPickOptions): Promise<Filters | undefined> {
  return new Promise((resolve) => {
    const pick = vscode.window.createQuickPick<FilterItem>();
    pick.title = l10n.t('Filter Reports');
    pick.placeholder = l10n.t('Type text in the page URL, and check a result and a project');
    pick.canSelectMany = true;
    pick.matchOnDescription = false;
    let draft: Filters = current;
    /** Project names the service gave for the text typed (the current project first). */
    let projects: string[] = current.project === undefined ? [] : [current.project];
    let searching: AbortController | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    /** While the pick's selection is set from the draft, its change event is ours, not the user's. */
    let rendering = false;
    let accepted = false;
    /** Why the text typed cannot be a URL search (a quick pick has no validation message: the URL section says it). */
    let problem: string | undefined;

    const render = (): void => {
      const items: FilterItem[] = [];
      if (problem !== undefined) items.push(separator(l10n.t('Page URL: {0}', problem)));
      else if (draft.search !== undefined) {
        items.push(separator(l10n.t('Page URL')), {
          label: l10n.t('URL contains "{0}"', escapeIcons(draft.search)),
          iconPath: new vscode.ThemeIcon('search'),
          alwaysShow: true,
          choice: { kind: 'search', text: draft.search },
        });
      }
      items.push(separator(l10n.t('Result')));
      for (const result of REPORT_RESULTS) {
        items.push({ label: resultLabel(result), alwaysShow: true, choice: { kind: 'result', result } });
      }
      const names =
        draft.project === undefined || projects.includes(draft.project) ? projects : [draft.project, ...projects];
      if (names.length > 0) items.push(separator(l10n.t('Project')));
      for (const name of names) {
        const label = escapeIcons(projectLabel(name));
        items.push({
          label,
          // A name shown in Unicode keeps its ASCII form beside it, as the service knows it.
          description: label === name ? undefined : escapeIcons(name),
          alwaysShow: true,
          choice: { kind: 'project', name },
        });
      }
      rendering = true;
      pick.items = items;
      pick.selectedItems = items.filter((item) => isChosen(item.choice, draft));
      rendering = false;
    };

    const searchProjects = (text: string | undefined): void => {
      searching?.abort();
      const controller = new AbortController();
      searching = controller;
      pick.busy = true;
      void options.projectNames(text, controller.signal).then((names) => {
        if (searching !== controller) return;
        searching = undefined;
        pick.busy = false;
        projects = names;
        render();
      });
    };

    pick.onDidChangeValue((value) => {
      const text = normalizeFilterText(value);
      problem = text === undefined ? undefined : options.searchProblem(value);
      // Typed text is the URL search; emptied, the search goes back to the one the view had.
      draft = { ...draft, search: text !== undefined && problem === undefined ? text : current.search };
      render();
      if (timer !== undefined) clearTimeout(timer);
      timer = setTimeout(() => searchProjects(text), PROJECT_SEARCH_DELAY_MS);
    });

    pick.onDidChangeSelection((selected) => {
      if (rendering) return;
      const next = fromSelection(selected, draft);
      // A project found by the text typed: the text was for finding it, not a URL search too.
      const typed = normalizeFilterText(pick.value);
      if (
        next.project !== undefined &&
        next.project !== draft.project &&
        typed !== undefined &&
        next.search === typed &&
        projectLabel(next.project).toLowerCase().includes(typed.toLowerCase())
      ) {
        draft = { ...next, search: current.search };
      } else draft = next;
      render();
    });

    pick.onDidAccept(() => {
      if (problem !== undefined) return;
      accepted = true;
      pick.hide();
    });

    pick.onDidHide(() => {
      searching?.abort();
      if (timer !== undefined) clearTimeout(timer);
      pick.dispose();
      resolve(accepted ? draft : undefined);
    });

    render();
    pick.show();
    searchProjects(undefined);
  });
}

function separator(label: string): FilterItem {
  return { label, kind: vscode.QuickPickItemKind.Separator };
}

function isChosen(choice: Choice | undefined, filters: Filters): boolean {
  switch (choice?.kind) {
    case 'search':
      return filters.search === choice.text;
    case 'result':
      return filters.result === choice.result;
    case 'project':
      return filters.project === choice.name;
    default:
      return false;
  }
}

/** The filters a selection stands for: of two results (or projects) checked, the one just checked wins. */
function fromSelection(selected: readonly FilterItem[], before: Filters): Filters {
  const choices = selected.flatMap((item) => (item.choice === undefined ? [] : [item.choice]));
  const results = choices.flatMap((c) => (c.kind === 'result' ? [c.result] : []));
  const projects = choices.flatMap((c) => (c.kind === 'project' ? [c.name] : []));
  const search = choices.find((c) => c.kind === 'search');
  return {
    search: search?.kind === 'search' ? search.text : undefined,
    result: results.find((r) => r !== before.result) ?? results[0],
    project: projects.find((p) => p !== before.project) ?? projects[0],
  };
}
