/**
 * Takes over both tree views activation created (src/views/shell.ts). Nothing is fetched here: each
 * view loads when VS Code first asks for its children, which it does only once the view is visible.
 */
import * as vscode from 'vscode';
import { Setting } from '../ids';
import { startAutoRefresh } from './autoRefresh';
import { startDateRedraws } from './dateRedraw';
import { ProjectsView } from './projectsView';
import { ReportsView } from './reportsView';
import type { ProjectsViewApi, ReportsViewApi } from '../parts';
import type { TreeShells } from './shell';
import type { ViewDeps } from './viewBase';

export type { ViewDeps } from './viewBase';

/** The views, as the parts use them; disposing this disposes both. */
export interface RegisteredViews extends vscode.Disposable {
  readonly reportsView: ReportsViewApi;
  readonly projectsView: ProjectsViewApi;
}

/**
 * Makes the Reports and Projects views answer for their shells. Also refreshes both when the error
 * reporter says a report or project no longer exists (its `onNotFound`), so lists drop it.
 */
export function registerViews(deps: ViewDeps, shells: TreeShells): RegisteredViews {
  const reportsView = new ReportsView(deps, shells.reports);
  const projectsView = new ProjectsView(deps, reportsView, shells.projects);
  const disposables: vscode.Disposable[] = [
    startAutoRefresh([reportsView, projectsView], deps.connection),
    startDateRedraws([reportsView, projectsView]),
    projectsView,
    reportsView,
    // Open Source shows on the rows whose page maps to a file: the mapping is this setting.
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration(Setting.sources)) return;
      reportsView.redrawRows();
      projectsView.redrawRows();
    }),
  ];
  disposables.push(
    // A 404: the lists refresh, the pages loaded staying.
    deps.errors.onNotFound(() => {
      void reportsView.refresh(true);
      void projectsView.refresh(true);
    }),
  );
  return {
    reportsView,
    projectsView,
    dispose() {
      for (const d of disposables) d.dispose();
    },
  };
}
