/**
 * The analysis proper: parses a page with htmlparser2 and runs the checks. Each check has an
 * importance, which is its weight in the score (high 3, medium 2, low 1). The list, the
 * limits and the score formula are documented in test/service/README.md; keep them in step.
 */
import { Parser } from 'htmlparser2';
import type { Analysis, CheckResult, Importance, ReportResult } from './types';

/** What the checks need to know about a fetched page besides its HTML. */
export interface PageFacts {
  finalUrl: URL;
  redirects: number;
  bytes: number;
  elapsedMs: number;
  /** Charset from the Content-Type header, if any. */
  headerCharset: string | null;
  /** The X-Robots-Tag header, if any. */
  robotsHeader: string | null;
}

export const WEIGHTS: Record<Importance, number> = { high: 3, medium: 2, low: 1 };

/** Score thresholds: `good` from 80, `decent` from 50, `bad` below. */
export const THRESHOLDS = { good: 80, decent: 50 } as const;

/** Limits the checks use (also in README.md). */
export const LIMITS = {
  titleLength: [10, 60],
  descriptionLength: [50, 160],
  minWords: 250,
  maxBytes: 300 * 1024,
  maxResponseMs: 1000,
} as const;

const DEPRECATED_TAGS = new Set([
  'acronym',
  'applet',
  'basefont',
  'big',
  'blink',
  'center',
  'dir',
  'font',
  'frame',
  'frameset',
  'isindex',
  'marquee',
  'nobr',
  'noframes',
  'strike',
  'tt',
]);

/** Elements whose text is not page text. */
const NON_TEXT = new Set(['script', 'style', 'noscript', 'template', 'head', 'title', 'svg', 'math']);

/** Everything the checks read, collected in one pass of the parser. */
interface Scan {
  doctype: string | null;
  lang: string | null;
  title: string | null;
  metaByName: Map<string, string>;
  metaCharset: string | null;
  og: Map<string, string>;
  canonical: string | null;
  favicon: string | null;
  headings: { level: number; text: string }[];
  images: { src: string; hasAlt: boolean }[];
  links: string[];
  jsonLd: string[];
  deprecated: Set<string>;
  words: number;
}

const WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function scan(html: string): Scan {
  const result: Scan = {
    doctype: null,
    lang: null,
    title: null,
    metaByName: new Map(),
    metaCharset: null,
    og: new Map(),
    canonical: null,
    favicon: null,
    headings: [],
    images: [],
    links: [],
    jsonLd: [],
    deprecated: new Set(),
    words: 0,
  };
  const stack: string[] = [];
  let nonText = 0;
  let titleText: string | null = null;
  let heading: { level: number; text: string } | null = null;
  let jsonLd: string | null = null;
  const parser = new Parser(
    {
      onprocessinginstruction(name, data) {
        if (name.toLowerCase() === '!doctype' && result.doctype === null) result.doctype = data;
      },
      onopentag(name, attribs) {
        stack.push(name);
        if (NON_TEXT.has(name)) nonText++;
        if (DEPRECATED_TAGS.has(name)) result.deprecated.add(name);
        switch (name) {
          case 'html':
            if (result.lang === null && attribs.lang !== undefined) result.lang = attribs.lang.trim();
            break;
          case 'title':
            if (result.title === null) titleText = '';
            break;
          case 'meta': {
            const key = (attribs.name ?? '').toLowerCase();
            const property = (attribs.property ?? '').toLowerCase();
            if (key && attribs.content !== undefined && !result.metaByName.has(key))
              result.metaByName.set(key, attribs.content);
            if (property.startsWith('og:') && attribs.content !== undefined)
              result.og.set(property.slice(3), attribs.content);
            if (attribs.charset !== undefined) result.metaCharset ??= attribs.charset.trim().toLowerCase();
            if ((attribs['http-equiv'] ?? '').toLowerCase() === 'content-type') {
              const match = /charset\s*=\s*([\w.:-]+)/i.exec(attribs.content ?? '');
              if (match) result.metaCharset ??= match[1].toLowerCase();
            }
            break;
          }
          case 'link': {
            const rel = (attribs.rel ?? '').toLowerCase().split(/\s+/);
            if (rel.includes('canonical') && attribs.href !== undefined) result.canonical ??= attribs.href;
            if ((rel.includes('icon') || rel.includes('apple-touch-icon')) && attribs.href !== undefined)
              result.favicon ??= attribs.href;
            break;
          }
          case 'img':
            result.images.push({ src: attribs.src ?? '', hasAlt: attribs.alt !== undefined });
            break;
          case 'a':
            if (attribs.href !== undefined) result.links.push(attribs.href);
            else result.links.push('');
            break;
          case 'script':
            if ((attribs.type ?? '').toLowerCase() === 'application/ld+json') jsonLd = '';
            break;
          default:
            if (/^h[1-6]$/.test(name)) heading = { level: Number(name[1]), text: '' };
        }
      },
      ontext(text) {
        if (titleText !== null) titleText += text;
        if (jsonLd !== null) jsonLd += text;
        if (heading) heading.text += text;
        if (nonText === 0) result.words += text.match(WORD)?.length ?? 0;
      },
      onclosetag(name) {
        const index = stack.lastIndexOf(name);
        if (index >= 0) {
          stack.length = index;
          nonText = stack.filter((open) => NON_TEXT.has(open)).length;
        }
        if (name === 'title' && titleText !== null) {
          result.title = collapse(titleText);
          titleText = null;
        }
        if (name === 'script' && jsonLd !== null) {
          result.jsonLd.push(jsonLd);
          jsonLd = null;
        }
        if (heading && name === `h${heading.level}`) {
          result.headings.push({ level: heading.level, text: collapse(heading.text).slice(0, 200) });
          heading = null;
        }
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return result;
}

/** Absolute form of a link found on the page; the raw text when it does not resolve. */
function absolute(href: string, base: URL): string {
  try {
    return new URL(href, base).href;
  } catch {
    return href;
  }
}

function check(importance: Importance, passed: boolean, value: unknown): CheckResult {
  return { passed, importance, value };
}

/** Types named by the page's JSON-LD blocks (blocks that do not parse are skipped). */
function structuredTypes(blocks: string[]): string[] | null {
  const types: string[] = [];
  let valid = 0;
  for (const block of blocks) {
    let data: unknown;
    try {
      data = JSON.parse(block);
    } catch {
      continue;
    }
    valid++;
    const items = Array.isArray(data) ? data : [data];
    for (const item of items) {
      const type = (item as { '@type'?: unknown } | null)?.['@type'];
      if (typeof type === 'string') types.push(type);
      else if (Array.isArray(type)) types.push(...type.filter((t): t is string => typeof t === 'string'));
    }
  }
  return valid > 0 ? types : null;
}

/** Skipped heading levels, e.g. `h2 → h4`; a page that starts below h1 says so too. */
function headingProblems(headings: { level: number }[]): string[] {
  if (headings.length === 0) return ['no headings'];
  const problems: string[] = [];
  if (headings[0].level !== 1) problems.push(`starts with h${headings[0].level}`);
  for (let i = 1; i < headings.length; i++) {
    const previous = headings[i - 1].level;
    const current = headings[i].level;
    if (current > previous + 1) problems.push(`h${previous} → h${current}`);
  }
  return problems;
}

/** Runs every check on a page. Keys are the check names a report's `results` holds. */
export function runChecks(html: string, facts: PageFacts): Record<string, CheckResult> {
  const page = scan(html);
  const description = page.metaByName.get('description')?.trim() || null;
  const robots = [page.metaByName.get('robots'), page.metaByName.get('googlebot'), facts.robotsHeader].filter(
    (value): value is string => typeof value === 'string' && value.trim() !== '',
  );
  const charset = facts.headerCharset ?? page.metaCharset;
  const h1 = page.headings.filter((h) => h.level === 1).map((h) => h.text);
  const missingAlt = page.images.filter((image) => !image.hasAlt);
  const host = facts.finalUrl.host;
  let internal = 0;
  let external = 0;
  let empty = 0;
  for (const href of page.links) {
    const trimmed = href.trim();
    if (trimmed === '' || trimmed === '#' || /^javascript:/i.test(trimmed)) {
      empty++;
      continue;
    }
    try {
      const target = new URL(trimmed, facts.finalUrl);
      if (target.host === host) internal++;
      else external++;
    } catch {
      empty++;
    }
  }
  const headingIssues = headingProblems(page.headings);
  const types = structuredTypes(page.jsonLd);
  const og = Object.fromEntries(page.og);
  const title = page.title || null;
  const titleLength = title?.length ?? 0;
  const descriptionLength = description?.length ?? 0;
  const viewport = page.metaByName.get('viewport')?.trim() || null;
  const doctype = page.doctype === null ? null : page.doctype.trim();

  return {
    title: check('high', title !== null, title),
    title_length: check(
      'medium',
      titleLength >= LIMITS.titleLength[0] && titleLength <= LIMITS.titleLength[1],
      titleLength,
    ),
    meta_description: check('high', description !== null, description),
    meta_description_length: check(
      'low',
      descriptionLength >= LIMITS.descriptionLength[0] && descriptionLength <= LIMITS.descriptionLength[1],
      descriptionLength,
    ),
    h1: check('high', h1.length === 1, h1),
    heading_order: check('medium', headingIssues.length === 0, headingIssues),
    image_alt: check('high', missingAlt.length === 0, {
      images: page.images.length,
      missing_alt: missingAlt.length,
      examples: missingAlt.slice(0, 5).map((image) => absolute(image.src, facts.finalUrl)),
    }),
    lang: check('medium', !!page.lang, page.lang || null),
    viewport: check('medium', viewport !== null && /width\s*=/i.test(viewport), viewport),
    charset: check('medium', charset !== null, charset),
    canonical: check(
      'medium',
      page.canonical !== null && page.canonical.trim() !== '',
      page.canonical === null ? null : absolute(page.canonical, facts.finalUrl),
    ),
    https: check('high', facts.finalUrl.protocol === 'https:', facts.finalUrl.protocol.slice(0, -1)),
    noindex: check(
      'high',
      !robots.some((value) => /\b(noindex|none)\b/i.test(value)),
      robots.length > 0 ? robots.join(', ') : null,
    ),
    favicon: check('low', page.favicon !== null, page.favicon === null ? null : absolute(page.favicon, facts.finalUrl)),
    links: check('low', internal + external > 0 && empty === 0, { internal, external, empty }),
    word_count: check('medium', page.words >= LIMITS.minWords, page.words),
    page_size: check('medium', facts.bytes <= LIMITS.maxBytes, facts.bytes),
    response_time: check('medium', facts.elapsedMs < LIMITS.maxResponseMs, facts.elapsedMs),
    structured_data: check('low', types !== null, types ?? []),
    open_graph: check('low', og.title !== undefined && og.image !== undefined, og),
    deprecated_tags: check('medium', page.deprecated.size === 0, [...page.deprecated].sort()),
    doctype: check('low', doctype !== null && /^!doctype\s+html\s*$/i.test(doctype), doctype),
    redirects: check('low', facts.redirects === 0, facts.redirects),
  };
}

/** Weighted share of passed checks, 0-100 with one decimal. */
export function scoreOf(results: Record<string, CheckResult>): number {
  let total = 0;
  let passed = 0;
  for (const entry of Object.values(results)) {
    const weight = WEIGHTS[entry.importance];
    total += weight;
    if (entry.passed) passed += weight;
  }
  return total === 0 ? 0 : Math.round((passed / total) * 1000) / 10;
}

export function resultOf(score: number): ReportResult {
  return score >= THRESHOLDS.good ? 'good' : score >= THRESHOLDS.decent ? 'decent' : 'bad';
}

/** Checks, score and result of a page. */
export function analyzeHtml(html: string, facts: PageFacts): Analysis {
  const results = runChecks(html, facts);
  const score = scoreOf(results);
  return { results, score, result: resultOf(score) };
}
