/**
 * Measures how fast the reference service lists a large account: 10,000 seeded reports,
 * 100 a page, over loopback HTTP with a keep-alive connection, as the extension would ask.
 * Prints a table of median / p95 / max milliseconds per page. Not a test: run it by hand.
 *
 *   npx tsx scripts/measure-service.ts [--reports 10000] [--rounds 30]
 */
import http from 'node:http';
import { startService } from '../test/service/server';

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(name);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
}

const REPORTS = option('--reports', 10_000);
const ROUNDS = option('--rounds', 30);

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function get(base: string, path: string): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      `${base}${path}`,
      { agent, headers: { Authorization: 'Bearer demo-key', Accept: 'application/json' } },
      (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
  });
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

async function main(): Promise<void> {
  const seeding = performance.now();
  const service = await startService({ seed: REPORTS, rateLimit: 0, faults: true });
  const seeded = performance.now() - seeding;
  const lastPage = Math.ceil(REPORTS / 100);
  const cases: [string, string][] = [
    ['score desc, page 1', '?sort_by=score&sort=desc&per_page=100&page=1'],
    ['score desc, middle page', `?sort_by=score&sort=desc&per_page=100&page=${Math.ceil(lastPage / 2)}`],
    ['score asc, last page', `?sort_by=score&sort=asc&per_page=100&page=${lastPage}`],
    ['id desc (default), page 1', '?per_page=100'],
    ['url asc, page 10', '?sort_by=url&sort=asc&per_page=100&page=10'],
    ['generated_at desc, page 5', '?sort_by=generated_at&sort=desc&per_page=100&page=5'],
    ['score + search + result filter', '?sort_by=score&search=shop&result=good&per_page=100&page=2'],
    ['projects, page 1', ''],
  ];
  const rows: string[][] = [];
  try {
    for (const [name, query] of cases) {
      const path = name.startsWith('projects') ? '/api/v1/projects?per_page=100' : `/api/v1/reports${query}`;
      const times: number[] = [];
      let bytes = 0;
      for (let round = 0; round < ROUNDS; round++) {
        const started = performance.now();
        const reply = await get(service.url, path);
        times.push(performance.now() - started);
        if (reply.status !== 200) throw new Error(`${path} answered ${reply.status}`);
        bytes = reply.bytes;
      }
      const sorted = [...times].sort((a, b) => a - b);
      rows.push([
        name,
        times[0].toFixed(2),
        quantile(sorted, 0.5).toFixed(2),
        quantile(sorted, 0.95).toFixed(2),
        sorted[sorted.length - 1].toFixed(2),
        `${Math.round(bytes / 1024)} KB`,
      ]);
    }
    // After a write every sorted index is rebuilt on the next list: the worst case.
    const afterWrite: number[] = [];
    for (let round = 0; round < 10; round++) {
      await new Promise<void>((resolve, reject) => {
        const req = http.request(
          `${service.url}/__admin/reports`,
          { method: 'POST', agent, headers: { 'Content-Type': 'application/json' } },
          (res) => {
            res.resume();
            res.on('end', resolve);
          },
        );
        req.on('error', reject);
        req.end(JSON.stringify({ report: { url: `https://write.test/${round}`, score: 50 } }));
      });
      const started = performance.now();
      await get(service.url, '/api/v1/reports?sort_by=score&per_page=100&page=3');
      afterWrite.push(performance.now() - started);
    }
    const sorted = [...afterWrite].sort((a, b) => a - b);
    rows.push([
      'score, first list after a write',
      afterWrite[0].toFixed(2),
      quantile(sorted, 0.5).toFixed(2),
      quantile(sorted, 0.95).toFixed(2),
      sorted[sorted.length - 1].toFixed(2),
      '',
    ]);
  } finally {
    agent.destroy();
    await service.stop();
  }

  const header = ['case', 'first', 'median', 'p95', 'max', 'size'];
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]): string =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  console.log(
    `${REPORTS} reports seeded in ${Math.round(seeded)} ms; ${ROUNDS} rounds a case; milliseconds per page over loopback HTTP (Node ${process.version})`,
  );
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
