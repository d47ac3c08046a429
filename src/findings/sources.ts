/**
 * The `pageReports.sources` setting: which workspace file renders which page. Reading and
 * checking the setting, the URL-to-file mapping and the file-to-URLs mapping backwards.
 * No `vscode` and no file system: the caller checks which candidate file exists (and that no
 * symbolic link leads out of the folder).
 *
 *   { "url": "https://shop.example/", "files": ["site/{path}.html", "site/{path}/index.html"] }
 *
 * `{path}` is the page's URL path after the prefix, percent-decoded, without a leading or
 * trailing slash, and `index` when empty. Query and fragment play no part.
 */
import * as l10n from '@vscode/l10n';
import { isRecord } from '../text/guards';
import { singleLine } from '../text/text';

/** The placeholder a pattern holds for the page's path. */
export const PATH_PLACEHOLDER = '{path}';

/** The stand-in for the empty path (the prefix's own page). */
export const INDEX = 'index';

/** One checked entry of the setting: a URL prefix and its file patterns, in order. */
export interface SourceEntry {
  /** Its position in the setting (1-based), for messages. */
  readonly index: number;
  /** The prefix, normalized by WHATWG URL; its path ends with `/`. */
  readonly prefix: string;
  /** Patterns relative to the workspace folder, with `/` as separator. */
  readonly files: readonly string[];
}

/** The setting as read: the usable entries and one message per thing refused. */
export interface Sources {
  readonly entries: readonly SourceEntry[];
  readonly problems: readonly string[];
}

/** Reads the setting's value; whatever is not usable is left out with a message naming the entry. */
export function parseSources(value: unknown): Sources {
  if (value === undefined || value === null) return { entries: [], problems: [] };
  if (!Array.isArray(value)) {
    return { entries: [], problems: [l10n.t('pageReports.sources must be a list of {0} entries.', '{ "url", "files" }')] };
  }
  const entries: SourceEntry[] = [];
  const problems: string[] = [];
  value.forEach((raw: unknown, i) => {
    const index = i + 1;
    if (!isRecord(raw)) {
      problems.push(l10n.t('Entry {0} of pageReports.sources is not an object with "url" and "files"; it is ignored.', index));
      return;
    }
    const name = typeof raw.url === 'string' ? `${index} (${singleLine(raw.url)})` : String(index);
    const prefix = parsePrefix(raw.url);
    if (prefix === undefined) {
      problems.push(
        l10n.t(
          'Entry {0} of pageReports.sources: "url" must be an http or https URL with a host that ends with "/", like https://shop.example/ or https://shop.example/en/; the entry is ignored.',
          name,
        ),
      );
      return;
    }
    if (!Array.isArray(raw.files) || raw.files.length === 0) {
      problems.push(l10n.t('Entry {0} of pageReports.sources: "files" must be a list of file patterns; the entry is ignored.', name));
      return;
    }
    const files: string[] = [];
    for (const pattern of raw.files as unknown[]) {
      const refusal = patternProblem(pattern);
      if (refusal === undefined) files.push((pattern as string).replace(/\\/g, '/'));
      else problems.push(l10n.t('Entry {0} of pageReports.sources: the pattern {1} is refused: {2}', name, describePattern(pattern), refusal));
    }
    if (files.length > 0) entries.push({ index, prefix, files });
  });
  return { entries, problems };
}

function describePattern(pattern: unknown): string {
  return typeof pattern === 'string' ? `"${singleLine(pattern)}"` : JSON.stringify(pattern) ?? String(pattern);
}

/** The prefix as a normalized URL, or undefined when it is no http(s) URL ending at a segment boundary. */
export function parsePrefix(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.hostname === '' || url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') return undefined;
  // `https://shop.example` is read as `https://shop.example/`; `https://shop.example/en` is not a folder.
  if (!url.pathname.endsWith('/')) return undefined;
  return url.href;
}

/** Why a file pattern is refused, or undefined when it is usable. */
export function patternProblem(pattern: unknown): string | undefined {
  if (typeof pattern !== 'string' || pattern.trim() === '') return l10n.t('it is not a file path.');
  if (!pattern.includes(PATH_PLACEHOLDER)) return l10n.t('it has no {0}.', PATH_PLACEHOLDER);
  if (isAbsolutePath(pattern)) return l10n.t('it is absolute; patterns are relative to the workspace folder.');
  if (pattern.split(/[\\/]/).some((segment) => segment === '..')) return l10n.t('it contains "..", which leads out of the workspace folder.');
  return undefined;
}

function isAbsolutePath(path: string): boolean {
  return /^[\\/~]/.test(path) || /^[A-Za-z]:/.test(path) || /^[A-Za-z][A-Za-z\d+.-]*:\/\//.test(path);
}

/** A page URL without its fragment and one trailing slash: two URLs of the same page read the same. */
export function pageKey(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
  parsed.hash = '';
  const href = parsed.href;
  if (parsed.search === '') return href.endsWith('/') ? href.slice(0, -1) : href;
  // The slash that may go is the path's last, before the query.
  const path = parsed.pathname.endsWith('/') && parsed.pathname !== '/' ? parsed.pathname.slice(0, -1) : parsed.pathname;
  return `${parsed.origin}${path === '/' ? '' : path}${parsed.search}`;
}

/** Whether two URLs are the same page (ignoring a fragment and one trailing slash). */
export function samePage(a: string, b: string): boolean {
  const key = pageKey(a);
  return key !== undefined && key === pageKey(b);
}

/**
 * The `{path}` of `pageUrl` under `prefix`, or undefined when the URL is not under it, or its
 * path decodes to something that is no plain relative path (`..`, `%2F`, a backslash, a
 * control character, an empty segment): such a URL has no source file.
 */
export function pagePath(pageUrl: string, prefix: string): string | undefined {
  let page: URL;
  let base: URL;
  try {
    page = new URL(pageUrl);
    base = new URL(prefix);
  } catch {
    return undefined;
  }
  if (page.origin !== base.origin) return undefined;
  const basePath = base.pathname;
  let rest: string;
  if (page.pathname.startsWith(basePath)) rest = page.pathname.slice(basePath.length);
  else if (`${page.pathname}/` === basePath) rest = '';
  else return undefined;
  rest = rest.replace(/^\/+/, '').replace(/\/+$/, '');
  if (rest === '') return INDEX;
  const segments: string[] = [];
  for (const raw of rest.split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return undefined;
    }
    // eslint-disable-next-line no-control-regex
    if (segment === '' || segment === '.' || segment === '..' || /[\\/\u0000-\u001f\u007f]/.test(segment)) return undefined;
    segments.push(segment);
  }
  return segments.join('/');
}

/** The entry whose prefix `pageUrl` is under (the longest such prefix), or undefined. */
export function entryOf(pageUrl: string, entries: readonly SourceEntry[]): SourceEntry | undefined {
  let best: SourceEntry | undefined;
  for (const entry of entries) {
    if (pagePath(pageUrl, entry.prefix) === undefined) continue;
    if (best === undefined || entry.prefix.length > best.prefix.length) best = entry;
  }
  return best;
}

/** Whether `url` is under a prefix of `entries` (its path may still have no file). */
export function isUnderPrefix(url: string, entries: readonly SourceEntry[]): boolean {
  return entries.some((entry) => {
    try {
      const page = new URL(url);
      const base = new URL(entry.prefix);
      return page.origin === base.origin && (page.pathname.startsWith(base.pathname) || `${page.pathname}/` === base.pathname);
    } catch {
      return false;
    }
  });
}

/** The files a page's source may be, in the order to try them (relative to the workspace folder). */
export interface Candidates {
  readonly entry: SourceEntry;
  readonly files: readonly string[];
}

/** The candidate files of `pageUrl`, or undefined when it is under no prefix or its path is refused. */
export function candidateFiles(pageUrl: string, entries: readonly SourceEntry[]): Candidates | undefined {
  const entry = entryOf(pageUrl, entries);
  if (entry === undefined) return undefined;
  const path = pagePath(pageUrl, entry.prefix);
  if (path === undefined) return undefined;
  return { entry, files: entry.files.map((pattern) => pattern.split(PATH_PLACEHOLDER).join(path)) };
}

/**
 * The page URLs whose mapping may give the file at `relativePath` (folder-relative, `/`
 * separated): one per entry and pattern it matches, `index` read as the prefix's own page.
 * The caller keeps those whose first existing candidate is this very file.
 */
export function pageUrlsOf(relativePath: string, entries: readonly SourceEntry[]): string[] {
  const file = relativePath.replace(/\\/g, '/');
  const urls = new Set<string>();
  for (const entry of entries) {
    for (const pattern of entry.files) {
      const path = matchPattern(pattern, file);
      if (path === undefined) continue;
      const url = urlOfPath(entry.prefix, path);
      if (url !== undefined) urls.add(url);
    }
  }
  return [...urls];
}

/** The `{path}` that turns `pattern` into `file`, or undefined. Every `{path}` must stand for the same text. */
function matchPattern(pattern: string, file: string): string | undefined {
  const parts = pattern.split(PATH_PLACEHOLDER).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const source = parts.map((part, i) => (i === 0 ? part : `${i === 1 ? '(.+?)' : '\\1'}${part}`)).join('');
  const match = new RegExp(`^${source}$`).exec(file);
  const path = match?.[1];
  if (path === undefined) return undefined;
  const segments = path.split('/');
  return segments.some((s) => s === '' || s === '.' || s === '..') ? undefined : path;
}

/** The page URL of `{path}` under `prefix`. */
function urlOfPath(prefix: string, path: string): string | undefined {
  if (path === INDEX) return prefix;
  const encoded = path
    .split('/')
    .map((segment) => segment.replace(/[%?#]/g, (c) => encodeURIComponent(c)))
    .join('/');
  try {
    // `./` keeps a first segment like `http:` a path, never a URL of its own.
    const url = new URL(`./${encoded}`, prefix).href;
    return url.startsWith(prefix) ? url : undefined;
  } catch {
    return undefined;
  }
}
