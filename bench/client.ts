/**
 * Row 3, client overhead: the same 500 list requests against the reference service on
 * loopback, once through the extension's client (`createClient`) and once through plain
 * `fetch` with the same URL and headers and `JSON.parse` of the body, one request at a time.
 * The two kinds run in alternating blocks, so drift of the machine (another process, the
 * service's heap growing) hits both alike. The figure is the ratio of the medians of the
 * per-request times.
 */
import { createClient } from '../src/api/client';
import type { PerPage } from '../src/api/types';
import { startService } from '../test/service/server';
import type { BenchContext, SectionResult } from './lib/context';
import { measured, type Budget, type Row } from './lib/report';
import { median } from './lib/stats';

const KEY = 'bench-key';
const REQUESTS = 500;
const BLOCK = 50;
const WARMUP = 40;
const PER_PAGE: PerPage = 25;
/** 200 reports: 8 pages of 25, cycled through, so answers differ the way a user's paging does. */
const SEED = 200;
const PAGES = SEED / PER_PAGE;
const RATIO_BUDGET: Budget = { kind: 'max', value: 1.1, text: '≤ 1.10' };

type Send = (page: number) => Promise<unknown>;

export async function runClient(ctx: BenchContext): Promise<SectionResult> {
  ctx.progress(`client: ${REQUESTS} list requests through the client and through fetch, in blocks of ${BLOCK}`);
  const service = await startService({ port: 0, keys: [KEY], seed: SEED, rateLimit: 0, quiet: true });
  try {
    const api = createClient({ baseUrl: service.url, getKey: () => KEY });
    const viaClient: Send = (page) => api.listReports({ perPage: PER_PAGE }, page);
    // What the client sends for that call: the same query order, Accept and Authorization.
    const viaFetch: Send = async (page) => {
      const response = await fetch(`${service.url}/api/v1/reports?per_page=${PER_PAGE}&page=${page}`, {
        headers: { Accept: 'application/json', Authorization: `Bearer ${KEY}` },
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`GET /api/v1/reports answered ${response.status}`);
      return JSON.parse(text) as unknown;
    };

    // Both paths warm up first (JIT, connection pool, the service's own caches).
    for (let i = 0; i < WARMUP; i++) {
      await viaClient((i % PAGES) + 1);
      await viaFetch((i % PAGES) + 1);
    }

    const times = { client: [] as number[], fetch: [] as number[] };
    const blockRatios: number[] = [];
    for (let block = 0; block < REQUESTS / BLOCK; block++) {
      // Alternate which kind goes first, so neither always follows the other.
      const order: ('client' | 'fetch')[] = block % 2 === 0 ? ['client', 'fetch'] : ['fetch', 'client'];
      const blockTimes = { client: [] as number[], fetch: [] as number[] };
      for (const kind of order) {
        const send = kind === 'client' ? viaClient : viaFetch;
        for (let i = 0; i < BLOCK; i++) {
          // Request i of every block asks for the same page either way: the same 500 requests.
          const page = ((block * BLOCK + i) % PAGES) + 1;
          const started = performance.now();
          await send(page);
          blockTimes[kind].push(performance.now() - started);
        }
      }
      times.client.push(...blockTimes.client);
      times.fetch.push(...blockTimes.fetch);
      blockRatios.push(median(blockTimes.client) / median(blockTimes.fetch));
    }

    const ratio = median(times.client) / median(times.fetch);
    const rows: Row[] = [
      measured('client.fetch', 'Client: list request, plain fetch', 'ms', times.fetch, { spread: 'iqr' }),
      measured('client.client', 'Client: list request, createClient', 'ms', times.client, { spread: 'iqr' }),
      // The figure is the ratio of the overall medians; the per-block ratios give its spread.
      measured('client.ratio', 'Client: overhead, client / fetch', 'ratio', blockRatios, {
        budget: RATIO_BUDGET,
        figure: ratio,
      }),
    ];
    return {
      rows,
      details: { requests: REQUESTS, block: BLOCK, perPage: PER_PAGE, seed: SEED, warmup: WARMUP, blockRatios },
    };
  } finally {
    await service.stop();
  }
}
