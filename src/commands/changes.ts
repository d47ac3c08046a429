/**
 * The end of a bulk Re-analyze: one message counting what went up, down or stayed, with a
 * button listing every change; choosing one opens that report's panel.
 */
import * as vscode from 'vscode';
import * as l10n from '@vscode/l10n';
import { offer } from '../ui/notify';
import type { Report } from '../api/types';
import { countTrends, formatScoreDelta, type ReportDiff } from '../presentation/diff';
import type { Parts } from '../parts';
import { resultLabel } from '../presentation/format';
import { displayUrl } from './refs';
import { escapeIcons } from '../text/text';

export interface ReportChangeSummary {
  readonly report: Report;
  readonly diff: ReportDiff;
}

/** `3 improved, 1 got worse, 2 unchanged`. */
export function trendSummary(changes: readonly ReportChangeSummary[]): string {
  const counts = countTrends(changes.map((c) => c.diff));
  return l10n.t('{0} improved, {1} got worse, {2} unchanged', counts.improved, counts.worse, counts.unchanged);
}

const TREND_ICON = { improved: '$(arrow-up)', worse: '$(arrow-down)', unchanged: '$(dash)' } as const;

/** One quick pick row: URL, score change, result change, checks fixed, newly failing and moved to or from undetermined. */
function changeItem(change: ReportChangeSummary): vscode.QuickPickItem & { change: ReportChangeSummary } {
  const { diff, report } = change;
  const pieces: string[] = [];
  const delta = formatScoreDelta(diff.score.delta, vscode.env.language);
  if (delta !== undefined) pieces.push(l10n.t('score {0}', delta));
  if (diff.result.changed) {
    const word = (r: Report['result']): string => (r === undefined ? l10n.t('no result') : resultLabel(r));
    pieces.push(`${word(diff.result.before)} → ${word(diff.result.after)}`);
  }
  return {
    label: `${TREND_ICON[diff.trend]} ${escapeIcons(displayUrl(report.url))}`,
    description: pieces.join(' · '),
    detail:
      diff.otherChanges.length === 0
        ? l10n.t('{0} fixed, {1} newly failing', diff.fixed.length, diff.newlyFailing.length)
        : l10n.t(
            '{0} fixed, {1} newly failing, {2} outcome changed',
            diff.fixed.length,
            diff.newlyFailing.length,
            diff.otherChanges.length,
          ),
    change,
  };
}

/**
 * Shows the summary; not awaited by callers. `serviceUrl`: the reports' service (the user may
 * have switched since: a report picked then opens as that service's, with its banner).
 */
export function showChangesSummary(
  parts: Parts,
  changes: readonly ReportChangeSummary[],
  serviceUrl: string | undefined,
): void {
  offer(vscode.window.showInformationMessage, trendSummary(changes), l10n.t('Show Changes'), async () => {
    const picked = await vscode.window.showQuickPick(changes.map(changeItem), {
      title: l10n.t('Since the previous analysis'),
      placeHolder: l10n.t('Open a report to see what changed'),
      matchOnDescription: true,
    });
    if (picked) await parts.panels.open(picked.change.report.id, picked.change.report, serviceUrl);
  });
}
