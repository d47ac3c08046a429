/**
 * Copy as Markdown, Export Report as JSON… and Export List as CSV…. A save is never half-done
 * silently: a cancel says nothing was written, and a failed write offers to save the same
 * content elsewhere without fetching it again.
 */
import * as vscode from 'vscode';
import * as l10n from '@vscode/l10n';
import type { Report, ReportsApi } from '../api/types';
import { CSV_BOM, reportsCsv, safeFileName } from '../text/csv';
import { insightsLimit } from '../insights/load';
import { reportMarkdown } from '../presentation/reportMarkdown';
import type { Parts } from '../parts';
import { displayUrl, holdsWholeReport, loadWholeReport, refName, reportTargets } from './refs';
import { retryCommand } from './writes';
import { runBatch, showBatchSummary } from './batch';
import { emptyAllPages, loadAllPages, type AllPages } from '../api/allPages';
import type { ReportRef } from '../ui/commandArgs';
import { cancellableProgress, countText, flash, idText, offer, requireApi } from '../ui/notify';
import { isOptions } from '../text/guards';
import { globalMemento } from '../stores/globalMemento';
import { escapeForMessage } from '../text/text';
import { Command, GlobalStateKey, Setting } from '../ids';
import { messageOf } from '../api/errors';

/** Reports per request while exporting: the service's largest page. */
const EXPORT_PAGE_SIZE = 100;

/** Most reports one CSV export fetches: `Setting.insightsLimit`, as insights reads it. */
function exportLimit(): number {
  return insightsLimit(vscode.workspace.getConfiguration().get<unknown>(Setting.insightsLimit));
}

function fileName(uri: vscode.Uri): string {
  return uri.path.split('/').pop() || uri.path;
}

/** A save target given as an argument (tests, automation): a Uri or a URI string. */
function targetOf(args: unknown): vscode.Uri | undefined {
  if (!isOptions(args)) return undefined;
  const target = args.target;
  if (target instanceof vscode.Uri) return target;
  if (typeof target === 'string' && target !== '') return vscode.Uri.parse(target, true);
  return undefined;
}

function reportFileStem(report: Report): string {
  return safeFileName(
    `report-${String(report.id)}-${displayUrl(report.url)}`,
    `report-${String(report.id)}`.slice(0, 60),
  );
}

interface SaveOptions {
  /** File name suggested in the dialog (sanitized already). */
  name: string;
  filters: Record<string, string[]>;
  content: Uint8Array;
  /** What is being saved, for messages: "the report as JSON". */
  what: string;
  /** A warning for once the content is written, or opened in an editor (a CSV with fewer reports than the service counts). */
  note?: string;
  /** A target from the arguments: no dialog. */
  target?: vscode.Uri;
  /** The language of an untitled editor holding the content (Open in Editor). */
  language: string;
  /** That editor's encoding, when saving it must write more than the text (a CSV's byte-order mark). */
  encoding?: 'utf8bom';
}

/**
 * The folder a save dialog opens in, so it can suggest the file name: the last export's, the
 * workspace's, `files.dialog.defaultPath` or the home folder; undefined when there is none.
 */
export async function exportFolder(state: vscode.Memento): Promise<vscode.Uri | undefined> {
  const last = globalMemento(state).get<unknown>(GlobalStateKey.lastExportFolder);
  // Global state is shared by every window: a folder of another remote (SSH, WSL, …) or of
  // the local machine means nothing in this one, nor one deleted since (or on another host of
  // the same kind of remote).
  if (isOptions(last) && typeof last.folder === 'string' && last.remote === thisRemote()) {
    try {
      const folder = vscode.Uri.parse(last.folder, true);
      if ((await vscode.workspace.fs.stat(folder)).type & vscode.FileType.Directory) return folder;
    } catch {
      // A value this version cannot read, or a folder that is not there: the other candidates.
    }
  }
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (folder !== undefined) return folder;
  const configured = vscode.workspace.getConfiguration('files.dialog').get<unknown>('defaultPath');
  if (typeof configured === 'string' && configured.trim() !== '') return vscode.Uri.file(configured.trim());
  return homeFolder();
}

/** The remote this window works on (`env.remoteName`), '' for the local machine. */
function thisRemote(): string {
  return vscode.env.remoteName ?? '';
}

/** The user's home folder where the extension host has one (Node: desktop, remote, code-server). */
function homeFolder(): vscode.Uri | undefined {
  // eslint-disable-next-line no-restricted-globals -- guarded: without `process` (the web worker) there is no home folder
  const env = typeof process === 'undefined' ? undefined : process.env;
  const home = env?.HOME ?? env?.USERPROFILE;
  return home ? vscode.Uri.file(home) : undefined;
}

/**
 * Asks where to save (unless a target was given) and writes. Resolves the file written, or
 * undefined after saying why nothing was written.
 */
async function saveAs(state: vscode.Memento, options: SaveOptions): Promise<vscode.Uri | undefined> {
  const target = options.target ?? (await askWhere(state, options));
  if (target === undefined) {
    // A browser without local file access gives no dialog at all: the content can still be had.
    offer(
      vscode.window.showInformationMessage,
      l10n.t('Export cancelled: nothing was written.'),
      l10n.t('Open in Editor'),
      () => openInEditor(options),
    );
    return undefined;
  }
  try {
    await vscode.workspace.fs.writeFile(target, options.content);
  } catch (e) {
    const reason = messageOf(e);
    // Not awaited: the command answers now; the content stays in this closure for the retry.
    offer(
      vscode.window.showErrorMessage,
      l10n.t(
        'Could not write {0}: {1}. Nothing was lost: save it elsewhere.',
        escapeForMessage(fileName(target)),
        escapeForMessage(reason),
      ),
      l10n.t('Save Elsewhere…'),
      () => saveAs(state, { ...options, target: undefined }),
    );
    return undefined;
  }
  // Only a folder the user chose: a target from the arguments (automation) does not move it.
  if (options.target === undefined) {
    const folder = vscode.Uri.joinPath(target, '..').toString();
    await globalMemento(state).update(GlobalStateKey.lastExportFolder, { folder, remote: thisRemote() });
  }
  flash(l10n.t('Exported to {0}.', escapeForMessage(fileName(target))));
  if (options.note !== undefined) void vscode.window.showWarningMessage(options.note);
  return target;
}

/** The save dialog, in the folder `exportFolder` finds and with the suggested name. */
async function askWhere(state: vscode.Memento, options: SaveOptions): Promise<vscode.Uri | undefined> {
  const folder = await exportFolder(state);
  return vscode.window.showSaveDialog({
    defaultUri: folder ? vscode.Uri.joinPath(folder, options.name) : undefined,
    filters: options.filters,
    saveLabel: l10n.t('Export'),
    title: l10n.t('Export {0}', options.what),
  });
}

/** The content in a new untitled editor, to save from there. */
async function openInEditor(options: SaveOptions): Promise<void> {
  const document = await vscode.workspace.openTextDocument({
    // The decoder drops a byte-order mark; the encoding writes it again on save.
    content: new TextDecoder().decode(options.content),
    language: options.language,
    ...(options.encoding ? { encoding: options.encoding } : {}),
  });
  await vscode.window.showTextDocument(document);
  if (options.note !== undefined) void vscode.window.showWarningMessage(options.note);
}

/**
 * A CSV export under way: the list it exports and the pages it has fetched. A failed export
 * keeps it for Retry, which fetches only the pages it lacks.
 */
interface ExportProgress {
  /**
   * Set when the service or its key changed after the export began (or a later export failed too):
   * the pages it has may be another account's, so it starts again.
   */
  stale: boolean;
  readonly watch: vscode.Disposable;
  readonly query: ReturnType<Parts['reportsView']['listQuery']>;
  readonly limit: number;
  readonly load: AllPages<Report>;
}

/**
 * Fetches the rest of an export's reports (the list loader: a few pages at a time), at most
 * its limit; resolves false when cancelled. What it fetched stays in `state` also when it throws.
 */
async function fetchAll(api: ReportsApi, state: ExportProgress): Promise<boolean> {
  const { load, limit } = state;
  return cancellableProgress(l10n.t('Exporting reports'), async (progress, signal, token) => {
    const done = (): string =>
      `${countText(load.items.length)}${load.total === undefined ? '' : ` / ${countText(Math.min(load.total, limit))}`}`;
    const share = (count: number): number | undefined =>
      load.total ? (count / Math.min(load.total, limit)) * 100 : undefined;
    // A Retry goes on from where the export stopped: the bar starts there too.
    let shown = load.items.length;
    if (shown > 0) progress.report({ message: done(), increment: share(shown) });
    try {
      await loadAllPages(load, {
        fetchPage: (page, pageSignal, read) =>
          api.listReports({ ...state.query, perPage: EXPORT_PAGE_SIZE }, page, pageSignal, read),
        keyOf: (report) => String(report.id),
        perPage: EXPORT_PAGE_SIZE,
        limit,
        signal,
        onPage: () => {
          progress.report({ message: done(), increment: share(load.items.length - shown) });
          shown = load.items.length;
        },
        onWait: (seconds) =>
          progress.report({ message: seconds === null ? done() : l10n.t('{0} (rate limited: waiting {1} s)', done(), seconds) }),
      });
    } catch (e) {
      if (token.isCancellationRequested) return false;
      throw e;
    }
    return !token.isCancellationRequested;
  });
}

/** The handlers of Copy as Markdown, Export Report as JSON… and Export List as CSV…. */
export function reportExportCommands(parts: Parts) {
  const { errors } = parts;

  /** Copy as Markdown: the selected reports, one block each. */
  async function copyMarkdown(item?: unknown, selected?: unknown): Promise<string | undefined> {
    const api = await requireApi(parts.connection);
    if (api === undefined) return undefined;
    const refs = await reportTargets(api, item, selected, l10n.t('Copy which report as Markdown?'));
    if (refs.length === 0) return undefined;
    if (refs.length === 1 || refs.every(holdsWholeReport)) {
      try {
        const reports = await Promise.all(refs.map((ref) => loadWholeReport(api, ref)));
        return await copyReports(reports);
      } catch (e) {
        errors.report(e, { action: l10n.t("Couldn't copy as Markdown") });
        return undefined;
      }
    }
    const loaded = new Map<ReportRef, Report>();
    const outcome = await runBatch(parts, {
      title: l10n.t('Copying {0} reports as Markdown', refs.length),
      refs,
      action: 'Copy as Markdown',
      api,
      run: async (ref, batchApi) => {
        loaded.set(ref, await loadWholeReport(batchApi, ref));
      },
    });
    if (outcome.cancelled === true) {
      void vscode.window.showInformationMessage(l10n.t('Copy as Markdown cancelled: nothing was copied.'));
      return undefined;
    }
    const reports = refs.flatMap((ref) => loaded.get(ref) ?? []);
    if (outcome.failed.length === 0 && outcome.skipped.length === 0) return copyReports(reports);
    const text = reports.length > 0 ? await copyReports(reports, { quiet: true }) : undefined;
    showBatchSummary(parts, outcome, (count) =>
      count === 0
        ? l10n.t('Nothing was copied.')
        : l10n.t('Copied {0} of {1} reports as Markdown.', count, refs.length),
    );
    return text;
  }

  /** Writes the reports' Markdown to the clipboard and says so (unless `quiet`). Resolves the text. */
  async function copyReports(reports: readonly Report[], options: { quiet?: boolean } = {}): Promise<string> {
    const text = reports.map((r) => reportMarkdown(r, vscode.env.language)).join('\n');
    await vscode.env.clipboard.writeText(text);
    if (options.quiet !== true) {
      flash(reports.length === 1 ? l10n.t('Copied as Markdown.') : l10n.t('Copied {0} reports as Markdown.', reports.length));
    }
    return text;
  }

  /** Export Report as JSON…: `Command.exportReportJson(item?, { target? })`. Resolves the file written. */
  async function exportJson(item?: unknown, second?: unknown): Promise<vscode.Uri | undefined> {
    const api = await requireApi(parts.connection);
    if (api === undefined) return undefined;
    const target = targetOf(second) ?? targetOf(item);
    const refs = await reportTargets(
      api,
      isOptions(item) ? undefined : item,
      undefined,
      l10n.t('Export which report as JSON?'),
    );
    const ref = refs[0];
    if (ref === undefined) return undefined;
    const serviceUrl = parts.connection.serviceUrl;
    let report: Report;
    try {
      report = await api.getReport(ref.id);
    } catch (e) {
      errors.report(e, {
        action: l10n.t("Couldn't export {0}", refName(ref)),
        // Only from the service it failed on: after a switch the same id is another report.
        retry: retryCommand(parts.connection, serviceUrl, Command.exportReportJson, { id: ref.id }),
      });
      return undefined;
    }
    return saveAs(parts.context.globalState, {
      name: `${reportFileStem(report)}.json`,
      filters: { JSON: ['json'] },
      language: 'json',
      content: new TextEncoder().encode(`${JSON.stringify(report.raw, null, 2)}\n`),
      what: l10n.t('report {0} as JSON', idText(report.id)),
      target,
    });
  }

  /**
   * The last export that failed, for its Retry. One at a time: an earlier one's listener goes
   * and its Retry starts again, so neither listeners nor fetched reports pile up.
   */
  let failed: ExportProgress | undefined;

  function startExport(): ExportProgress {
    const state: ExportProgress = {
      stale: false,
      watch: parts.connection.onDidChange(() => {
        state.stale = true;
        state.watch.dispose();
      }),
      query: parts.reportsView.listQuery(),
      limit: exportLimit(),
      load: emptyAllPages<Report>(),
    };
    return state;
  }

  /** Export List as CSV…: `Command.exportReportsCsv({ target? })`. Resolves the file written. */
  async function exportCsv(args: unknown, resume?: ExportProgress): Promise<vscode.Uri | undefined> {
    const api = await requireApi(parts.connection);
    if (api === undefined) return undefined;
    // Retry goes on with the list it was exporting; after a change of service or key it starts again.
    const state = resume !== undefined && !resume.stale ? resume : startExport();
    try {
      const finished = await fetchAll(api, state);
      state.watch.dispose();
      if (!finished) {
        void vscode.window.showInformationMessage(l10n.t('Export cancelled: nothing was written.'));
        return undefined;
      }
    } catch (e) {
      const { limit } = state;
      const { items: reports, total } = state.load;
      const action =
        reports.length > 0 && total !== undefined
          ? l10n.t(
              'Export List as CSV (stopped at {0} of {1} reports; Retry goes on from there)',
              countText(reports.length),
              countText(Math.max(reports.length, Math.min(total, limit))),
            )
          : l10n.t('Export List as CSV');
      if (failed !== state && failed !== undefined) {
        failed.stale = true;
        failed.watch.dispose();
      }
      failed = state;
      errors.report(e, { action, retry: () => exportCsv(args, state) });
      return undefined;
    }
    if (failed === state) failed = undefined;
    // The service or key changed while it ran: its pages may be two accounts'. Again, for the current one.
    if (state.stale) return exportCsv(args);
    const { query, limit } = state;
    const { items: reports, total } = state.load;
    // The user's own date; "filtered" when more than the project narrows the list.
    const now = new Date();
    const date = [now.getFullYear(), now.getMonth() + 1, now.getDate()].map((part) => String(part).padStart(2, '0')).join('-');
    const filtered = query.result !== undefined || (query.search ?? '') !== '' ? '-filtered' : '';
    const name = safeFileName(`reports-${query.project ?? 'all'}${filtered}-${date}`, `reports-${date}`);
    // Fewer than the service counts: the limit, or pages that shifted while the export went on
    // (reports added meanwhile, or long before a Retry; a service whose pages stop short reads
    // the same). Said once the file is written, not before a save that may be cancelled.
    const note =
      total === undefined || total <= reports.length
        ? undefined
        : reports.length >= limit
          ? l10n.t('Exported the first {0} of {1} reports (setting {2}).', countText(reports.length), countText(total), Setting.insightsLimit)
          : l10n.t('Exported {0} of {1} reports: the list changed while it was exported. Export again for all of them.', countText(reports.length), countText(total));
    return saveAs(parts.context.globalState, {
      name: `${name}.csv`,
      filters: { CSV: ['csv'] },
      language: 'plaintext',
      content: new TextEncoder().encode(`${CSV_BOM}${reportsCsv(reports)}`),
      encoding: 'utf8bom',
      what: reports.length === 1 ? l10n.t('1 report as CSV') : l10n.t('{0} reports as CSV', countText(reports.length)),
      target: targetOf(args),
      note,
    });
  }

  return { copyMarkdown, exportJson, exportCsv };
}
