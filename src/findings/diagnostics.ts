/**
 * A report's failed checks as diagnostics on its page's source file: source `Page Reports`,
 * the check's name as the code (linking to the report through the extension's URI handler),
 * the readable name and value as the message (plain text: the Problems panel renders no
 * Markdown or HTML), severity by importance, on the line of the check's element.
 */
import * as vscode from 'vscode';
import type { Importance, Report } from '../api/types';
import { checkLabel, formatValue, sortChecks } from '../presentation/format';
import { singleLine } from '../text/text';
import { EXTENSION_ID } from '../ids';
import { findElement, sourceKindOf } from './elements';

/** The `source` of every diagnostic of the extension. */
export const DIAGNOSTIC_SOURCE = 'Page Reports';

/** The longest value a message shows (the report panel has the whole). */
const MESSAGE_VALUE_LIMIT = 200;

const SEVERITY: Record<Importance, vscode.DiagnosticSeverity> = {
  high: vscode.DiagnosticSeverity.Error,
  medium: vscode.DiagnosticSeverity.Warning,
  low: vscode.DiagnosticSeverity.Information,
};

/** The link a diagnostic's code opens: the URI handler's `/report?id=…&service=…`. */
export function reportUri(report: Pick<Report, 'id'>, serviceUrl: string): vscode.Uri {
  const query = new URLSearchParams({ id: String(report.id), service: serviceUrl }).toString();
  return vscode.Uri.from({ scheme: vscode.env.uriScheme, authority: EXTENSION_ID, path: '/report', query });
}

/** The report id a diagnostic's code link names, or undefined when it is no link of ours. */
export function reportIdOf(diagnostic: vscode.Diagnostic): string | undefined {
  if (diagnostic.source !== DIAGNOSTIC_SOURCE) return undefined;
  const code = diagnostic.code;
  if (typeof code !== 'object') return undefined;
  return new URLSearchParams(code.target.query).get('id') ?? undefined;
}

/** The diagnostics of `report`'s failed checks on `document`, high importance first. */
export function diagnosticsOf(report: Report, document: vscode.TextDocument, serviceUrl: string): vscode.Diagnostic[] {
  const text = document.getText();
  const kind = sourceKindOf(document.fileName);
  const target = reportUri(report, serviceUrl);
  return sortChecks(report.checks)
    .filter((check) => check.passed === false)
    .map((check) => {
      const place = findElement(text, check.name, kind);
      const range = place
        ? new vscode.Range(place.line, place.start, place.line, place.end)
        : document.lineAt(0).range.isEmpty
          ? new vscode.Range(0, 0, 0, 0)
          : document.lineAt(0).range;
      const value = formatValue(check.value, undefined, MESSAGE_VALUE_LIMIT).text;
      const message = singleLine(`${checkLabel(check.name).label}: ${value}`);
      const severity = check.importance === undefined ? vscode.DiagnosticSeverity.Information : SEVERITY[check.importance];
      const diagnostic = new vscode.Diagnostic(range, message, severity);
      diagnostic.source = DIAGNOSTIC_SOURCE;
      diagnostic.code = { value: singleLine(check.name), target };
      return diagnostic;
    });
}
