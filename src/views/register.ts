/**
 * Creates both tree views. Nothing is fetched here: each view loads when VS Code first asks
 * for its children, which it does only once the view is visible.
 */
import * as vscode from 'vscode';
import { ProjectsView } from './projectsView';
import { ReportsView } from './reportsView';
import type { ViewDeps } from './viewBase';

export type { ViewDeps } from './viewBase';

/** The views, as concrete classes (they implement `ReportsViewApi` / `ProjectsViewApi`). */
export interface RegisteredViews extends vscode.Disposable {
  readonly reportsView: ReportsView;
  readonly projectsView: ProjectsView;
}

/**
 * Registers the Reports and Projects views. Also refreshes both when the error reporter says
 * a report or project no longer exists (its `onNotFound`, when it has one), so lists drop it.
 */
export function registerViews(deps: ViewDeps): RegisteredViews {
  const reportsView = new ReportsView(deps);
  const projectsView = new ProjectsView(deps, reportsView);
  const disposables: vscode.Disposable[] = [projectsView, reportsView];
  const notFound = (deps.errors as { onNotFound?: vscode.Event<unknown> }).onNotFound;
  if (notFound) {
    disposables.push(
      notFound(() => {
        void reportsView.refresh();
        void projectsView.refresh();
      }),
    );
  }
  const views: RegisteredViews = {
    reportsView,
    projectsView,
    dispose() {
      if (testHook()[VIEWS_TEST_HOOK] === views) delete testHook()[VIEWS_TEST_HOOK];
      for (const d of disposables) d.dispose();
    },
  };
  // Integration tests read the providers' children; only in the extension's test mode.
  if (deps.context.extensionMode === vscode.ExtensionMode.Test) testHook()[VIEWS_TEST_HOOK] = views;
  return views;
}

/**
 * Where the views are published while the extension runs its integration tests
 * (`ExtensionMode.Test`): `globalThis[Symbol.for('pageReports.views')]`. Never set otherwise.
 */
export const VIEWS_TEST_HOOK = Symbol.for('pageReports.views');

function testHook(): Record<symbol, unknown> {
  return globalThis;
}
