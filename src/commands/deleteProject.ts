/**
 * Delete Project…: a modal confirmation that names the project and says its reports go with
 * it, then one DELETE. A 404 means the project is gone already, which is the goal.
 */
import * as l10n from '@vscode/l10n';
import { unicodeHost } from '../text/pages';
import { isApiError } from '../api/errors';
import type { ReportsApi } from '../api/types';
import { projectName } from '../ui/commandArgs';
import { pickProject } from './refs';
import { escapeIcons, singleLine } from '../text/text';
import { confirmModal, countText, flash, requireApi, windowProgress, type ConfirmOptions } from '../ui/notify';
import { truncate } from '../presentation/format';
import { isOptions } from '../text/guards';
import { deletedOrGone, type Writes } from './writes';
import type { Log } from '../log';
import { Command } from '../ids';

/** How many reports the project has, when the service says; never fails. */
async function reportCount(log: Log, api: ReportsApi, project: string): Promise<number | undefined> {
  try {
    const page = await api.listReports({ project, perPage: 10 }, 1, AbortSignal.timeout(10_000));
    return page.total ?? (page.hasMore ? undefined : page.items.length);
  } catch (e) {
    log.warn(`Could not count the reports of project ${project}: ${isApiError(e) ? e.kind : 'error'}`);
    return undefined;
  }
}

/** The modal's question, the name on one line and cut, so a long one cannot push the buttons off screen. */
function question(name: string, count: number | undefined): string {
  const project = truncate(singleLine(name), 200).text;
  if (count === undefined) return l10n.t('Delete project {0} and all its reports?', project);
  if (count === 1) return l10n.t('Delete project {0} and its report?', project);
  return l10n.t('Delete project {0} and its {1} reports?', project, countText(count));
}

/**
 * Delete Project…: `Command.deleteProject(item?, options?)` where item is a project
 * node, a `Project`, `{ project }` or a name. Resolves true when the project was deleted.
 */
export async function deleteProject(w: Writes, item: unknown, confirm: ConfirmOptions | undefined): Promise<boolean> {
  const api = await requireApi(w.parts.connection);
  if (api === undefined) return false;
  let name = projectName(item);
  if (name === undefined) {
    if (item !== undefined && !isOptions(item)) throw new Error(`Not a project: ${typeof item}`);
    name = await pickProject(api, l10n.t('Delete which project?'));
    if (name === undefined) return false;
  }
  const project = name;
  const serviceUrl = w.serviceUrl;
  const key = deletionKey(serviceUrl, project);
  if (w.inFlight.has(key)) {
    flash(l10n.t('Project {0} is already being deleted.', escapeIcons(project)));
    return false;
  }
  return (await w.askingOnce(`project:${project}`, () => askAndDelete(w, api, project, serviceUrl, confirm))) ?? false;
}

/** Project names repeat across services (a host each): a deletion is this service's. */
function deletionKey(serviceUrl: string | undefined, project: string): string {
  return `deleteProject:${serviceUrl ?? ''}:${project}`;
}

/** Delete Project… once `project` is chosen: counts its reports for the question, then deletes it. */
async function askAndDelete(
  w: Writes,
  api: ReportsApi,
  project: string,
  serviceUrl: string | undefined,
  confirm: ConfirmOptions | undefined,
): Promise<boolean> {
  const { parts, log, errors, panels, inFlight } = w;
  const count = await windowProgress(l10n.t('Counting the reports of {0}…', escapeIcons(project)), () =>
    reportCount(log, api, project),
  );
  const ok = await confirmModal(
    parts.context,
    question(project, count),
    l10n.t('The project and every report in it will be deleted on the service. This cannot be undone.'),
    l10n.t('Delete Project'),
    confirm,
  );
  if (!ok) return false;
  try {
    const outcome = await inFlight.run(deletionKey(serviceUrl, project), () =>
      // Gone already: deleted elsewhere, or its last report was.
      windowProgress(l10n.t('Deleting project {0}…', escapeIcons(project)), () =>
        deletedOrGone(() => api.deleteProject(project)),
      ),
    );
    if (outcome === undefined) return false; // not reached: the question's guard holds it
    log.info(outcome === 'deleted' ? `Project ${project} deleted.` : `Project ${project} was already deleted.`);
    panels.closeProject(project, serviceUrl);
    await w.refreshViews(serviceUrl);
    flash(
      outcome === 'deleted'
        ? l10n.t('Project {0} deleted.', escapeIcons(project))
        : l10n.t('Project {0} was already deleted.', escapeIcons(project)),
    );
    return true;
  } catch (e) {
    errors.report(e, {
      action: l10n.t("Couldn't delete project {0}", unicodeHost(project)),
      retry: w.retryCommand(serviceUrl, Command.deleteProject, project),
    });
    return false;
  }
}
