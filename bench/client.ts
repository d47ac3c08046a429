/**
 * Row 3, client overhead: the same 500 list requests against the reference service on
 * loopback, once through the extension's client (`createClient`) and once through plain
 * `fetch` with the same URL and headers and `JSON.parse` of the body, one request at a time.
 * The two kinds run in alternating blocks, so drift of the machine (another process, the
 * service's heap growing) hits both alike. The figure is the ratio of the medians of the
 * per-request times. When it is over budget, the difference is taken apart (see analyzeOverhead).
 */
import ky from 'ky';
import { createClient } from '../src/api/client';
import { parseListAnswer, parseReport } from '../src/api/schemas';
import type { PerPage } from '../src/api/types';
import { startService } from '../test/service/server';
import type { BenchContext, SectionResult } from './lib/context';
import { measured, type Row } from './lib/report';
import { median } from './lib/stats';

const KEY = 'bench-key';
const REQUESTS = 500;
const BLOCK = 50;
const WARMUP = 40;
const PER_PAGE: PerPage = 25;
/** 200 reports: 8 pages of 25, cycled through, so answers differ the way a user's paging does. */
const SEED = 200;
const PAGES = SEED / PER_PAGE;
/**
 * Past this ratio the row says what the difference is made of. An info row: on loopback it is
 * the extension's microseconds; the budget is on a request at a service's latency (./loads.ts).
 */
const ANALYZE_ABOVE = 1.2;

type Send = (page: number) => Promise<unknown>;

/**
 * Sends `total` requests of each kind, one at a time, in alternating blocks (which kind goes
 * first alternates too, so neither always follows the other), after a warm-up of both (JIT,
 * connection pool, the service's caches). Request i of every block asks for the same page
 * either way. Returns every request's time per kind and each block's ratio of medians (a / b).
 */
async function interleave<K extends string>(
  sends: Record<K, Send>,
  total: number,
): Promise<{ times: Record<K, number[]>; blockRatios: number[] }> {
  const kinds = Object.keys(sends) as K[];
  if (kinds.length !== 2) throw new Error('interleave compares exactly two kinds');
  const [a, b] = kinds as [K, K];
  for (let i = 0; i < WARMUP; i++) for (const kind of kinds) await sends[kind]((i % PAGES) + 1);
  const times = { [a]: [], [b]: [] } as unknown as Record<K, number[]>;
  const blockRatios: number[] = [];
  for (let block = 0; block < total / BLOCK; block++) {
    const blockTimes = { [a]: [], [b]: [] } as unknown as Record<K, number[]>;
    for (const kind of block % 2 === 0 ? [a, b] : [b, a]) {
      for (let i = 0; i < BLOCK; i++) {
        const page = ((block * BLOCK + i) % PAGES) + 1;
        const started = performance.now();
        await sends[kind](page);
        blockTimes[kind].push(performance.now() - started);
      }
    }
    times[a].push(...blockTimes[a]);
    times[b].push(...blockTimes[b]);
    blockRatios.push(median(blockTimes[a]) / median(blockTimes[b]));
  }
  return { times, blockRatios };
}

/**
 * What the client's extra time per request is made of: reading the answer into domain
 * types (the readers alone, on answers already parsed as JSON); the rest is the transport
 * (ky's request pipeline: Request objects, timeout, hooks; the capped body read, key, request log entry).
 */
async function analyzeOverhead(
  viaFetch: Send,
  viaKy: Send,
): Promise<{ parseMs: number; checks: number; kyRatio: number }> {
  const bodies: unknown[] = [];
  for (let page = 1; page <= PAGES; page++) bodies.push(await viaFetch(page));
  const first = (bodies[0] as { data: { results?: Record<string, unknown> }[] }).data[0];
  const parseTimes: number[] = [];
  for (let i = 0; i < WARMUP + REQUESTS; i++) {
    const page = (i % PAGES) + 1;
    const started = performance.now();
    parseListAnswer(bodies[page - 1], parseReport, page, PER_PAGE);
    if (i >= WARMUP) parseTimes.push(performance.now() - started);
  }
  // ky's own share: the same requests through a bare ky instance (same options as the
  // client's, no hooks, no cap) against plain fetch.
  const { times } = await interleave({ ky: viaKy, fetch: viaFetch }, REQUESTS / 2);
  return {
    parseMs: median(parseTimes),
    checks: Object.keys(first?.results ?? {}).length,
    kyRatio: median(times.ky) / median(times.fetch),
  };
}

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

    const bareKy = ky.create({
      prefix: service.url,
      headers: { Accept: 'application/json', Authorization: `Bearer ${KEY}` },
      timeout: 30_000,
      redirect: 'manual',
      retry: { limit: 2, methods: ['get'] },
    });
    const viaKy: Send = async (page) => JSON.parse(await bareKy(`api/v1/reports?per_page=${PER_PAGE}&page=${page}`).text()) as unknown;

    const { times, blockRatios } = await interleave({ client: viaClient, fetch: viaFetch }, REQUESTS);
    const ratio = median(times.client) / median(times.fetch);
    const rows: Row[] = [
      measured('client.fetch', 'Client: list request, plain fetch', 'ms', times.fetch, { spread: 'iqr' }),
      measured('client.client', 'Client: list request, createClient', 'ms', times.client, { spread: 'iqr' }),
      // The figure is the ratio of the overall medians; the per-block ratios give its spread.
      measured('client.ratio', 'Client: loopback overhead, client / fetch', 'ratio', blockRatios, { figure: ratio }),
    ];
    let analysis: Awaited<ReturnType<typeof analyzeOverhead>> | undefined;
    if (ratio > ANALYZE_ABOVE) {
      ctx.progress('client: timing the parts of the difference');
      analysis = await analyzeOverhead(viaFetch, viaKy);
      const extra = median(times.client) - median(times.fetch);
      rows[2].note =
        `Client overhead on loopback: ${extra.toFixed(2)} ms a request more than fetch + JSON.parse ` +
        `(${median(times.fetch).toFixed(2)} ms). Of it: reading the answer into domain types ` +
        `(parseListAnswer of src/api/schemas.ts, ${PER_PAGE} reports of ${analysis.checks} checks) ${analysis.parseMs.toFixed(2)} ms; ` +
        `the transport (ky: Request objects, per-attempt timeout and abort signals, hooks; the capped body read, key, request log entry) ${(extra - analysis.parseMs).toFixed(2)} ms. ` +
        `ky alone (a bare instance with the same options, no hooks) measured ${analysis.kyRatio.toFixed(3)}× plain fetch in the same run.`;
    }
    return {
      rows,
      details: {
        requests: REQUESTS,
        block: BLOCK,
        perPage: PER_PAGE,
        seed: SEED,
        warmup: WARMUP,
        blockRatios,
        analysis,
      },
    };
  } finally {
    await service.stop();
  }
}
