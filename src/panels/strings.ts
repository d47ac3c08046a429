import * as vscode from 'vscode';
import type { FormatLabels } from './format';
import type { PanelStrings } from './protocol';

/**
 * The page's words, localized here (the page has no `vscode.l10n`) and sent in `init`.
 * `{0}` placeholders are filled in by the page with plain text.
 */
export function panelStrings(): PanelStrings {
  return {
    loading: vscode.l10n.t('Loading report…'),
    retry: vscode.l10n.t('Retry'),
    errorTitle: vscode.l10n.t('Could not load the report'),
    refreshFailed: vscode.l10n.t('Could not refresh the report; this is the data received before.'),
    deletedTitle: vscode.l10n.t('Report deleted'),
    reanalyze: vscode.l10n.t('Re-analyze'),
    changePrivacy: vscode.l10n.t('Change Privacy…'),
    openOnService: vscode.l10n.t('Open on Service'),
    copyUrl: vscode.l10n.t('Copy URL'),
    delete: vscode.l10n.t('Delete'),
    toolbar: vscode.l10n.t('Report actions'),
    busy: vscode.l10n.t('Working…'),
    // The page fills these `{0}`s: l10n gets '{0}' as the argument, so the placeholder
    // survives translation wherever the translator moved it.
    openUrl: vscode.l10n.t('Open {0} in the browser', '{0}'),
    urlNotOpenable: vscode.l10n.t('Only http and https addresses can be opened.'),
    result: vscode.l10n.t('Result'),
    score: vscode.l10n.t('Score'),
    scoreOf100: vscode.l10n.t('{0} of 100', '{0}'),
    project: vscode.l10n.t('Project'),
    filterProject: vscode.l10n.t('Show the reports of project {0}', '{0}'),
    noProject: vscode.l10n.t('none'),
    privacy: vscode.l10n.t('Privacy'),
    generated: vscode.l10n.t('Generated'),
    created: vscode.l10n.t('Created'),
    updated: vscode.l10n.t('Updated'),
    summary: vscode.l10n.t('Summary'),
    allPassed: vscode.l10n.t('All checks passed.'),
    failedCount: vscode.l10n.t('{0} of {1} checks failed', '{0}', '{1}'),
    high: vscode.l10n.t('high'),
    medium: vscode.l10n.t('medium'),
    low: vscode.l10n.t('low'),
    noImportance: vscode.l10n.t('no importance'),
    failedChecks: vscode.l10n.t('Failed ({0})', '{0}'),
    unknownChecks: vscode.l10n.t('Not determined ({0})', '{0}'),
    passedChecks: vscode.l10n.t('Passed ({0})', '{0}'),
    noChecks: vscode.l10n.t('This report has no checks.'),
    columnStatus: vscode.l10n.t('Status'),
    columnCheck: vscode.l10n.t('Check'),
    columnImportance: vscode.l10n.t('Importance'),
    columnValue: vscode.l10n.t('Value'),
    statusFailed: vscode.l10n.t('Failed'),
    statusPassed: vscode.l10n.t('Passed'),
    statusUnknown: vscode.l10n.t('Not determined'),
    rawView: vscode.l10n.t('Raw data (every field the service sent)'),
    valueTruncated: vscode.l10n.t('Show all ({0} characters)', '{0}'),
  };
}

/** The view model's words (result, privacy, importance, value words), localized. */
export function formatLabels(): FormatLabels {
  return {
    good: vscode.l10n.t('Good'),
    decent: vscode.l10n.t('Decent'),
    bad: vscode.l10n.t('Bad'),
    noResult: vscode.l10n.t('No result'),
    public: vscode.l10n.t('Public'),
    private: vscode.l10n.t('Private'),
    password: vscode.l10n.t('Password'),
    unknownPrivacy: vscode.l10n.t('Unknown'),
    high: vscode.l10n.t('High'),
    medium: vscode.l10n.t('Medium'),
    low: vscode.l10n.t('Low'),
    noImportance: '—',
    noScore: '—',
    none: vscode.l10n.t('none'),
    yes: vscode.l10n.t('yes'),
    no: vscode.l10n.t('no'),
    emptyList: vscode.l10n.t('empty list'),
    emptyObject: vscode.l10n.t('empty object'),
    missingValue: '—',
    missingDate: '—',
    unknownDate: vscode.l10n.t('unknown'),
  };
}
