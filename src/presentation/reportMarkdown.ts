/**
 * A report as a Markdown block for an issue or a pull request (Copy as Markdown). Every server
 * string is escaped ({@link escapeMarkdown}); the only link is the report's own http(s) URL.
 */
import * as l10n from '@vscode/l10n';
import type { Importance, Report } from '../api/types';
import { epochOf } from '../text/dates';
import { checkLabel, resultLabel } from './format';
import { formatScoreNumber } from './insightsAggregate';
import { openableUrl } from '../protocols/panelProtocol';
import { escapeMarkdown } from '../text/text';

const GROUPS: readonly (Importance | undefined)[] = ['high', 'medium', 'low', undefined];

/** `2026-11-20 10:15 UTC`: the same for every reader of the issue, whatever their zone. */
export function utcMinute(date: Date | undefined): string | undefined {
  const ms = epochOf(date);
  if (ms === undefined) return undefined;
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function importanceHeading(importance: Importance | undefined): string {
  switch (importance) {
    case 'high':
      return l10n.t('High importance');
    case 'medium':
      return l10n.t('Medium importance');
    case 'low':
      return l10n.t('Low importance');
    default:
      return l10n.t('No importance given');
  }
}

/**
 * A link destination the renderer takes as one piece, to the host the URL names: characters
 * that would end it are percent-encoded, and `&` is escaped, since Markdown reads entities
 * there (`https://good.example&#64;evil.example/` would link to evil.example).
 */
function linkDestination(url: string): string {
  return url
    .replace(/[()<>[\]\s`*_]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)
    .replace(/&/g, '\\&');
}

/** The Markdown block, ending in a line break; the date is UTC, the same for every reader. */
export function reportMarkdown(report: Report, locale = 'en'): string {
  const url = openableUrl(report.url);
  const title = escapeMarkdown(report.url);
  const lines: string[] = [url === undefined ? `### ${title}` : `### [${title}](${linkDestination(url)})`, ''];

  const result = report.result === undefined ? l10n.t('No result') : resultLabel(report.result);
  const score = Number.isFinite(report.score) ? `${formatScoreNumber(report.score ?? null, locale)} / 100` : '—';
  lines.push(`- **${l10n.t('Result')}:** ${escapeMarkdown(result)}`);
  lines.push(`- **${l10n.t('Score')}:** ${escapeMarkdown(score)}`);
  lines.push(`- **${l10n.t('Generated')}:** ${escapeMarkdown(utcMinute(report.generatedAt) ?? '—')}`);
  lines.push(`- **${l10n.t('Report')}:** \\#${escapeMarkdown(String(report.id))}`);
  lines.push('');

  const failed = report.checks.filter((c) => c.passed === false);
  if (failed.length === 0) {
    lines.push(l10n.t('No failed checks.'));
    return `${lines.join('\n')}\n`;
  }
  lines.push(`**${l10n.t('Failed checks ({0})', failed.length)}**`, '');
  for (const importance of GROUPS) {
    const group = failed.filter((c) => c.importance === importance);
    if (group.length === 0) continue;
    lines.push(`#### ${importanceHeading(importance)} (${group.length})`, '');
    for (const check of group) {
      const { label } = checkLabel(check.name);
      const key = label === check.name ? '' : ` (${escapeMarkdown(check.name)})`;
      lines.push(`- ${escapeMarkdown(label)}${key}`);
    }
    lines.push('');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
