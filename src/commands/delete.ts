/**
 * Delete Report…: one report or a selection, after one modal confirmation naming what goes. A
 * 404 means the report is gone already, which is the goal.
 */
import * as l10n from '@vscode/l10n';
import type { Report, ReportsApi } from '../api/types';
import type { ReportRef } from '../ui/commandArgs';
import { isOptions } from '../text/guards';
import { truncate } from '../presentation/format';
import { Command } from '../ids';
import { confirmModal, flash, requireApi, windowProgress } from '../ui/notify';
import { restArgs, runBatch, showBatchSummary, StillBeingChanged } from './batch';
import { deleteProject } from './deleteProject';
import { loadReport, refName, reportTargets } from './refs';
import { deletedOrGone, listForConfirmation, type WriteArgs, type Writes, writeArgs } from './writes';

/** Deletes one report on the service; a 404 means it is gone already, which is the goal. */
async function deleteOne(w: Writes, api: ReportsApi, ref: ReportRef): Promise<'deleted' | 'gone' | undefined> {
  return w.write(ref.id, async (serviceUrl) => {
    const outcome = await deletedOrGone(() => api.deleteReport(ref.id));
    if (outcome === 'gone') w.log.info(`Report ${ref.id} was already deleted.`);
    else {
      w.log.info(`Report ${ref.id} deleted.`);
      if (serviceUrl !== undefined) await w.parts.analyses.forget(serviceUrl, ref.id).then(undefined, () => undefined);
    }
    // Its rows (while the views show that service) and its panel go at once.
    w.dropReport(ref.id, serviceUrl);
    return outcome;
  });
}

/** Delete Report… of one report: loads it to name its page in the question, then deletes it. */
async function deleteAfterAsking(
  w: Writes,
  api: ReportsApi,
  ref: ReportRef,
  confirm: WriteArgs['confirm'],
): Promise<boolean | undefined> {
  const action = l10n.t("Couldn't delete the report of {0}", refName(ref));
  const retry = w.retryCommand(w.serviceUrl, Command.deleteReport, { id: ref.id });
  let report: Report;
  try {
    report = await loadReport(api, ref);
  } catch (e) {
    w.errors.report(e, { action, retry });
    return undefined;
  }
  const ok = await confirmModal(
    w.parts.context,
    // Cut as in the confirmation of several: a URL of kilobytes would push the buttons off screen.
    l10n.t('Delete the report of {0}?', truncate(refName({ id: report.id, report }), 200).text),
    l10n.t('It will be deleted on the service. This cannot be undone.'),
    l10n.t('Delete'),
    confirm,
  );
  if (!ok) return false;
  try {
    const outcome = await windowProgress(l10n.t('Deleting the report of {0}…', refName({ id: ref.id, report })), () => deleteOne(w, api, ref));
    if (outcome === undefined) return false;
    await w.refreshViews();
    flash(
      outcome === 'gone'
        ? l10n.t('The report of {0} was already deleted.', refName({ id: ref.id, report }))
        : l10n.t('Deleted the report of {0}.', refName({ id: ref.id, report })),
    );
    return true;
  } catch (e) {
    w.errors.report(e, { action, retry });
    return false;
  }
}

/** Delete Report…: `Command.deleteReport(item?, selected?, options?)`; resolves true or the batch outcome. */
export async function deleteReports(w: Writes, { item, selected, confirm }: WriteArgs) {
  const api = await requireApi(w.parts.connection);
  if (api === undefined) return undefined;
  if (isOptions(item) && item.selection === true) {
    // The Delete key: a keybinding passes no item, so the view's selection is what goes; in
    // the Projects view, a project row deletes the project (after its own confirmation).
    const inProjects = item.view === 'projects';
    const project = inProjects ? w.parts.projectsView.selectedProject() : undefined;
    if (project !== undefined) return deleteProject(w, project, confirm);
    const chosen = (inProjects ? w.parts.projectsView : w.reportsView).selectedReports();
    if (chosen.length === 0) return undefined;
    const nodes = chosen.map((report) => ({ kind: 'report', report }));
    return deleteReports(w, writeArgs(nodes[0], nodes, item));
  }
  const refs = await reportTargets(api, item, selected, l10n.t('Delete which report?'));
  if (refs.length === 0) return undefined;

  if (refs.length === 1 && refs[0]) {
    const ref = refs[0];
    if (w.stillRunning(ref.id)) return false;
    return (await w.askingOnce(`report:${ref.id}`, () => deleteAfterAsking(w, api, ref, confirm))) ?? false;
  }
  const subject = `reports:${refs
    .map((ref) => String(ref.id))
    .sort()
    .join(',')}`;
  return w.askingOnce(subject, () => deleteSeveral(w, api, refs, confirm));
}

/** Delete Report… of several reports: one question naming them, then one at a time, then a summary. */
async function deleteSeveral(w: Writes, api: ReportsApi, refs: readonly ReportRef[], confirm: WriteArgs['confirm']) {
  const ok = await confirmModal(
    w.parts.context,
    l10n.t('Delete {0} reports?', refs.length),
    `${listForConfirmation(refs)}\n\n${l10n.t('They will be deleted on the service. This cannot be undone.')}`,
    l10n.t('Delete {0} Reports', refs.length),
    confirm,
  );
  if (!ok) return undefined;
  const serviceUrl = w.serviceUrl;
  const outcome = await runBatch(w.parts, {
    title: l10n.t('Deleting {0} reports', refs.length),
    refs,
    action: 'Delete report',
    api,
    run: async (ref, batchApi) => {
      if ((await deleteOne(w, batchApi, ref)) === undefined) throw new StillBeingChanged();
    },
  });
  await w.refreshViews();
  showBatchSummary(w.parts, outcome, (n) => l10n.t('Deleted {0} of {1} reports.', n, refs.length), {
    runRestAgain: (rest) => w.retryCommand(serviceUrl, Command.deleteReport, ...restArgs(refs, rest))(),
  });
  return outcome;
}
