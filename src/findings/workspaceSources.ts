/**
 * `pageReports.sources` in the workspace: each folder's entries (the setting is resource
 * scoped, so each folder may map its own site), what the setting refuses said once in the log
 * and once as a warning, and the files on disk: the first candidate that exists, never through
 * a symbolic link (its target may lie outside the folder, and the web's file system API cannot
 * resolve it to check).
 */
import * as vscode from 'vscode';
import * as l10n from '@vscode/l10n';
import { Setting } from '../ids';
import type { Log } from '../log';
import { escapeForMessage } from '../text/text';
import { candidateFiles, isUnderPrefix, pageUrlsOf, parseSources, type SourceEntry } from './sources';

/** A file a page maps to, found on disk. */
export interface FoundSource {
  readonly folder: vscode.WorkspaceFolder;
  readonly uri: vscode.Uri;
}

/** What looking for a page's file found: the file, or the patterns tried. */
export type SourceSearch =
  | { readonly kind: 'found'; readonly source: FoundSource }
  | { readonly kind: 'missing'; readonly tried: readonly string[] }
  | { readonly kind: 'unmapped' };

export class WorkspaceSources {
  readonly #said = new Set<string>();

  constructor(private readonly log: Log) {}

  /** The usable entries of `folder`'s setting; what it refuses is said once. */
  entriesOf(folder: vscode.WorkspaceFolder): readonly SourceEntry[] {
    const value = vscode.workspace.getConfiguration(undefined, folder.uri).get<unknown>(Setting.sources);
    const { entries, problems } = parseSources(value);
    for (const problem of problems) this.#sayOnce(problem);
    return entries;
  }

  /** Whether any folder maps a page to files: Open Source is offered then. */
  anyConfigured(): boolean {
    return (vscode.workspace.workspaceFolders ?? []).some((folder) => this.entriesOf(folder).length > 0);
  }

  /** Whether `url` is under a prefix of any folder's setting (the user declared the site theirs). */
  isDeclared(url: string): boolean {
    return (vscode.workspace.workspaceFolders ?? []).some((folder) => isUnderPrefix(url, this.entriesOf(folder)));
  }

  /** The source file of `pageUrl`: the first candidate that exists, folder by folder. */
  async find(pageUrl: string): Promise<SourceSearch> {
    const tried: string[] = [];
    let mapped = false;
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const candidates = candidateFiles(pageUrl, this.entriesOf(folder));
      if (candidates === undefined) continue;
      mapped = true;
      for (const file of candidates.files) {
        tried.push(file);
        const uri = await this.#existing(folder, file, candidates.entry);
        if (uri !== undefined) return { kind: 'found', source: { folder, uri } };
      }
    }
    return mapped ? { kind: 'missing', tried } : { kind: 'unmapped' };
  }

  /**
   * The page URLs whose source is the file `uri`: those the backward mapping gives and whose
   * forward mapping lands on this very file (a page has one source, the first that exists).
   */
  async pageUrlsOf(uri: vscode.Uri): Promise<string[]> {
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    if (folder === undefined) return [];
    const relative = relativePath(folder.uri, uri);
    if (relative === undefined) return [];
    const urls: string[] = [];
    for (const url of pageUrlsOf(relative, this.entriesOf(folder))) {
      const search = await this.find(url);
      if (search.kind === 'found' && search.source.uri.toString() === uri.toString()) urls.push(url);
    }
    return urls;
  }

  /**
   * `file` in `folder` when it exists as a file, reached without a symbolic link; a link on
   * the way is refused with a message, once.
   */
  async #existing(folder: vscode.WorkspaceFolder, file: string, entry: SourceEntry): Promise<vscode.Uri | undefined> {
    const segments = file.split('/').filter((segment) => segment !== '' && segment !== '.');
    let uri = folder.uri;
    for (const [i, segment] of segments.entries()) {
      uri = vscode.Uri.joinPath(uri, segment);
      let stat: vscode.FileStat;
      try {
        stat = await vscode.workspace.fs.stat(uri);
      } catch {
        return undefined;
      }
      if ((stat.type & vscode.FileType.SymbolicLink) !== 0) {
        this.#sayOnce(
          l10n.t(
            'Entry {0} of pageReports.sources: {1} is refused: {2} is a symbolic link, which may lead outside the workspace folder.',
            entry.index,
            file,
            segments.slice(0, i + 1).join('/'),
          ),
        );
        return undefined;
      }
      const last = i === segments.length - 1;
      if (last ? (stat.type & vscode.FileType.File) === 0 : (stat.type & vscode.FileType.Directory) === 0) return undefined;
    }
    return segments.length === 0 ? undefined : uri;
  }

  /** Logs `message` and shows it as a warning, the first time only (settings are read often). */
  #sayOnce(message: string): void {
    if (this.#said.has(message)) return;
    this.#said.add(message);
    this.log.warn(message);
    void vscode.window
      .showWarningMessage(escapeForMessage(message), l10n.t('Open Settings'))
      .then((choice) =>
        choice === undefined ? undefined : vscode.commands.executeCommand('workbench.action.openSettings', Setting.sources),
      );
  }

  /** Forgets what was said, so a changed setting's problems are said again. */
  forgetSaid(): void {
    this.#said.clear();
  }
}

/** `uri`'s path relative to `folder`, `/` separated, or undefined when it is not inside. */
export function relativePath(folder: vscode.Uri, uri: vscode.Uri): string | undefined {
  if (folder.scheme !== uri.scheme || folder.authority !== uri.authority) return undefined;
  const base = folder.path.endsWith('/') ? folder.path : `${folder.path}/`;
  return uri.path.startsWith(base) ? uri.path.slice(base.length) : undefined;
}
