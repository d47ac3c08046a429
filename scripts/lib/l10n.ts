/**
 * The translations' bookkeeping, shared by `npm run l10n:missing`, the unit test of the bundles
 * and the locale runs of the integration level:
 *
 * - l10n/bundle.l10n.json is what `npm run l10n` (`vscode-l10n-dev export`) extracts from src/;
 * - l10n/bundle.l10n.<language>.json and package.nls.<language>.json are the translations;
 * - a translation must cover every message, keep its `{0}` placeholders and, in package.nls,
 *   its command links and `code` spans.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { getL10nPseudoLocalized } from '@vscode/l10n-dev';
import { repoRoot } from './tools';

export type Messages = Record<string, string>;

export const l10nDir = path.join(repoRoot, 'l10n');

function readJson(file: string): Messages {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Messages;
}

/** The English messages of the source (l10n/bundle.l10n.json) and of the manifest (package.nls.json). */
export function englishMessages(): { bundle: Messages; nls: Messages } {
  return {
    bundle: readJson(path.join(l10nDir, 'bundle.l10n.json')),
    nls: readJson(path.join(repoRoot, 'package.nls.json')),
  };
}

/** The languages with a shipped translation of the bundle, e.g. `['de']`. */
export function shippedLanguages(): string[] {
  return fs
    .readdirSync(l10nDir)
    .map((f) => /^bundle\.l10n\.(.+)\.json$/.exec(f)?.[1])
    .filter((lang): lang is string => lang !== undefined)
    .sort();
}

/**
 * Runs `vscode-l10n-dev export` over src/ into `outDir` (what `npm run l10n` does into l10n/)
 * and returns the file it wrote. Throws with the tool's output when it fails.
 */
export function exportBundle(outDir: string): string {
  const cli = path.join(repoRoot, 'node_modules', '@vscode', 'l10n-dev', 'dist', 'cli.js');
  const result = spawnSync(process.execPath, [cli, 'export', '--outDir', outDir, './src'], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`vscode-l10n-dev export failed:\n${result.stdout}${result.stderr}`);
  return path.join(outDir, 'bundle.l10n.json');
}

/** What a translation must keep of its English message: placeholders, command links, code spans. */
function invariants(message: string): string[] {
  const kept = message.match(/\{\w+\}|\]\(command:[^)]*\)|`[^`]*`/g) ?? [];
  return kept.sort();
}

export interface TranslationGaps {
  /** English messages without a translation. */
  missing: string[];
  /** Translated messages the English source no longer has. */
  stale: string[];
  /** Messages whose translation lost or changed a placeholder, command link or code span. */
  broken: string[];
}

/** Where `translated` falls short of `english`. */
export function compareTranslation(english: Messages, translated: Messages): TranslationGaps {
  const missing = Object.keys(english).filter((k) => typeof translated[k] !== 'string' || translated[k] === '');
  const stale = Object.keys(translated).filter((k) => !(k in english));
  const broken = Object.keys(english).filter((k) => {
    const t = translated[k];
    return typeof t === 'string' && t !== '' && invariants(english[k]).join('\n') !== invariants(t).join('\n');
  });
  return { missing, stale, broken };
}

/** Where `language`'s translation falls short: of the source's messages and of the manifest's. */
export function translationGaps(language: string): { bundle: TranslationGaps; nls: TranslationGaps } {
  const english = englishMessages();
  const read = (file: string): Messages => (fs.existsSync(file) ? readJson(file) : {});
  return {
    bundle: compareTranslation(english.bundle, read(path.join(l10nDir, `bundle.l10n.${language}.json`))),
    nls: compareTranslation(english.nls, read(path.join(repoRoot, `package.nls.${language}.json`))),
  };
}

/**
 * A pseudo-translation of every message (`Retry` → `Řḗḗŧřẏ`), from vscode-l10n-dev: it keeps
 * placeholders and command links, and anything English left on screen stands out.
 */
export function pseudoTranslations(): { bundle: Messages; nls: Messages } {
  const english = englishMessages();
  return {
    bundle: getL10nPseudoLocalized(english.bundle) as Messages,
    nls: getL10nPseudoLocalized(english.nls) as Messages,
  };
}

/** The pseudo-locale's language id: VS Code's own pseudo language pack uses it too. */
export const PSEUDO_LOCALE = 'qps-ploc';

/**
 * Writes the pseudo-translation into an extension folder (a built copy or an installed one):
 * l10n/bundle.l10n.qps-ploc.json and package.nls.qps-ploc.json. Never into the repository.
 */
export function writePseudoTranslations(extensionDir: string): void {
  const pseudo = pseudoTranslations();
  fs.mkdirSync(path.join(extensionDir, 'l10n'), { recursive: true });
  fs.writeFileSync(
    path.join(extensionDir, 'l10n', `bundle.l10n.${PSEUDO_LOCALE}.json`),
    JSON.stringify(pseudo.bundle, null, 2),
  );
  fs.writeFileSync(path.join(extensionDir, `package.nls.${PSEUDO_LOCALE}.json`), JSON.stringify(pseudo.nls, null, 2));
}
