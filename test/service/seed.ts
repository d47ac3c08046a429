/**
 * `--seed N`: N reports over several projects, deterministic for a given N. Every report
 * points at a demo-site page under a `*.localhost` host of this service; each distinct
 * page is analyzed once (for real) and its analysis reused, with dates spread over a year,
 * so seeding 10,000 reports takes well under a second.
 */
import { hashPassword } from './api';
import type { Analyzer } from './analysis';
import type { Store } from './store';
import { formatIso } from './time';
import type { Analysis } from './types';

interface Site {
  host: string;
  weight: number;
  /** Demo pages with their weights. */
  pages: [string, number][];
  /** Query strings (and a fragment) that make URLs differ like real ones do. */
  suffixes: string[];
}

const SITES: Site[] = [
  {
    host: 'shop.localhost',
    weight: 30,
    pages: [
      ['good.html', 5],
      ['mediocre.html', 3],
      ['bad.html', 1],
      ['moved.html', 1],
    ],
    suffixes: [
      '',
      '',
      '?ref=home',
      '?product=aurora&color=brass',
      '?utm_source=newsletter&utm_medium=email',
      '?q=50%25+off',
    ],
  },
  {
    host: 'blog.localhost',
    weight: 25,
    pages: [
      ['mediocre.html', 5],
      ['broken.html', 2],
      ['good.html', 2],
      ['bad.html', 1],
    ],
    suffixes: ['', '', '?page=2', '?tag=lighting&sort=new', '?preview=true'],
  },
  {
    host: 'docs.localhost',
    weight: 20,
    pages: [
      ['good.html', 6],
      ['index.html', 3],
      ['mediocre.html', 1],
    ],
    suffixes: ['', '', '?version=2.1', '?lang=de#install'],
  },
  {
    host: 'news.localhost',
    weight: 12,
    pages: [
      ['bad.html', 4],
      ['broken.html', 4],
      ['mediocre.html', 2],
    ],
    suffixes: ['', '?id=1042', '?utm_campaign=spring_sale'],
  },
  {
    // An international name: its project is the punycode host (xn--caf-dma.localhost).
    host: 'café.localhost',
    weight: 8,
    pages: [
      ['good.html', 2],
      ['mediocre.html', 2],
      ['bad.html', 1],
    ],
    suffixes: ['', '?menu=déjeuner'],
  },
  {
    host: 'localhost',
    weight: 5,
    pages: [
      ['index.html', 1],
      ['good.html', 1],
    ],
    suffixes: [''],
  },
];

/** The password of every seeded report with privacy 2 (it is never answered). */
export const SEED_PASSWORD = 'demo-password';

/** Start and end of the seeded dates: one year before the service was written. */
const SPAN_START = Date.UTC(2025, 10, 1) * 1000;
const SPAN_END = Date.UTC(2026, 9, 31) * 1000;
const SECOND = 1_000_000;
const DAY = 86_400 * SECOND;

/** mulberry32: a small deterministic PRNG. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(random: () => number, items: [T, number][]): T {
  const total = items.reduce((sum, [, weight]) => sum + weight, 0);
  let roll = random() * total;
  for (const [item, weight] of items) {
    roll -= weight;
    if (roll < 0) return item;
  }
  return items[items.length - 1][0];
}

/**
 * Adds `count` reports to `account`. `port` is this service's port (URLs point at it);
 * `analyze` analyzes each distinct page once.
 */
export async function seedReports(
  store: Store,
  account: string,
  count: number,
  port: number,
  analyze: Analyzer,
): Promise<void> {
  if (count <= 0) return;
  const random = prng(0x5eed + count);
  const plans: { site: Site; page: string; suffix: string }[] = [];
  const siteWeights = SITES.map((site): [Site, number] => [site, site.weight]);
  for (let i = 0; i < count; i++) {
    const site = pick(random, siteWeights);
    const page = pick(random, site.pages);
    const suffix = site.suffixes[Math.floor(random() * site.suffixes.length)];
    plans.push({ site, page, suffix });
  }

  const base = (site: Site, page: string): string => `http://${site.host}:${port}/demo-site/${page}`;
  const analyses = new Map<string, Promise<Analysis>>();
  for (const plan of plans) {
    const url = base(plan.site, plan.page);
    if (!analyses.has(url)) analyses.set(url, analyze(url));
  }
  const done = new Map<string, Analysis>();
  for (const [url, analysis] of analyses) done.set(url, await analysis);

  const passwordHash = hashPassword(SEED_PASSWORD);
  const step = (SPAN_END - SPAN_START) / count;
  const items = plans.map((plan, i) => {
    const analysis = done.get(base(plan.site, plan.page))!;
    const url = `${base(plan.site, plan.page)}${plan.suffix}`;
    const created = Math.floor(SPAN_START + i * step + random() * step * 0.8);
    let generated = created + Math.floor((2 + random() * 38) * SECOND);
    if (random() < 0.15) generated = Math.min(SPAN_END, created + Math.floor((1 + random() * 59) * DAY));
    let updated = generated;
    if (random() < 0.1) updated = Math.min(SPAN_END, generated + Math.floor((0.05 + random() * 10) * DAY));
    const roll = random();
    const privacy = roll < 0.75 ? 0 : roll < 0.9 ? 1 : 2;
    return {
      fields: {
        url,
        project: new URL(url).hostname,
        result: analysis.result,
        score: analysis.score,
        privacy,
        results: analysis.results,
        generated_at: formatIso(generated),
        created_at: formatIso(created),
        updated_at: formatIso(updated),
      },
      passwordHash: privacy === 2 ? passwordHash : null,
    };
  });
  store.insertMany(account, items);
  store.warm(account);
}
