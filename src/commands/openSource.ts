/**
 * Open Source: from a report (its row, its panel's title bar, or one picked) to the file that
 * renders its page, through `pageReports.sources`.
 */
import * as vscode from 'vscode';
import * as l10n from '@vscode/l10n';
import type { Parts } from '../parts';
import { escapeForMessage } from '../text/text';
import { requireApi } from '../ui/notify';
import { Setting } from '../ids';
import { loadReport, reportTargets } from './refs';

/** Opens the source file of the report `item` (or the one picked); resolves whether it opened one. */
export async function openSource(parts: Parts, item?: unknown): Promise<boolean> {
  const api = await requireApi(parts.connection);
  if (api === undefined) return false;
  const [ref] = await reportTargets(api, item, undefined, l10n.t('Open the source of which report?'));
  if (ref === undefined) return false;
  const report = await loadReport(api, ref);
  const url = escapeForMessage(report.url);
  const search = await parts.findings.sources.find(report.url);
  switch (search.kind) {
    case 'found':
      await vscode.window.showTextDocument(search.source.uri, { preview: false });
      return true;
    case 'missing':
      void vscode.window.showWarningMessage(
        l10n.t('No source file of {0} exists. Tried: {1}.', url, search.tried.map(escapeForMessage).join(', ')),
      );
      return false;
    case 'unmapped': {
      const open = l10n.t('Open Settings');
      void vscode.window
        .showWarningMessage(l10n.t('{0} is under no URL prefix of the setting pageReports.sources.', url), open)
        .then((choice) =>
          choice === open ? vscode.commands.executeCommand('workbench.action.openSettings', Setting.sources) : undefined,
        );
      return false;
    }
  }
}
