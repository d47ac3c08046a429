/**
 * The translations load only what is in the bundles: these checks fail when the source has a
 * message l10n/bundle.l10n.json lacks (run `npm run l10n`), and when a shipped translation
 * misses, keeps stale or breaks a message (`npm run l10n:missing` lists them).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkLabel } from '../../src/presentation/format';
import { formatLabels, panelStrings } from '../../src/webview/panelStrings';
import { withBundle } from './withBundle';
import {
  compareTranslation,
  englishMessages,
  exportBundle,
  l10nDir,
  pseudoTranslations,
  shippedLanguages,
  translationGaps,
} from '../../scripts/lib/l10n';

describe('l10n bundles', function () {
  // The export parses every source file with tree-sitter (WebAssembly): a few seconds on a busy machine.
  this.timeout(60_000);

  it('l10n/bundle.l10n.json is exactly what `npm run l10n` extracts from src/ now', () => {
    const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'page-reports-l10n-'));
    try {
      const fresh = fs.readFileSync(exportBundle(temp), 'utf8');
      const checkedIn = fs.readFileSync(path.join(l10nDir, 'bundle.l10n.json'), 'utf8');
      const freshKeys = Object.keys(JSON.parse(fresh) as object);
      const checkedInKeys = new Set(Object.keys(JSON.parse(checkedIn) as object));
      const missing = freshKeys.filter((k) => !checkedInKeys.has(k));
      assert.deepEqual(missing, [], 'messages in src/ that the bundle lacks: run npm run l10n');
      const stale = [...checkedInKeys].filter((k) => !freshKeys.includes(k));
      assert.deepEqual(stale, [], 'messages in the bundle that src/ no longer has: run npm run l10n');
      assert.equal(checkedIn, fresh, 'the bundle differs from a fresh export: run npm run l10n');
    } finally {
      fs.rmSync(temp, { recursive: true, force: true });
    }
  });

  it('ships German, and every shipped language translates every message of the source and the manifest', () => {
    const languages = shippedLanguages();
    assert.ok(languages.includes('de'), `shipped: ${languages.join(', ')}`);
    for (const language of languages) {
      const gaps = translationGaps(language);
      for (const [file, found] of [
        [`l10n/bundle.l10n.${language}.json`, gaps.bundle],
        [`package.nls.${language}.json`, gaps.nls],
      ] as const) {
        assert.deepEqual(found.missing, [], `${file}: missing (npm run l10n:missing lists them)`);
        assert.deepEqual(found.stale, [], `${file}: no longer in the English source`);
        assert.deepEqual(found.broken, [], `${file}: lost a {placeholder}, command link or code span`);
      }
    }
  });

  it('a translation that drops a placeholder or a message is caught', () => {
    const english = { 'Report {0} deleted.': 'Report {0} deleted.', Retry: 'Retry' };
    const gaps = compareTranslation(english, { 'Report {0} deleted.': 'Bericht gelöscht.', Gone: 'Weg' });
    assert.deepEqual(gaps, { missing: ['Retry'], stale: ['Gone'], broken: ['Report {0} deleted.'] });
    const links = { w: 'Connect.\n[Set Service URL](command:pageReports.setServiceUrl)' };
    assert.deepEqual(compareTranslation(links, { w: 'Verbinden.\n[Dienst-URL festlegen](command:x)' }).broken, ['w']);
  });

  it('the pseudo-translation changes every message with words and keeps placeholders and command links', () => {
    const pseudo = pseudoTranslations();
    const english = englishMessages();
    for (const [kind, messages] of [
      ['bundle', english.bundle],
      ['nls', english.nls],
    ] as const) {
      for (const [key, message] of Object.entries(messages)) {
        const translated = pseudo[kind][key];
        if (/[A-Za-z]{2}/.test(message.replace(/\{\w+\}|\(command:[^)]*\)|`[^`]*`|\$\(\w+\)/g, ''))) {
          assert.notEqual(translated, message, `${kind}: ${key}`);
        }
        for (const placeholder of message.match(/\{\d+\}|\(command:[^)]*\)/g) ?? []) {
          assert.ok(translated.includes(placeholder), `${kind}: ${key} lost ${placeholder}`);
        }
      }
    }
  });

  it("the report panel's page translates every word of its own with the bundle it gets in init", () => {
    const english = { ...panelStrings(), ...formatLabels() };
    const pseudo = pseudoTranslations().bundle;
    const german = JSON.parse(fs.readFileSync(path.join(l10nDir, 'bundle.l10n.de.json'), 'utf8')) as Record<
      string,
      string
    >;
    for (const [name, bundle] of [
      ['pseudo', pseudo],
      ['de', german],
    ] as const) {
      const translated: Record<string, string> = withBundle(bundle, () => ({ ...panelStrings(), ...formatLabels() }));
      for (const [key, word] of Object.entries(english)) {
        // Symbols ('—') are the same in every language.
        if (!/[A-Za-z]/.test(word)) continue;
        // The page's `{0}`s are filled in by the page, so each word is the bundle's translation as is.
        assert.equal(translated[key], bundle[word], `${name} ${key}: ${word}`);
        if (name === 'pseudo') assert.notEqual(translated[key], word, `${key}: ${word}`);
      }
      // So are the readable names of known checks.
      assert.equal(
        withBundle(bundle, () => checkLabel('meta_description').label),
        bundle['Meta description'],
      );
    }
  });
});
