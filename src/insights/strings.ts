import * as l10n from '@vscode/l10n';
import { tabTitle } from '../presentation/format';
import type { InsightsWords, SummaryWords } from '../presentation/insightsAggregate';
import type { InsightsStrings } from '../protocols/insightsProtocol';

/** The title of an insights panel: `Insights: All projects` or `Insights: example.com`. */
export function insightsTitle(project: string | null): string {
  return l10n.t('Insights: {0}', project === null ? allProjectsLabel() : tabTitle(project));
}

/** The first item of the project quick pick, and the panel title's word for "every project". */
export function allProjectsLabel(): string {
  return l10n.t('All projects');
}

/** The words the page and the Markdown summary share, localized once for both. */
function insightsWords(): InsightsWords {
  return {
    allProjects: allProjectsLabel(),
    results: l10n.t('Results'),
    good: l10n.t('Good'),
    decent: l10n.t('Decent'),
    bad: l10n.t('Bad'),
    other: l10n.t('Other'),
    reportsOne: l10n.t('1 report'),
    reportsMany: l10n.t('{0} reports', '{0}'),
    scores: l10n.t('Scores'),
    unscored: l10n.t('Without a score: {0}', '{0}'),
    noScore: '—',
    checks: l10n.t('Checks that fail most'),
    noFailures: l10n.t('No check failed.'),
    high: l10n.t('High'),
    medium: l10n.t('Medium'),
    low: l10n.t('Low'),
    noImportance: '—',
  };
}

/**
 * The insights page's words, localized here (the page has no `vscode.l10n`) and sent in
 * `init`. `{0}` placeholders are filled by the page with plain text; l10n gets '{0}' as the
 * argument so the placeholder survives translation wherever the translator moved it.
 */
export function insightsStrings(): InsightsStrings {
  return {
    ...insightsWords(),
    heading: l10n.t('Insights: {0}', '{0}'),
    headline: l10n.t('Key figures'),
    meanScore: l10n.t('Mean score'),
    medianScore: l10n.t('Median score'),
    badShare: l10n.t('Bad share'),
    loading: l10n.t('Loading reports…'),
    cancel: l10n.t('Cancel'),
    refresh: l10n.t('Refresh'),
    retry: l10n.t('Retry'),
    copySummary: l10n.t('Copy Summary as Markdown'),
    toolbar: l10n.t('Insights actions'),
    errorTitle: l10n.t('Could not load the reports'),
    cancelled: l10n.t('Loading was cancelled; the numbers below cover the reports loaded before.'),
    continueLoading: l10n.t('Continue Loading'),
    noReports: l10n.t('No reports yet'),
    loaded: l10n.t('Loaded {0}:', '{0}'),
    resultsAria: l10n.t('Bar chart of results: {0}.', '{0}'),
    scoresAria: l10n.t('Histogram of scores in ten-point buckets: {0}.', '{0}'),
    overTime: l10n.t('Scores over time'),
    overTimeAria: l10n.t(
      'Scatter chart of {0} report scores by generated date, from {1} to {2}, with the weekly median as a line.',
      '{0}',
      '{1}',
      '{2}',
    ),
    weeklyMedian: l10n.t('Weekly median'),
    reportScore: l10n.t('Report score'),
    undated: l10n.t('Without a generated date (not drawn): {0}', '{0}'),
    checksAria: l10n.t('Bar chart of the checks that fail most: {0}.', '{0}'),
    failedIn: l10n.t('Failed in {0} of {1} reports ({2})', '{0}', '{1}', '{2}'),
    failedInOne: l10n.t('Failed in {0} of 1 report ({1})', '{0}', '{1}'),
    checkReports: l10n.t('Reports where {0} failed', '{0}'),
    showMore: l10n.t('Show {0} more ({1} not listed)', '{0}', '{1}'),
    lowest: l10n.t('Lowest-scoring pages'),
    noLowest: l10n.t('No report has a score.'),
    noOverTime: l10n.t('No report has both a score and a generated date.'),
    overTimeAxis: l10n.t('Generated (UTC)'),
    showData: l10n.t('Show data'),
    columnResult: l10n.t('Result'),
    columnCount: l10n.t('Reports'),
    columnBucket: l10n.t('Score'),
    columnWeek: l10n.t('Week of'),
    columnMedian: l10n.t('Median'),
    columnReports: l10n.t('Reports'),
    columnCheck: l10n.t('Check'),
    columnImportance: l10n.t('Importance'),
    columnFailed: l10n.t('Failed in'),
    columnShare: l10n.t('Share'),
    columnPage: l10n.t('Page'),
    columnScore: l10n.t('Score'),
    columnGenerated: l10n.t('Generated'),
    openReport: l10n.t('Open the report of {0}', '{0}'),
  };
}

/** The Markdown summary's words, localized. */
export function summaryWords(): SummaryWords {
  return {
    ...insightsWords(),
    title: l10n.t('Insights: {0}', '{0}'),
    asOf: l10n.t('As of {0}', '{0}'),
    mean: l10n.t('Mean'),
    median: l10n.t('Median'),
    histogram: l10n.t('Score buckets'),
    bucket: l10n.t('Score'),
    count: l10n.t('Reports'),
    check: l10n.t('Check'),
    importance: l10n.t('Importance'),
    failedIn: l10n.t('Failed in'),
    share: l10n.t('Share'),
  };
}
