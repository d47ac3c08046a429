/**
 * Fails when a packaged VSIX holds anything but what runs: the bundles in dist/ (no source
 * maps), media/, the manifest, README, CHANGELOG and LICENSE. Run by `npm run package`:
 *
 *   node --import tsx scripts/check-vsix.ts page-reports.vsix
 */
import * as fs from 'node:fs';

/** Entry names of a zip file, read from its central directory. */
export function zipEntries(zip: Buffer): string[] {
  // The end-of-central-directory record sits in the last 22 + 65535 (comment) bytes.
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('not a zip file (no end of central directory)');
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  const names: string[] = [];
  for (let n = 0; n < count; n++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`broken central directory entry ${n}`);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    names.push(zip.toString('utf8', at + 46, at + 46 + nameLength));
    at += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}

/** What a VSIX of this extension may hold (vsce renames README, CHANGELOG and LICENSE). */
const allowed: RegExp[] = [
  /^\[Content_Types\]\.xml$/,
  /^extension\.vsixmanifest$/,
  /^extension\/package\.json$/,
  /^extension\/package\.nls\.json$/,
  /^extension\/readme\.md$/i,
  /^extension\/changelog\.md$/i,
  /^extension\/LICENSE(\.txt)?$/,
  /^extension\/dist\/(extension|main)\.js$/,
  /^extension\/dist\/webview\/panel\.js$/,
  /^extension\/dist\/codicons\/codicon\.(css|ttf)$/,
  /^extension\/media\/(?!screenshots\/)[^/]+\.(png|svg|css)$/,
];

/** Entries that must be there for the extension to run. */
const required = [
  'extension/package.json',
  'extension/dist/extension.js',
  // What activation defers, required by extension.js on first use.
  'extension/dist/main.js',
  'extension/dist/webview/panel.js',
  'extension/media/icon.png',
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
  const entries = zipEntries(fs.readFileSync(file));
  const problems = vsixProblems(entries);
  if (problems.length > 0) {
    console.error(`${file}:\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  console.log(`${file}: ${entries.length} files, only what runs`);
}
