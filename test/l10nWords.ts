/**
 * How the locale tests (integration and end-to-end) tell an untranslated word: a word of the
 * English messages that no translation uses, that the service's data does not hold and that
 * `Intl` did not write into a date. No `vscode`, no DOM: both levels import it.
 */

export type Messages = Record<string, string>;

/** Lower-case words of three letters or more (ASCII: English words; translations may add others). */
export function words(text: string): string[] {
  return (text.match(/[A-Za-z]{3,}/g) ?? []).map((w) => w.toLowerCase());
}

/** Words of the English messages that no translated message uses: seeing one means English leaked. */
export function englishOnlyWords(english: Messages[], translated: Messages[]): Set<string> {
  const kept = new Set(translated.flatMap((m) => Object.values(m)).flatMap(words));
  return new Set(
    english
      .flatMap((m) => Object.values(m))
      // Placeholders, command links, code spans and icons are not words anyone reads.
      .map((m) => m.replace(/\{\w+\}|\(command:[^)]*\)|`[^`]*`|\$\([\w-]+\)/g, ''))
      .flatMap(words)
      .filter((w) => !kept.has(w)),
  );
}

/**
 * Words `Intl` says in `language` about dates: month names, day periods and relative times.
 * Dates are `Intl`'s, not the extension's messages; for the pseudo-locale, which `Intl` does
 * not know, they are English ("May 23, 2026, 1:21 AM (6 months ago)").
 */
export function intlDateWords(language: string): Set<string> {
  let locale = 'en';
  try {
    locale = Intl.getCanonicalLocales(language)[0] ?? 'en';
  } catch {
    // Not a tag Intl takes: English, as src/text/dates.ts falls back to.
  }
  const said: string[] = [];
  const absolute = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  for (let month = 0; month < 12; month++)
    said.push(absolute.format(Date.UTC(2026, month, 15, 3)), absolute.format(Date.UTC(2026, month, 15, 15)));
  const relative = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  for (const unit of ['second', 'minute', 'hour', 'day', 'month', 'year'] as const) {
    for (const n of [-2, -1, 0, 1, 2]) said.push(relative.format(n, unit));
  }
  return new Set(said.flatMap(words));
}

/** What was shown where, and the English words in it that are neither data nor dates. */
export function leaks(
  seen: readonly { where: string; text: string }[],
  englishOnly: ReadonlySet<string>,
  allowed: ReadonlySet<string>,
): { where: string; shown: string; english: string[] }[] {
  return seen
    .map(({ where, text }) => ({
      where,
      shown: text,
      english: words(text).filter((w) => englishOnly.has(w) && !allowed.has(w)),
    }))
    .filter((s) => s.english.length > 0);
}
