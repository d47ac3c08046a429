/**
 * Where in a source file a check's element is: the table of the checks the reference service
 * analyses and the element each is about, and a finder that works on HTML, JSX-like templates
 * and Markdown (its front matter). A text search, not a parser: source files are templates,
 * often not valid HTML, and a line near the element is worth more than no line at all.
 * No `vscode`.
 */

/** How a file shows its page: as markup (HTML, JSX, templates) or as Markdown with front matter. */
export type SourceKind = 'markup' | 'markdown';

/** The kind of a file, by its name. */
export function sourceKindOf(fileName: string): SourceKind {
  return /\.(md|markdown|mdx)$/i.test(fileName) ? 'markdown' : 'markup';
}

/** A place in the text: 0-based line, and the columns of the element's start on that line. */
export interface Place {
  readonly line: number;
  readonly start: number;
  readonly end: number;
}

/** What a check is about, in markup: a pattern for its element, or a finder when a pattern cannot say. */
type MarkupFinder = RegExp | ((text: string) => number | undefined);

interface ElementOf {
  readonly markup?: MarkupFinder;
  /** Front matter keys a Markdown page sets the element with, in order. */
  readonly frontMatter?: readonly string[];
  /** In Markdown's body, when the front matter has no key for it. */
  readonly markdown?: RegExp;
}

const DEPRECATED = 'acronym|applet|basefont|big|blink|center|dir|font|frame|frameset|isindex|marquee|nobr|noframes|strike|tt';

/** An opening tag `name` with an attribute matching `attribute` somewhere in it. */
function tagWith(name: string, attribute: string): RegExp {
  return new RegExp(`<${name}\\b[^>]*?\\b${attribute}`, 'i');
}

const TITLE: ElementOf = { markup: /<title\b/i, frontMatter: ['title'], markdown: /^#\s/m };
const DESCRIPTION: ElementOf = {
  markup: tagWith('meta', `name\\s*=\\s*[{"'\\s]*description\\b`),
  frontMatter: ['description', 'summary', 'excerpt'],
};
const LANGUAGE: ElementOf = { markup: /<html\b/i, frontMatter: ['lang', 'language', 'locale'] };

/** Each check the reference service analyses, and the element it is about. */
export const CHECK_ELEMENTS: Readonly<Record<string, ElementOf>> = {
  title: TITLE,
  title_length: TITLE,
  meta_description: DESCRIPTION,
  meta_description_length: DESCRIPTION,
  h1: { markup: /<h1\b/i, markdown: /^#\s/m },
  heading_order: { markup: /<h[1-6]\b/i, markdown: /^#{1,6}\s/m },
  image_alt: { markup: firstImageWithoutAlt, markdown: /!\[\s*\]\(/ },
  lang: LANGUAGE,
  language: LANGUAGE,
  viewport: { markup: tagWith('meta', `name\\s*=\\s*[{"'\\s]*viewport\\b`) },
  charset: { markup: tagWith('meta', 'charset') },
  canonical: { markup: tagWith('link', `rel\\s*=\\s*[{"'\\s]*canonical\\b`), frontMatter: ['canonical', 'canonical_url', 'canonicalURL'] },
  noindex: { markup: tagWith('meta', `name\\s*=\\s*[{"'\\s]*robots\\b`), frontMatter: ['robots', 'noindex'] },
  favicon: { markup: tagWith('link', `rel\\s*=\\s*[{"'\\s]*(?:shortcut\\s+)?icon\\b`) },
  structured_data: { markup: tagWith('script', `type\\s*=\\s*[{"'\\s]*application/ld\\+json`) },
  open_graph: { markup: tagWith('meta', `property\\s*=\\s*[{"'\\s]*og:`), frontMatter: ['image', 'og_image'] },
  deprecated_tags: { markup: new RegExp(`<(?:${DEPRECATED})\\b`, 'i') },
  doctype: { markup: /<!doctype\b/i },
};

/** The first `<img …>` without an `alt` attribute (JSX's `alt={…}` counts as one). */
function firstImageWithoutAlt(text: string): number | undefined {
  const images = /<img\b[^>]*>/gi;
  for (let match = images.exec(text); match !== null; match = images.exec(text)) {
    if (!/\salt\s*=/i.test(match[0]) && !/\salt[\s/>]/i.test(match[0])) return match.index;
  }
  return undefined;
}

/**
 * Where `text` (a file of `kind`) shows the element of check `check`, or undefined when the
 * table has no element for it or the file does not show one.
 */
export function findElement(text: string, check: string, kind: SourceKind): Place | undefined {
  const element = CHECK_ELEMENTS[check] ?? CHECK_ELEMENTS[check.toLowerCase()];
  if (element === undefined) return undefined;
  if (kind === 'markdown') {
    const offset =
      frontMatterKey(text, element.frontMatter ?? []) ?? searchFrom(text, element.markdown) ?? searchFrom(text, element.markup);
    return offset === undefined ? undefined : placeAt(text, offset);
  }
  const offset = searchFrom(text, element.markup);
  return offset === undefined ? undefined : placeAt(text, offset);
}

function searchFrom(text: string, finder: MarkupFinder | undefined): number | undefined {
  if (finder === undefined) return undefined;
  if (typeof finder === 'function') return finder(text);
  const match = finder.exec(text);
  return match === null ? undefined : match.index;
}

/** The offset of the first of `keys` in the file's YAML front matter (`---` … `---` at its top). */
function frontMatterKey(text: string, keys: readonly string[]): number | undefined {
  const front = /^(?:\uFEFF)?---\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)\s*(?:\r?\n|$)/.exec(text);
  if (front === null || keys.length === 0) return undefined;
  const bodyStart = front[0].indexOf(front[1] ?? '');
  for (const key of keys) {
    const match = new RegExp(`^${key}\\s*:`, 'mi').exec(front[1] ?? '');
    if (match !== null) return bodyStart + match.index;
  }
  return undefined;
}

/** The line and columns of `offset`: from there to the end of the tag (or of the line). */
function placeAt(text: string, offset: number): Place {
  const before = text.slice(0, offset);
  const line = before.split('\n').length - 1;
  const lineStart = before.lastIndexOf('\n') + 1;
  const start = offset - lineStart;
  const lineEnd = text.indexOf('\n', offset);
  const rest = text.slice(offset, lineEnd === -1 ? undefined : lineEnd).replace(/\r$/, '');
  const close = rest.indexOf('>');
  return { line, start, end: start + (close === -1 ? rest.length : close + 1) };
}
