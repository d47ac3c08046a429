/**
 * Hovers on http(s) URLs in any file: the report of the URL analysed last that the extension
 * has (result, score, generated date, failed checks by importance) with Open Report and
 * Re-analyze, or Analyze Page when it has none. The hover text is built from server strings,
 * so everything in it is escaped, and its links may run only the three commands it offers.
 */
import * as vscode from 'vscode';
import * as l10n from '@vscode/l10n';
import type { Report } from '../api/types';
import { failedCounts, formatDate, formatScore, resultLabel } from '../presentation/format';
import { escapeMarkdown } from '../text/text';
import { Command } from '../ids';

/** An http(s) URL in text; trailing punctuation of the sentence around it is not part of it. */
const URL_PATTERN = /https?:\/\/[^\s"'<>()[\]{}`\\]+/gi;

/** The URL at `position` of `document`, and its range, or undefined. */
export function urlAt(document: vscode.TextDocument, position: vscode.Position): { url: string; range: vscode.Range } | undefined {
  const line = document.lineAt(position.line).text;
  URL_PATTERN.lastIndex = 0;
  for (let match = URL_PATTERN.exec(line); match !== null; match = URL_PATTERN.exec(line)) {
    const url = match[0].replace(/[.,;:!?*]+$/, '');
    const start = match.index;
    const end = start + url.length;
    if (position.character < start || position.character > end) continue;
    if (!URL.canParse(url)) return undefined;
    return { url, range: new vscode.Range(position.line, start, position.line, end) };
  }
  return undefined;
}

function commandLink(title: string, command: string, args: unknown[]): string {
  return `[${escapeMarkdown(title)}](command:${command}?${encodeURIComponent(JSON.stringify(args))})`;
}

/** The hover's Markdown for `url`: its report, or that it has none. */
export function hoverMarkdown(url: string, report: Report | undefined): vscode.MarkdownString {
  const lines: string[] = [];
  if (report === undefined) {
    lines.push(`**${escapeMarkdown(l10n.t('Page Reports'))}**: ${escapeMarkdown(l10n.t('no report of this page yet.'))}`);
    lines.push('', commandLink(l10n.t('Analyze Page'), Command.createReport, [{ prefill: url }]));
  } else {
    const facts = [
      report.result === undefined ? undefined : resultLabel(report.result),
      report.score === undefined ? undefined : l10n.t('score {0}', formatScore(report.score, vscode.env.language).label),
      report.generatedAt === undefined
        ? undefined
        : l10n.t('generated {0}', formatDate(report.generatedAt, Date.now(), vscode.env.language).absolute),
    ].filter((fact): fact is string => fact !== undefined);
    lines.push(`**${escapeMarkdown(l10n.t('Page Reports'))}**: ${facts.map(escapeMarkdown).join(' · ')}`);
    const failed = failedCounts(report.checks);
    lines.push(
      '',
      escapeMarkdown(l10n.t('Failed checks: {0} high, {1} medium, {2} low', failed.high, failed.medium, failed.low)),
      '',
      `${commandLink(l10n.t('Open Report'), Command.openReport, [{ id: report.id }])} · ${commandLink(
        l10n.t('Re-analyze'),
        Command.reanalyzeReport,
        [{ id: report.id }],
      )}`,
    );
  }
  const markdown = new vscode.MarkdownString(lines.join('\n'));
  markdown.isTrusted = { enabledCommands: [Command.openReport, Command.reanalyzeReport, Command.createReport] };
  markdown.supportHtml = false;
  markdown.supportThemeIcons = false;
  return markdown;
}
