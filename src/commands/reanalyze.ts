/**
 * Re-analyze: one report, or a selection after one confirmation. The analysis the extension
 * had before goes to the recent analyses store, so the panel can say what changed.
 */
import * as l10n from '@vscode/l10n';
import type { Report, ReportsApi } from '../api/types';
import type { ReportRef } from '../ui/commandArgs';
import { diffAnalyses } from '../presentation/diff';
import { Command } from '../ids';
import { confirmModal, flash, requireApi, windowProgress } from '../ui/notify';
import { isListSummary } from '../views/summary';
import { restArgs, runBatch, showBatchSummary, StillBeingChanged } from './batch';
import { showChangesSummary, type ReportChangeSummary } from './changes';
import { refName, reportTargets } from './refs';
import { listForConfirmation, type WriteArgs, type Writes } from './writes';

/**
 * Re-analyzes one report and keeps the analysis it had before; resolves both, or undefined when
 * a write on the report is in flight already. The agent tool's re-analysis goes through here too.
 */
export async function reanalyzeOne(
  w: Writes,
  api: ReportsApi,
  ref: ReportRef,
): Promise<{ before: Report; after: Report } | undefined> {
  return w.write(ref.id, async (serviceUrl) => {
    // A list's copy is a summary without the analysis: the diff needs a whole report.
    const whole = [ref.report, w.panels.current(ref.id)].find((r) => r !== undefined && !isListSummary(r));
    const before = whole ?? (await api.getReport(ref.id));
    const after = await api.updateReport(ref.id, { update: true });
    // Kept only once the service has the new analysis: a failed re-analysis leaves the
    // previous one the panel compares with as it was.
    if (serviceUrl !== undefined) {
      await w.parts.analyses.remember(serviceUrl, ref.id, before.raw).then(undefined, (e: unknown) => {
        w.log.warn(
          `Could not keep the previous analysis of report ${ref.id}: ${e instanceof Error ? e.name : 'error'}`,
        );
      });
    }
    w.showUpdated(after, serviceUrl);
    w.log.info(`Report ${ref.id} re-analyzed.`);
    return { before, after };
  });
}

/**
 * Re-analyze: `Command.reanalyzeReport(item?, selected?, options?)`. One report
 * resolves the updated report; several ask once and resolve the batch outcome.
 */
export async function reanalyze(w: Writes, { item, selected, confirm }: WriteArgs) {
  const api = await requireApi(w.parts.connection);
  if (api === undefined) return undefined;
  const refs = await reportTargets(api, item, selected, l10n.t('Re-analyze which report?'));
  if (refs.length === 0) return undefined;
  if (refs.length === 1 && refs[0]) {
    const ref = refs[0];
    if (w.stillRunning(ref.id)) return undefined;
    const serviceUrl = w.serviceUrl;
    try {
      const done = await windowProgress(l10n.t('Re-analyzing {0}…', refName(ref)), () =>
        reanalyzeOne(w, api, ref),
      );
      if (done) {
        flash(l10n.t('Re-analyzed {0}.', refName(ref)));
        // Its result, score and dates changed: a filtered or sorted list has it elsewhere now,
        // and the service's later pages moved.
        void w.refreshViews(serviceUrl);
      }
      return done?.after;
    } catch (e) {
      w.errors.report(e, {
        action: l10n.t("Couldn't re-analyze {0}", refName(ref)),
        retry: w.retryCommand(serviceUrl, Command.reanalyzeReport, { id: ref.id }),
      });
      return undefined;
    }
  }
  const ok = await confirmModal(
    w.parts.context,
    l10n.t('Re-analyze {0} reports?', refs.length),
    listForConfirmation(refs),
    l10n.t('Re-analyze'),
    confirm,
  );
  if (!ok) return undefined;
  const changes: ReportChangeSummary[] = [];
  const serviceUrl = w.serviceUrl;
  const outcome = await runBatch(w.parts, {
    title: l10n.t('Re-analyzing {0} reports', refs.length),
    refs,
    action: 'Re-analyze report',
    api,
    run: async (ref, batchApi) => {
      const done = await reanalyzeOne(w, batchApi, ref);
      if (done === undefined) throw new StillBeingChanged();
      changes.push({ report: done.after, diff: diffAnalyses(done.before, done.after) });
    },
  });
  // The lists follow the new results and scores, and drop a report gone meanwhile (404).
  if (changes.length > 0 || outcome.failed.length > 0) void w.refreshViews(serviceUrl);
  if (outcome.failed.length > 0 || outcome.skipped.length > 0) {
    showBatchSummary(w.parts, outcome, (n) => l10n.t('Re-analyzed {0} of {1} reports.', n, refs.length), {
      runRestAgain: (rest) => w.retryCommand(serviceUrl, Command.reanalyzeReport, ...restArgs(refs, rest))(),
    });
  }
  if (changes.length > 0) showChangesSummary(w.parts, changes, serviceUrl);
  return {
    ...outcome,
    changes: changes.map((c) => ({ id: c.report.id, trend: c.diff.trend, delta: c.diff.score.delta })),
  };
}
