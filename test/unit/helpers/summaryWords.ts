import type { SummaryWords } from '../../../src/presentation/insightsAggregate';

/**
 * The Markdown summary's English words, as the host's `summaryWords()` gives them with no
 * translation loaded (that one reads `vscode.l10n`, which unit tests do not have).
 */
export const ENGLISH_SUMMARY_WORDS: SummaryWords = {
  title: 'Insights: {0}',
  allProjects: 'All projects',
  asOf: 'As of {0}',
  results: 'Results',
  good: 'Good',
  decent: 'Decent',
  bad: 'Bad',
  other: 'Other',
  reportsOne: '1 report',
  reportsMany: '{0} reports',
  scores: 'Scores',
  mean: 'Mean',
  median: 'Median',
  noScore: '—',
  unscored: 'Without a score: {0}',
  histogram: 'Score buckets',
  bucket: 'Score',
  count: 'Reports',
  checks: 'Checks that fail most',
  check: 'Check',
  importance: 'Importance',
  failedIn: 'Failed in',
  share: 'Share',
  noFailures: 'No check failed.',
  high: 'High',
  medium: 'Medium',
  low: 'Low',
  noImportance: '—',
};
