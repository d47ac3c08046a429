/**
 * `Command.showInsights`: opens a project's insights (`{ project: null }` for all projects), or
 * asks in a quick pick that starts with `All projects`.
 */
import * as vscode from 'vscode';
import * as l10n from '@vscode/l10n';
import { isApiError } from '../api/errors';
import type { ReportsApi } from '../api/types';
import { projectName } from '../ui/commandArgs';
import { describe, requireApi } from '../ui/notify';
import { runAction, wayForward } from '../ui/errorReporter';
import { isOptions } from '../text/guards';
import { escapeIcons } from '../text/text';
import type { Parts } from '../parts';
import { allProjectsLabel } from './strings';

/** The projects the quick pick pages in per request (the list's largest page). */
const PROJECT_PAGE_SIZE = 100;

/** What the argument asks for: a project, all (null), or nothing (ask). */
export function insightsTarget(arg: unknown): { project: string | null } | undefined {
  if (isOptions(arg) && 'project' in arg && arg.project === null) return { project: null };
  const name = projectName(arg);
  if (name !== undefined) return { project: name };
  if (arg === undefined || (isOptions(arg) && !('project' in arg))) return undefined;
  throw new Error(l10n.t('Show Insights needs a project name, or null for all projects.'));
}

export async function showInsights(parts: Parts, arg: unknown): Promise<void> {
  const target = insightsTarget(arg);
  if (target) return parts.insights.open(target.project);
  const api = await requireApi(parts.connection);
  if (!api) return;
  const picked = await pickInsightsProject(api);
  if (picked !== undefined) await parts.insights.open(picked.project);
}

/**
 * A project, All projects (null), or (`failure`) the row of a failed page: choosing it loads
 * the page again, or takes the way forward where a retry would fail the same way.
 */
type ProjectItem = vscode.QuickPickItem & { project?: string | null; failure?: { way: vscode.Command | undefined } };

/**
 * Asks which project: `All projects` first and preselected, then every project by name, a page at a
 * time while the pick is open (typing filters what is loaded). Resolves undefined when dismissed.
 */
function pickInsightsProject(api: ReportsApi): Promise<{ project: string | null } | undefined> {
  return new Promise((resolve) => {
    const pick = vscode.window.createQuickPick<ProjectItem>();
    pick.title = l10n.t('Show Insights');
    pick.placeholder = l10n.t('All projects, or one project');
    const all: ProjectItem = { label: allProjectsLabel(), project: null, iconPath: new vscode.ThemeIcon('graph') };
    const projects: ProjectItem[] = [];
    const listed = new Set<string>();
    pick.items = [all];
    pick.activeItems = [all];
    const controller = new AbortController();
    let result: { project: string | null } | undefined;
    /** The page to ask for next: a Retry goes on from the one that failed. */
    let nextPage = 1;

    const loadPages = async (): Promise<void> => {
      pick.busy = true;
      try {
        for (; !controller.signal.aborted; nextPage++) {
          const answer = await api.listProjects(
            { sortBy: 'project', sort: 'asc', perPage: PROJECT_PAGE_SIZE },
            nextPage,
            controller.signal,
          );
          if (controller.signal.aborted) return;
          // Each name once: a service that ignores page= sends page 1 again (then the list ends).
          const fresh = answer.items.filter((p) => !listed.has(p.name));
          for (const p of fresh) listed.add(p.name);
          projects.push(
            ...fresh.map((p): ProjectItem => ({
              label: escapeIcons(p.name),
              project: p.name,
              iconPath: new vscode.ThemeIcon('project'),
            })),
          );
          const active = pick.activeItems[0] ?? all;
          pick.items = [all, { label: '', kind: vscode.QuickPickItemKind.Separator }, ...projects];
          // Keep the user's place while pages arrive. Not once they type: the place may be filtered
          // out, and VS Code highlights the first match (Enter then takes it).
          if (pick.value === '') pick.activeItems = [pick.items.find((i) => i === active) ?? all];
          if (!answer.hasMore || fresh.length === 0) break;
        }
      } catch (e) {
        if (controller.signal.aborted || isApiError(e, 'cancelled')) return;
        // The projects loaded stay; choosing the row asks for the page that failed again, or
        // (a wrong service URL, a rejected key) opens the settings or asks for the key.
        const { message, actions } = describe(e);
        const way = wayForward(actions);
        const failed: ProjectItem = {
          label: `$(error) ${escapeIcons(message)}`,
          description: way?.title ?? l10n.t('Retry'),
          failure: { way },
          alwaysShow: true,
        };
        pick.items = [...pick.items, failed];
      } finally {
        if (!controller.signal.aborted) pick.busy = false;
      }
    };

    pick.onDidAccept(() => {
      // Enter while a page of projects replaces the items can leave no selection: the
      // highlighted item is the choice then.
      const chosen = pick.selectedItems[0] ?? pick.activeItems[0];
      if (chosen?.failure?.way) {
        pick.hide();
        void runAction(chosen.failure.way);
        return;
      }
      if (chosen?.failure) {
        pick.items = pick.items.filter((item) => item !== chosen);
        void loadPages();
        return;
      }
      if (chosen?.project === undefined) return;
      result = { project: chosen.project };
      pick.hide();
    });
    pick.onDidHide(() => {
      controller.abort();
      pick.dispose();
      resolve(result);
    });
    pick.show();
    void loadPages();
  });
}
