/**
 * The elements of both trees and the `TreeItem`s they become. Formatting lives in
 * `format.ts` (no `vscode`, unit-tested); this file only maps it onto `TreeItem` fields.
 */
import * as vscode from 'vscode';
import * as l10n from '@vscode/l10n';
import { describeError } from '../api/messages';
import type { Project, Report, ReportId } from '../api/types';
import {
  escapeMarkdown,
  highlightRanges,
  loadMoreLabel,
  projectDescription,
  projectTooltipMarkdown,
  reportAccessibilityLabel,
  reportDescription,
  reportTooltipMarkdown,
  singleLine,
  reportLabel,
  reportHost,
  projectLabel,
  type FormatOptions,
} from './format';
import { reportKey } from './listState';
import { Command, ThemeColorId } from '../ids';
import { actionCommand, isCommandAction } from '../ui/errorReporter';
import { countText } from '../ui/notify';

/** Formatting options at `now` (epoch ms): the time relative dates count from, and the UI language. */
export function formatOptions(now = Date.now()): FormatOptions {
  return { now: new Date(now), locale: vscode.env.language };
}

// ---- Elements -----------------------------------------------------------------------------

/**
 * Which list an element belongs to: `reports` (the Reports view), `projects` (the Projects
 * view's roots) or `project:<name>` (a project's reports in the Projects view).
 */
export type ListKey = 'reports' | 'projects' | `project:${string}`;

export function projectListKey(project: string): ListKey {
  return `project:${project}`;
}

/** The project a list key names, for `project:<name>` keys. */
export function projectOfListKey(listKey: string): string | undefined {
  return listKey.startsWith('project:') ? listKey.slice('project:'.length) : undefined;
}

/*
 * The elements are the shared `TreeNode` shapes of `parts.ts` (commands receive them), with
 * the payload mutable so one object per report stays the element VS Code knows across
 * refreshes: element-level change events and `reveal` need that identity.
 */
export interface ReportNode {
  readonly kind: 'report';
  report: Report;
  /** Set under a project in the Projects view. */
  readonly parentProject?: string;
}

export interface ProjectNode {
  readonly kind: 'project';
  project: Project;
}

export interface LoadMoreNode {
  readonly kind: 'loadMore';
  readonly listKey: ListKey;
  readonly loaded: number;
  readonly total: number | undefined;
  /** The next page is in flight. */
  readonly loading: boolean;
}

export interface ErrorNode {
  readonly kind: 'error';
  readonly listKey: ListKey;
  readonly message: string;
  readonly error: unknown;
}

/** What to offer on an empty list's item. */
export interface EmptyAction {
  readonly command: string;
  readonly title: string;
}

/** An empty list's way on when no filter or search narrows it. */
export function newReportAction(): EmptyAction {
  return { command: Command.createReport, title: l10n.t('New Report…') };
}

export interface EmptyNode {
  readonly kind: 'empty';
  readonly listKey: ListKey;
  readonly message: string;
  readonly action: EmptyAction | undefined;
}

export type ViewNode = ReportNode | ProjectNode | LoadMoreNode | ErrorNode | EmptyNode;

export { reportKey } from './listState';

/**
 * A stable, unique tree id. The view and the parent are part of it, so the same report in
 * both views, or under two projects, has distinct ids; ids survive refreshes, so VS Code keeps
 * selection and expansion.
 */
export function nodeId(node: ViewNode): string {
  const part = encodeURIComponent;
  switch (node.kind) {
    case 'report':
      return node.parentProject === undefined
        ? `reports/report/${part(reportKey(node.report))}`
        : `projects/${part(node.parentProject)}/report/${part(reportKey(node.report))}`;
    case 'project':
      return `projects/${part(node.project.name)}`;
    case 'loadMore':
    case 'error':
    case 'empty':
      return `${listIdPrefix(node.listKey)}/${node.kind}`;
  }
}

function listIdPrefix(listKey: ListKey): string {
  const project = projectOfListKey(listKey);
  // `:list`, not `/list`: a project may be named `list` (`projects/list`).
  return project === undefined ? `${listKey}:list` : `projects/${encodeURIComponent(project)}`;
}

// ---- Tree items ---------------------------------------------------------------------------

/** A codicon, in the theme color `color` when given. */
function icon(id: string, color?: string): vscode.ThemeIcon {
  return new vscode.ThemeIcon(id, color === undefined ? undefined : new vscode.ThemeColor(color));
}

/** The tree item of `node`: its stable id, icon and the `contextValue` the menus match. */
function newItem(
  node: ViewNode,
  label: string | vscode.TreeItemLabel,
  iconPath: vscode.ThemeIcon,
  contextValue: string,
  state = vscode.TreeItemCollapsibleState.None,
): vscode.TreeItem {
  const item = new vscode.TreeItem(label, state);
  item.id = nodeId(node);
  item.iconPath = iconPath;
  item.contextValue = contextValue;
  return item;
}

/**
 * Bad takes the Problems view's error colour: unlike testing.iconFailed (empty in high-contrast
 * themes, so the icon turned white there), it has a value in every kind of theme. Good and decent
 * take colours of their own (package.json, contributes.colors), as an icon needs 3:1 against a
 * light sidebar: the Testing view's pass colour (#73c991, 1.9:1 there) gives way to the charts'
 * green (#388a34) in light themes, the Problems view's warning colour (#bf8803, 2.9:1) to the
 * lists' (#855f00).
 */
function resultIcon(result: Report['result']): vscode.ThemeIcon {
  switch (result) {
    case 'good':
      return icon('pass', ThemeColorId.resultGood);
    case 'decent':
      return icon('warning', ThemeColorId.resultDecent);
    case 'bad':
      return icon('error', 'problemsErrorIcon.foreground');
    default:
      return icon('circle-outline');
  }
}

/** Markdown that can never act: no trusted commands, no HTML, no theme icons. */
export function inertMarkdown(source: string): vscode.MarkdownString {
  const markdown = new vscode.MarkdownString(source, false);
  markdown.isTrusted = false;
  markdown.supportHtml = false;
  return markdown;
}

/**
 * A report's row: its page (search matches highlighted), result icon in theme colours (a
 * spinner while busy), score, generated date, the host where `showHost`, and privacy in the
 * description. The tooltip is added by {@link resolveTooltip} on hover, so long lists stay cheap.
 */
export function reportTreeItem(
  node: ReportNode,
  options: { busy: boolean; search: string | undefined; now: number; showHost: boolean; hasSource: boolean },
): vscode.TreeItem {
  const { report } = node;
  const format = formatOptions(options.now);
  const label = reportLabel(report);
  const item = newItem(
    node,
    { label, highlights: highlightRanges(label, options.search) },
    options.busy ? icon('sync~spin') : resultIcon(report.result),
    // `.source`: the page maps to a workspace file, so the menu offers Open Source.
    `${options.busy ? 'report.busy' : 'report'}${options.hasSource ? '.source' : ''}`,
  );
  item.description = reportDescription(report, { ...format, host: options.showHost ? reportHost(report) : undefined });
  item.command = { command: Command.openReport, title: l10n.t('Open Report'), arguments: [node] };
  const spoken = reportAccessibilityLabel(report, format);
  item.accessibilityInformation = { label: options.busy ? l10n.t('{0}, busy', spoken) : spoken };
  return item;
}

/** A project's row: its name, created date (relative) in the description, collapsed. */
export function projectTreeItem(
  node: ProjectNode,
  options: { search: string | undefined; now: number },
): vscode.TreeItem {
  const label = projectLabel(node.project.name);
  const item = newItem(
    node,
    { label, highlights: highlightRanges(label, options.search) },
    icon('globe'),
    'project',
    vscode.TreeItemCollapsibleState.Collapsed,
  );
  item.description = projectDescription(node.project, formatOptions(options.now));
  // The spoken label replaces the description too: it says the created date.
  item.accessibilityInformation = {
    label:
      item.description === ''
        ? l10n.t('Project {0}', label)
        : l10n.t('Project {0}, created {1}', label, item.description),
  };
  return item;
}

/**
 * Fills in the tooltip of a report or project row when the user hovers it
 * (`TreeDataProvider.resolveTreeItem`). Server text in it is escaped Markdown.
 */
export function resolveTooltip(item: vscode.TreeItem, node: ViewNode, now: number): vscode.TreeItem {
  if (node.kind === 'report') item.tooltip = inertMarkdown(reportTooltipMarkdown(node.report, formatOptions(now)));
  else if (node.kind === 'project')
    item.tooltip = inertMarkdown(projectTooltipMarkdown(node.project, formatOptions(now)));
  return item;
}

/** `Load more (25 of 132)`; a spinner and no command while the page is in flight. */
export function loadMoreTreeItem(node: LoadMoreNode): vscode.TreeItem {
  const { locale } = formatOptions();
  const label = node.loading ? l10n.t('Loading more…') : loadMoreLabel(node.loaded, node.total, locale);
  const item = newItem(node, label, icon(node.loading ? 'sync~spin' : 'fold-down'), 'loadMore');
  if (!node.loading) {
    item.command = { command: Command.loadMore, title: l10n.t('Load More'), arguments: [node] };
  }
  item.tooltip =
    node.total === undefined
      ? l10n.t('{0} loaded. Select to load the next page.', countText(node.loaded))
      : l10n.t('{0} of {1} loaded. Select to load the next page.', countText(node.loaded), countText(node.total));
  return item;
}

/** The message for a failed list, from the API's own wording of the failure. */
export function errorMessage(error: unknown, listKey: ListKey): string {
  const project = projectOfListKey(listKey);
  return singleLine(describeError(error, project === undefined ? {} : { project }).message);
}

/** Makes a row saying `message` run `command` when selected, its title in the description; returns the tooltip it gives the row. */
function runsCommand(item: vscode.TreeItem, message: string, command: vscode.Command): string {
  item.description = command.title;
  item.command = command;
  const tooltip = l10n.t('{0} Select to run {1}.', message, command.title);
  item.tooltip = tooltip;
  return tooltip;
}

/**
 * The row a failed list ends with: names the failure; selecting it retries, or takes the way
 * forward its message names first where a retry would fail the same way (Open Settings for a
 * service URL with a wrong path, a redirect to another server; Set API Key… for a rejected key;
 * Read About CORS in a browser, for a service that does not allow its origin).
 */
export function errorTreeItem(node: ErrorNode): vscode.TreeItem {
  const item = newItem(node, node.message, icon('error', 'problemsErrorIcon.foreground'), 'error');
  const first = describeError(node.error).actions[0];
  if (first !== undefined && isCommandAction(first)) {
    item.accessibilityInformation = { label: runsCommand(item, node.message, actionCommand(first)) };
    return item;
  }
  item.description = l10n.t('Retry');
  item.tooltip = inertMarkdown(`${escapeMarkdown(node.message)}  \n${escapeMarkdown(l10n.t('Select to try again.'))}`);
  item.command = { command: Command.retry, title: l10n.t('Retry'), arguments: [node] };
  item.accessibilityInformation = { label: l10n.t('{0} Select to try again.', node.message) };
  return item;
}

/** The row of an empty list: which filters matched nothing, and the way out (Clear Filters). */
export function emptyTreeItem(node: EmptyNode): vscode.TreeItem {
  const item = newItem(node, node.message, icon('info'), 'empty');
  if (node.action) runsCommand(item, node.message, node.action);
  else item.tooltip = node.message;
  return item;
}

/** The `TreeItem` for any element. */
export function treeItemFor(
  node: ViewNode,
  options: {
    busy: (id: ReportId) => boolean;
    search: string | undefined;
    now: number;
    /** Whether a report's row names its host (its list mixes hosts, and it is not under its project). */
    showHost: (node: ReportNode) => boolean;
    /** Whether a report's page maps to a workspace file (`pageReports.sources`). */
    hasSource: (node: ReportNode) => boolean;
  },
): vscode.TreeItem {
  switch (node.kind) {
    case 'report':
      return reportTreeItem(node, {
        busy: options.busy(node.report.id),
        search: options.search,
        now: options.now,
        showHost: options.showHost(node),
        hasSource: options.hasSource(node),
      });
    case 'project':
      return projectTreeItem(node, { search: options.search, now: options.now });
    case 'loadMore':
      return loadMoreTreeItem(node);
    case 'error':
      return errorTreeItem(node);
    case 'empty':
      return emptyTreeItem(node);
  }
}
