/**
 * Takes over both tree views activation created (views/shell.ts). Nothing is fetched here:
 * each view loads when VS Code first asks for its children, which it does only once the view
 * is visible.
 */
import type * as vscode from 'vscode';
import { startAutoRefresh } from './autoRefresh';
import { ProjectsView } from './projectsView';
import { ReportsView } from './reportsView';
import type { TreeShells } from './shell';
import type { ViewDeps } from './viewBase';

export type { ViewDeps } from './viewBase';

/** The views, as concrete classes (they implement `ReportsViewApi` / `ProjectsViewApi`). */
export interface RegisteredViews extends vscode.Disposable {
  readonly reportsView: ReportsView;
  readonly projectsView: ProjectsView;
}

/**
 * Makes the Reports and Projects views answer for their shells. Also refreshes both when the
 * error reporter says a report or project no longer exists (its `onNotFound`, when it has
 * one), so lists drop it.
 */
export function registerViews(deps: ViewDeps, shells: TreeShells): RegisteredViews {
  const reportsView = new ReportsView(deps, shells.reports);
  const projectsView = new ProjectsView(deps, reportsView, shells.projects);
  const disposables: vscode.Disposable[] = [
    startAutoRefresh([reportsView, projectsView], deps.connection),
    projectsView,
    reportsView,
  ];
  const notFound = (deps.errors as { onNotFound?: vscode.Event<unknown> }).onNotFound;
  if (notFound) {
    disposables.push(
      notFound(() => {
        void reportsView.refresh();
        void projectsView.refresh();
      }),
    );
  }
  return {
    reportsView,
    projectsView,
    dispose() {
      for (const d of disposables) d.dispose();
    },
  };
}

export { VIEWS_TEST_HOOK } from './shell';
