/**
 * Fails when a packaged VSIX holds anything but what runs: the bundles in dist/ (no source
 * maps), media/, the manifest, README, CHANGELOG and LICENSE. Run by `npm run package`:
 *
 *   node --import tsx scripts/check-vsix.ts page-reports.vsix
 */
import * as fs from 'node:fs';
import { zipEntries } from './lib/zip';

/** What a VSIX of this extension may hold (vsce renames README, CHANGELOG and LICENSE). */
const allowed: RegExp[] = [
  /^\[Content_Types\]\.xml$/,
  /^extension\.vsixmanifest$/,
  /^extension\/package\.json$/,
  /^extension\/package\.nls\.json$/,
  // Translations: the manifest's and the source's, per language (the English bundle is the source itself).
  /^extension\/package\.nls\.[a-z]{2,3}(-[a-z0-9]+)*\.json$/,
  /^extension\/l10n\/bundle\.l10n\.[a-z]{2,3}(-[a-z0-9]+)*\.json$/,
  /^extension\/readme\.md$/i,
  /^extension\/changelog\.md$/i,
  /^extension\/LICENSE(\.txt)?$/,
  /^extension\/dist\/extension\.js$/,
  /^extension\/dist\/web\/extension\.js$/,
  /^extension\/dist\/webview\/(panel|insights)\.js$/,
  /^extension\/media\/(?!screenshots\/)[^/]+\.(png|svg|css)$/,
  // The README's screenshots, so the extension page shows them (.vscodeignore lists each).
  /^extension\/media\/screenshots\/[a-z0-9-]+\.png$/,
];

/** Entries that must be there for the extension to run. */
const required = [
  'extension/package.json',
  'extension/dist/extension.js',
  // The browser entry, for the web worker extension host (vscode.dev, code-server's web host).
  'extension/dist/web/extension.js',
  'extension/dist/webview/panel.js',
  'extension/dist/webview/insights.js',
  'extension/media/icon.png',
  // The German translation proves the translation path with a real language.
  'extension/package.nls.de.json',
  'extension/l10n/bundle.l10n.de.json',
];

/** Problems with a VSIX's entry list; empty when it is fine. */
export function vsixProblems(entries: readonly string[]): string[] {
  const problems = entries.filter((e) => !allowed.some((re) => re.test(e))).map((e) => `unexpected file: ${e}`);
  for (const r of required) if (!entries.includes(r)) problems.push(`missing: ${r}`);
  return problems;
}

if (require.main === module) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: check-vsix.ts FILE.vsix');
    process.exit(2);
  }
  const entries = zipEntries(fs.readFileSync(file)).map((entry) => entry.name);
  const problems = vsixProblems(entries);
  if (problems.length > 0) {
    console.error(`${file}:\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  console.log(`${file}: ${entries.length} files, only what runs`);
}
