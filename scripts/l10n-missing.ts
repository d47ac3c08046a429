/**
 * Lists what a translation lacks, ready to translate: `npm run l10n:missing` (every shipped
 * language) or `npm run l10n:missing -- de fr` (a new language starts with everything missing).
 * Run `npm run l10n` first so l10n/bundle.l10n.json holds the source's current messages.
 * Prints, per language and file, the missing messages as JSON (English as the placeholder
 * value), then stale and broken ones; exits 1 when anything is missing, stale or broken.
 */
import { shippedLanguages, translationGaps } from './lib/l10n';

const languages = process.argv.slice(2).length > 0 ? process.argv.slice(2) : shippedLanguages();
let problems = 0;
for (const language of languages) {
  const found = translationGaps(language);
  const files = [
    [`l10n/bundle.l10n.${language}.json`, found.bundle],
    [`package.nls.${language}.json`, found.nls],
  ] as const;
  for (const [file, gaps] of files) {
    const count = gaps.missing.length + gaps.stale.length + gaps.broken.length;
    problems += count;
    if (count === 0) {
      console.log(`${file}: complete`);
      continue;
    }
    if (gaps.missing.length > 0) {
      console.log(`${file}: ${gaps.missing.length} missing (add these, translated):`);
      console.log(JSON.stringify(Object.fromEntries(gaps.missing.map((m) => [m, m])), null, 2));
    }
    if (gaps.stale.length > 0)
      console.log(`${file}: ${gaps.stale.length} stale (remove):\n  ${gaps.stale.join('\n  ')}`);
    if (gaps.broken.length > 0)
      console.log(
        `${file}: ${gaps.broken.length} lost a {placeholder}, command link or \`code\`:\n  ${gaps.broken.join('\n  ')}`,
      );
  }
}
process.exit(problems > 0 ? 1 : 0);
