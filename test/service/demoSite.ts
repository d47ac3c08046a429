/**
 * The demo site under `/demo-site/`: static pages of clearly different quality from
 * test/service/demo-site/, plus a few dynamic pages that cannot be analyzed (404, 500,
 * redirect loop, too large, never answering) and a slow one. Seeded reports point here.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Pages a report can be made of, with the result they get (see README.md). */
export const DEMO_PAGES = [
  'good.html',
  'mediocre.html',
  'bad.html',
  'broken.html',
  'slow.html',
  'moved.html',
  'index.html',
] as const;

/** Pages whose analysis fails, with the reason a 422 names. */
export const UNFETCHABLE_PAGES = [
  'missing.html',
  'error.html',
  'data.json',
  'loop.html',
  'huge.html',
  'hang.html',
] as const;

const TYPES: Record<string, string> = {
  // No charset on HTML: the pages declare their own (or, for bad.html, fail to).
  '.html': 'text/html',
  '.svg': 'image/svg+xml',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
};

/**
 * The folder of the static pages. It is looked up from this module's folder upwards, so
 * the service also works when a test bundles it into another folder (out/test/...).
 */
function findFolder(): string {
  const starts = [__dirname, process.cwd()];
  for (const start of starts) {
    let dir = start;
    for (;;) {
      for (const candidate of [path.join(dir, 'demo-site'), path.join(dir, 'test', 'service', 'demo-site')]) {
        if (existsSync(path.join(candidate, 'good.html'))) return candidate;
      }
      const parent = path.dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
  }
  throw new Error('test/service/demo-site was not found');
}

let files: Map<string, Buffer> | undefined;

/** The static files, read once. */
function staticFiles(): Map<string, Buffer> {
  if (!files) {
    const folder = findFolder();
    files = new Map(readdirSync(folder).map((name) => [name, readFileSync(path.join(folder, name))]));
  }
  return files;
}

function page(title: string, text: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p></body></html>`;
}

function send(
  res: ServerResponse,
  status: number,
  type: string,
  body: string | Buffer,
  headers: Record<string, string> = {},
): void {
  if (res.writableEnded || res.destroyed) return;
  res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

/** A large page, built once: over the 2 MB cap of the analysis. */
let hugePage: string | undefined;

/**
 * Answers a request under `/demo-site`. `sleep` waits (and resolves false when the service
 * stops meanwhile) so the slow page never keeps a stopped service alive.
 */
export async function serveDemoSite(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  search: string,
  sleep: (ms: number) => Promise<boolean>,
  slowDelayMs: number,
): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    send(res, 405, 'text/html', page('405 Method Not Allowed', 'The demo site only answers GET.'), {
      Allow: 'GET, HEAD',
    });
    return;
  }
  if (pathname === '/demo-site') {
    send(res, 301, 'text/html', page('Moved', 'See /demo-site/.'), { Location: `/demo-site/${search}` });
    return;
  }
  const name = pathname.slice('/demo-site/'.length) || 'index.html';
  switch (name) {
    case 'moved.html':
      send(res, 301, 'text/html', page('Moved Permanently', 'This page moved to good.html.'), {
        Location: '/demo-site/good.html',
      });
      return;
    case 'loop.html': {
      const hop = Number(new URLSearchParams(search).get('hop') ?? '0') + 1;
      send(res, 302, 'text/html', page('Found', 'Again.'), { Location: `/demo-site/loop.html?hop=${hop}` });
      return;
    }
    case 'error.html':
      send(res, 500, 'text/html', page('500 Internal Server Error', 'The demo site failed on purpose.'));
      return;
    case 'huge.html':
      hugePage ??= page('Huge', 'Lamp. '.repeat((3 * 1024 * 1024) / 6));
      send(res, 200, 'text/html; charset=utf-8', hugePage);
      return;
    case 'hang.html':
      // Never answers: the analysis times out. The connection closes when the service stops.
      return;
    case 'slow.html':
      if (!(await sleep(slowDelayMs))) return;
      break;
  }
  const body = staticFiles().get(name);
  if (!body || name.includes('/')) {
    send(res, 404, 'text/html', page('404 Not Found', 'There is no such page on the demo site.'));
    return;
  }
  send(res, 200, TYPES[path.extname(name)] ?? 'application/octet-stream', body);
}
