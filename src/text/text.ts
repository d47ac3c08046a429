/**
 * Server text made safe for each place the extension shows or writes it. Every string from
 * the service is hostile: a `[label](command:…)` link in a notification or an input box's
 * message runs a command on click, `$(name)` in a label becomes an icon, a line break in a
 * log line forges another entry, and a bidi override shows text reversed. Each sink has one
 * function here, and every sink uses it. Imports no `vscode`.
 *
 * | Sink                                                             | Function                 |
 * |------------------------------------------------------------------|--------------------------|
 * | tree labels and descriptions, insights page names (plain text)   | {@link singleLine}       |
 * | CSV cells; the report page's URL, project and check names       | {@link visibleText}      |
 * | `MarkdownString` tooltips                                        | {@link escapeMarkdown}   |
 * | status bar (and its progress), quick pick items, placeholders    | {@link escapeIcons}      |
 * | notifications (progress ones too), input-box validation messages | {@link escapeForMessage} |
 * | the log channel                                                  | {@link escapeForLog}     |
 * | the clipboard (Copy URL)                                         | {@link clipboardUrls}    |
 */

/** Control characters, line breaks and bidirectional overrides. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const UNSAFE_CHARS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** The same without tab, line feed and carriage return. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const HIDING_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** Plain one-line text for a label or description: unsafe characters become U+FFFD. */
export function singleLine(text: string): string {
  return replaceUnsafe(text, '\uFFFD');
}

/** `text` with each control, line-break and bidi character replaced by `replacement` (or what it gives for the character). */
export function replaceUnsafe(text: string, replacement: string | ((char: string) => string)): string {
  return text.replace(UNSAFE_CHARS, (char) => (typeof replacement === 'string' ? replacement : replacement(char)));
}

/**
 * Text that may span lines (a CSV cell): control characters other than tab and line breaks,
 * and bidi controls, become U+FFFD, so what it holds is what it shows.
 */
export function visibleText(text: string): string {
  return text.replace(HIDING_CHARS, '\uFFFD');
}

/**
 * Escapes text for a Markdown string so that it renders as exactly that text: every ASCII
 * punctuation character gets a backslash (CommonMark lets each of them be escaped and shows
 * it literally), which defeats emphasis, links, images, autolinks (`https\:\/\/…`,
 * `www\.…`, `a\@b`), HTML (`\<img …\>`), entities (`\&amp;`), theme icons (`\$(…)`) and
 * tables. Line breaks and control characters become a replacement character, so a value
 * cannot start a new block (a heading, a list, a fence).
 */
export function escapeMarkdown(text: string): string {
  return singleLine(text).replace(/[!-/:-@[-`{-~]/g, '\\$&');
}

/**
 * One-line text for the status bar (its progress too) and quick pick items, which render
 * `$(name)` as a theme icon: the syntax is escaped (`\$(name)` shows as typed).
 * Idempotent, so text may pass through twice.
 */
export function escapeIcons(text: string): string {
  return singleLine(text).replace(/(?<!\\)\$\(/g, '\\$(');
}

/**
 * Text for a notification or an input box's validation message, which render `[label](target)`
 * as a link (a `command:` target runs on click) and `$(name)` as an icon: the link syntax is
 * broken by a space (`[Renew] (command:…)`), icons are escaped, whitespace collapsed. Idempotent.
 */
export function escapeForMessage(text: string): string {
  return escapeIcons(text.replace(/\s+/g, ' ')).replace(/\]\s*\(/g, '] (');
}

/**
 * One log line: line breaks, other control characters and bidi overrides are written as escapes
 * (`\n`, `\x1b`, `\u202e`), so server text can neither start a forged entry nor hide what it says.
 */
export function escapeForLog(text: string): string {
  return text.replace(UNSAFE_CHARS, (char) => {
    if (char === '\n') return '\\n';
    if (char === '\r') return '\\r';
    if (char === '\t') return '\\t';
    const code = char.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/**
 * URLs as Copy URL puts them on the clipboard: one line of printable text. A line break would run
 * what follows it in a terminal the text is pasted into, and an escape or a bidi override hides or
 * reverses what it shows, so control, line-break and bidi characters are percent-encoded (the URL
 * still names the same page), and several URLs are separated by a space.
 */
export function clipboardUrls(urls: readonly string[]): string {
  return urls.map((url) => replaceUnsafe(url, encodeURIComponent)).join(' ');
}

/**
 * `text` with `secret` (the API key) replaced by `[key]` wherever it shows: as it is,
 * percent-encoded (a URL the service chose), in any case (a host name the URL parser lowercased).
 * The last guard on everything logged or put in a message; no code path puts the key there.
 */
export function redactSecret(text: string, secret: string | undefined): string {
  if (secret === undefined || secret === '') return text;
  let redacted = text;
  for (const form of new Set([secret, encodeURIComponent(secret)])) {
    redacted = redacted.replace(new RegExp(form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'), '[key]');
  }
  return redacted;
}

/** Fills `{0}`, `{1}`… of `template` with `args` as plain text (no other interpretation). */
export function fill(template: string, ...args: (string | number)[]): string {
  return template.replace(/\{(\d+)\}/g, (match, i: string) => {
    const value = args[Number(i)];
    return value === undefined ? match : String(value);
  });
}
