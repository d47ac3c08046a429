import * as l10n from '@vscode/l10n';
import type { FormatLabels } from '../common/format';
import type { PanelStrings } from '../common/panelProtocol';

/**
 * The page's words, localized in the page by `@vscode/l10n` once `init` brought the bundle.
 * `{0}` placeholders are filled in by the page with plain text.
 */
export function panelStrings(): PanelStrings {
  return {
    loading: l10n.t('Loading report…'),
    retry: l10n.t('Retry'),
    errorTitle: l10n.t('Could not load the report'),
    cannotShow: l10n.t('The report arrived but could not be shown.'),
    refreshFailed: l10n.t('Could not refresh the report; this is the data received before.'),
    deletedTitle: l10n.t('Report deleted'),
    reanalyze: l10n.t('Re-analyze'),
    changePrivacy: l10n.t('Change Privacy…'),
    openOnService: l10n.t('Open on Service'),
    copyUrl: l10n.t('Copy URL'),
    delete: l10n.t('Delete'),
    toolbar: l10n.t('Report actions'),
    busy: l10n.t('Working…'),
    reportUpdated: l10n.t('Report updated: {0}, score {1}, {2}.', '{0}', '{1}', '{2}'),
    // The page fills these `{0}`s: l10n gets '{0}' as the argument, so the placeholder
    // survives translation wherever the translator moved it.
    openUrl: l10n.t('Open {0} in the browser', '{0}'),
    urlNotOpenable: l10n.t('Only http and https addresses can be opened.'),
    result: l10n.t('Result'),
    score: l10n.t('Score'),
    scoreOf100: l10n.t('{0} of 100', '{0}'),
    project: l10n.t('Project'),
    filterProject: l10n.t('Show the reports of project {0}', '{0}'),
    noProject: l10n.t('none'),
    privacy: l10n.t('Privacy'),
    generated: l10n.t('Generated'),
    created: l10n.t('Created'),
    updated: l10n.t('Updated'),
    summary: l10n.t('Summary'),
    allPassed: l10n.t('All checks passed.'),
    failedCount: l10n.t('{0} of {1} checks failed', '{0}', '{1}'),
    unknownCount: l10n.t('{0} of {1} checks not determined', '{0}', '{1}'),
    failedCountOne: l10n.t('{0} of 1 check failed', '{0}'),
    unknownCountOne: l10n.t('{0} of 1 check not determined', '{0}'),
    high: l10n.t('high'),
    medium: l10n.t('medium'),
    low: l10n.t('low'),
    noImportance: l10n.t('no importance'),
    failedChecks: l10n.t('Failed ({0})', '{0}'),
    unknownChecks: l10n.t('Not determined ({0})', '{0}'),
    passedChecks: l10n.t('Passed ({0})', '{0}'),
    noChecks: l10n.t('This report has no checks.'),
    columnStatus: l10n.t('Status'),
    columnCheck: l10n.t('Check'),
    columnImportance: l10n.t('Importance'),
    columnValue: l10n.t('Value'),
    statusFailed: l10n.t('Failed'),
    statusPassed: l10n.t('Passed'),
    statusUnknown: l10n.t('Not determined'),
    rawView: l10n.t('Raw data (every field the service sent)'),
    valueTruncated: l10n.t('Show all ({0} characters)', '{0}'),
    sinceTitle: l10n.t('Since the previous analysis'),
    sinceComparedWith: l10n.t('Compared with the analysis of {0}', '{0}'),
    sinceScore: l10n.t('Score change'),
    sinceResult: l10n.t('Result change'),
    sinceFixed: l10n.t('Fixed ({0})', '{0}'),
    sinceNewlyFailing: l10n.t('Newly failing ({0})', '{0}'),
    sinceAppeared: l10n.t('New checks ({0})', '{0}'),
    sinceDisappeared: l10n.t('No longer checked ({0})', '{0}'),
    sinceOtherChanges: l10n.t('Outcome changed ({0})', '{0}'),
    sinceNoCheckChanges: l10n.t('No check changed its outcome.'),
    sinceNothingChanged: l10n.t('Nothing changed: the same score, the same result, every check as before.'),
    foreign: l10n.t('This report belongs to {0}', '{0}'),
    switchBack: l10n.t('Switch Back'),
    close: l10n.t('Close'),
  };
}

/** The view model's words (result, privacy, importance, value words), localized. */
export function formatLabels(): FormatLabels {
  return {
    good: l10n.t('Good'),
    decent: l10n.t('Decent'),
    bad: l10n.t('Bad'),
    noResult: l10n.t('No result'),
    public: l10n.t('Public'),
    private: l10n.t('Private'),
    password: l10n.t('Password'),
    unknownPrivacy: l10n.t('Unknown'),
    high: l10n.t('High'),
    medium: l10n.t('Medium'),
    low: l10n.t('Low'),
    noImportance: '—',
    noScore: '—',
    none: l10n.t('none'),
    yes: l10n.t('yes'),
    no: l10n.t('no'),
    emptyList: l10n.t('empty list'),
    emptyObject: l10n.t('empty object'),
    missingValue: '—',
    missingDate: '—',
    unknownDate: l10n.t('unknown'),
  };
}
