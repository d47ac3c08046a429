/**
 * The local reference service: the report service's whole API (contract §1-4) on loopback,
 * with real page analysis, a demo site and fault injection. Tests start it with
 * {@link startService}; people with `npm run service` (cli.ts).
 */
import { createHash } from 'node:crypto';
import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { handleAdmin, type AdminContext } from './admin';
import { createAnalyzer } from './analysis';
import { handleApi, matchApiRoute, type ApiServices } from './api';
import { corsApplies, handleCors } from './cors';
import { serveDemoSite } from './demoSite';
import { FaultQueue, faultOutcome, parseFaultSpec, streamAnswer, writeSlowly } from './faults';
import {
  json,
  normalizeInput,
  parseBody,
  parseParams,
  readBody,
  writeAnswer,
  type Answer,
  type ParsedBody,
} from './http';
import { loadSnapshot, Persister } from './persistence';
import { RateLimiter } from './rateLimit';
import { seedReports } from './seed';
import { Store } from './store';
import { CANONICAL_SHAPE, type FaultSpec, type RecordedRequest, type ServiceOptions, type Shape, type Speed } from './types';

export type { ServiceOptions } from './types';

/** A running service. */
export interface RunningService {
  /** Base URL, e.g. `http://127.0.0.1:41234` (with `basePath` when given): the API is under `/api/v1`, the demo site under `/demo-site/`. */
  url: string;
  port: number;
  /** Every valid key (forbidden ones included), the first one owning the seed. */
  keys: string[];
  /** Stops listening, closes every connection and writes the data file. Safe to call twice. */
  stop(): Promise<void>;
}

/** The log keeps this many requests at most (oldest dropped). */
const MAX_RECORDED = 10_000;

const UNAUTHENTICATED: Answer = json(401, { message: 'Unauthenticated.' });
const FORBIDDEN: Answer = json(403, { message: 'This action is unauthorized.' });

/** Account of a key that `accounts` does not map: derived from the key, so no key is written to the data file. */
function defaultAccount(key: string): string {
  return `account-${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;
}

/** The key of a `Bearer` Authorization header, or undefined. */
function bearerKey(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}

/** Starts the service on 127.0.0.1 and resolves once it listens (and is seeded). */
export async function startService(options: ServiceOptions = {}): Promise<RunningService> {
  const keys = options.keys ?? ['demo-key'];
  const accounts = options.accounts ?? {};
  const forbidden = new Set(options.forbiddenKeys ?? []);
  const allKeys = [...new Set([...keys, ...Object.keys(accounts), ...forbidden])];
  if (allKeys.length === 0) throw new Error('startService needs at least one key');
  const firstKey = keys[0] ?? allKeys[0];
  const accountOf = (key: string): string | undefined =>
    allKeys.includes(key) ? (accounts[key] ?? defaultAccount(key)) : undefined;
  const quiet = options.quiet ?? true;
  const faultsEnabled = options.faults === true;
  const cors = options.cors ?? true;
  const slowDelayMs = options.slowPageDelayMs ?? 1500;
  const basePath = (options.basePath ?? '').replace(/\/+$/, '');
  const mounts = [basePath, ...(options.alsoMountedAt ?? [])].map((path) => path.replace(/\/+$/, ''));
  for (const path of mounts) {
    if (path !== '' && !/^(\/[A-Za-z0-9._~-]+)+$/.test(path)) throw new Error(`basePath ${path} is not a path`);
  }
  const limiter = new RateLimiter(options.rateLimit ?? 60, options.rateWindowMs ?? 60_000);

  let persister: Persister | undefined;
  const store = new Store(() => persister?.schedule());
  if (options.dataFile) {
    const snapshot = loadSnapshot(options.dataFile);
    if (snapshot) store.restore(snapshot);
    persister = new Persister(
      options.dataFile,
      () => store,
      (error) => console.error('[service] could not write the data file:', error),
    );
  }

  const shape: Shape = { ...CANONICAL_SHAPE };
  const faults = new FaultQueue();
  const requests: RecordedRequest[] = [];
  const analyze = createAnalyzer(options.fetchTimeoutMs);
  const speed: Speed = { latencyMs: options.latencyMs ?? 0, analysisDelayMs: options.analysisDelayMs ?? 0 };
  const startSpeed = { ...speed };
  // Seeding analyzes without the delay: it stands for the analyses of the past.
  const slowAnalyze: typeof analyze = async (url) => {
    const analysis = await analyze(url);
    if (speed.analysisDelayMs > 0 && !(await sleep(speed.analysisDelayMs))) throw new Error('The service stopped.');
    return analysis;
  };
  const services: ApiServices = { store, shape: () => shape, analyze: slowAnalyze };

  // Waits that stop() cuts short, so a delayed answer never keeps a stopped service alive.
  const sleeps = new Set<{ timer: NodeJS.Timeout; resolve: (completed: boolean) => void }>();
  let stopping = false;
  const sleep = (ms: number): Promise<boolean> =>
    new Promise((resolve) => {
      if (stopping) {
        resolve(false);
        return;
      }
      const entry = {
        timer: setTimeout(() => {
          sleeps.delete(entry);
          resolve(true);
        }, ms),
        resolve,
      };
      sleeps.add(entry);
    });

  let port = 0;
  let seeding = false;
  const admin: AdminContext = {
    store,
    faults,
    requests,
    shape,
    speed,
    accountOf,
    firstKey,
    reset() {
      store.clear();
      faults.clear();
      requests.length = 0;
      Object.assign(shape, CANONICAL_SHAPE);
      Object.assign(speed, startSpeed);
      limiter.clear();
    },
    seed: (account, count) => seedReports(store, account, count, port, analyze),
  };

  const baseOrigin = (): string => `http://127.0.0.1:${port}`;
  /** The origin list links use: the request's Host (as Laravel does) when it is a sane one. */
  const originOf = (req: IncomingMessage): string => {
    const host = req.headers.host ?? '';
    return /^([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?$/.test(host) ? `http://${host}` : baseOrigin();
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const method = (req.method ?? 'GET').toUpperCase();
    const target = req.url ?? '/';
    const queryAt = target.indexOf('?');
    const fullPath = queryAt < 0 ? target : target.slice(0, queryAt);
    const mount = mounts.find((path) => path !== '' && (fullPath === path || fullPath.startsWith(`${path}/`)));
    const mounted = mount !== undefined;
    const pathname = mounted ? fullPath.slice(mount.length) || '/' : fullPath;
    const search = queryAt < 0 ? '' : target.slice(queryAt);
    // Seeding fetches every demo page once; those fetches are not worth a log line each.
    if (!quiet && !(seeding && pathname.startsWith('/demo-site/'))) {
      res.on('finish', () =>
        console.log(`${method} ${pathname} ${res.statusCode} ${Math.round(performance.now() - started)}ms`),
      );
    }

    if (cors && corsApplies(pathname) && handleCors(req, res, method)) return;

    if (pathname === '/__admin' || pathname.startsWith('/__admin/')) {
      const body = await readBody(req);
      if (!faultsEnabled)
        return writeAnswer(res, json(404, { message: `The route ${pathname.slice(1)} could not be found.` }));
      if (body.tooLarge) return writeAnswer(res, json(413, { message: 'The request body is larger than 1 MB.' }));
      return writeAnswer(res, await handleAdmin(method, pathname, body.bytes, admin));
    }

    const isApi = pathname === '/api' || pathname.startsWith('/api/');
    // Mounted under a path, the service has nothing at the root but its admin and demo site.
    if (basePath !== '' && !mounted && !pathname.startsWith('/demo-site')) {
      return writeAnswer(res, json(404, { message: `The route ${pathname.slice(1)} could not be found.` }));
    }
    const body = await readBody(req);
    const parsed: ParsedBody = body.tooLarge
      ? { ok: true, fields: {} }
      : parseBody(body.bytes, req.headers['content-type']);
    if (isApi) record(req, res, method, pathname, search, parsed);

    let extraHeaders: Record<string, string> = {};
    if (faultsEnabled) {
      const fault = await applyFault(req, res, method, pathname, search);
      if (fault === 'answered') return;
      extraHeaders = fault;
    }

    if (pathname === '/demo-site' || pathname.startsWith('/demo-site/')) {
      return serveDemoSite(req, res, pathname, search, sleep, slowDelayMs);
    }
    if (!isApi) {
      if (pathname === '/' && (method === 'GET' || method === 'HEAD')) {
        const origin = originOf(req);
        return writeAnswer(
          res,
          json(200, {
            name: 'Page Reports reference service',
            api: `${origin}/api/v1`,
            demo_site: `${origin}/demo-site/`,
          }),
          extraHeaders,
        );
      }
      return writeAnswer(
        res,
        json(404, { message: `The route ${pathname.slice(1)} could not be found.` }),
        extraHeaders,
      );
    }
    const answer = await answerApi(req, method, pathname, search, body.tooLarge, parsed);
    if (speed.latencyMs > 0 && !(await sleep(speed.latencyMs))) return;
    return writeAnswer(res, answer, extraHeaders);
  }

  /** Adds an API request to the log behind `GET /__admin/requests` (names of body fields only). */
  function record(
    req: IncomingMessage,
    res: ServerResponse,
    method: string,
    pathname: string,
    search: string,
    parsed: ParsedBody,
  ): void {
    const entry: RecordedRequest = {
      method,
      path: pathname,
      query: Object.fromEntries(new URLSearchParams(search)),
      rawQuery: search,
      hasAuthorization: req.headers.authorization !== undefined,
      origin: typeof req.headers.origin === 'string' ? req.headers.origin : null,
      bodyFields: parsed.ok ? Object.keys(parsed.fields) : [],
      status: null,
      at: new Date().toISOString(),
      answeredAt: null,
    };
    requests.push(entry);
    if (requests.length > MAX_RECORDED) requests.splice(0, requests.length - MAX_RECORDED);
    res.on('finish', () => {
      entry.status = res.statusCode;
      entry.answeredAt = new Date().toISOString();
    });
  }

  /**
   * Applies the `X-Fault` header or the first matching queued fault: 'answered' when the
   * fault answered (or dropped) the request, else headers to add to the normal answer.
   */
  async function applyFault(
    req: IncomingMessage,
    res: ServerResponse,
    method: string,
    pathname: string,
    search: string,
  ): Promise<'answered' | Record<string, string>> {
    let spec: FaultSpec | undefined;
    const header = req.headers['x-fault'];
    if (typeof header === 'string') {
      let value: unknown;
      try {
        value = JSON.parse(header);
      } catch {
        writeAnswer(res, json(400, { message: 'The X-Fault header is not valid JSON.' }));
        return 'answered';
      }
      const result = parseFaultSpec(value);
      if ('errors' in result) {
        writeAnswer(res, json(400, { message: 'The X-Fault header is not a valid fault.', errors: result.errors }));
        return 'answered';
      }
      spec = result.spec;
    } else {
      spec = faults.take(method, pathname, search);
    }
    if (!spec) return {};
    // A proxy's error page: none of the service's CORS headers (set before the fault applies).
    if (spec.noCors === true)
      for (const name of res.getHeaderNames()) if (name.startsWith('access-control-')) res.removeHeader(name);
    if (spec.delayMs !== undefined && spec.delayMs > 0 && !(await sleep(spec.delayMs))) return 'answered';
    const outcome = faultOutcome(spec, pathname, search);
    if (outcome.kind === 'drop') {
      req.socket.destroy();
      return 'answered';
    }
    if (outcome.kind === 'stream') {
      await streamAnswer(res, outcome, () => !stopping);
      return 'answered';
    }
    if (outcome.kind === 'answer') {
      if (outcome.bodyDelayMs === undefined) writeAnswer(res, outcome.answer);
      else await writeSlowly(res, outcome.answer, outcome.bodyDelayMs, sleep);
      return 'answered';
    }
    return outcome.headers;
  }

  /** Rate limit, size, body, route, authentication, authorization, then the operation. */
  async function answerApi(
    req: IncomingMessage,
    method: string,
    pathname: string,
    search: string,
    tooLarge: boolean,
    parsed: ParsedBody,
  ): Promise<Answer> {
    const key = bearerKey(req.headers.authorization);
    const account = key === undefined ? undefined : accountOf(key);
    // Laravel's limiter counts per user, and per client address for guests.
    const rate = limiter.hit(account !== undefined ? `key:${key}` : `ip:${req.socket.remoteAddress ?? ''}`);
    const withRate = (answer: Answer): Answer => ({ ...answer, headers: { ...rate.headers, ...answer.headers } });
    if (!rate.allowed) return withRate(json(429, { message: 'Too Many Attempts.' }));
    if (tooLarge) return withRate(json(413, { message: 'The request body is larger than 1 MB.' }));
    if (!parsed.ok) return withRate(json(400, { message: parsed.message }));

    const apiPath = pathname.slice(1).replace(/\/$/, '');
    if (!pathname.startsWith('/api/v1/'))
      return withRate(json(404, { message: `The route ${apiPath} could not be found.` }));
    let segments: string[];
    try {
      segments = pathname.slice('/api/v1/'.length).replace(/\/$/, '').split('/').map(decodeURIComponent);
    } catch {
      return withRate(json(404, { message: 'Resource not found.', status: 404 }));
    }
    const match = matchApiRoute(method, segments, apiPath);
    if ('answer' in match) return withRate(match.answer);
    if (account === undefined) return withRate(UNAUTHENTICATED);
    if (forbidden.has(key!)) return withRate(FORBIDDEN);

    const rawQuery = new URLSearchParams(search);
    const answer = await handleApi(
      match.route,
      {
        account,
        query: normalizeInput(parseParams(rawQuery)),
        body: normalizeInput(parsed.fields),
        list: {
          path: `${originOf(req)}${basePath}${pathname.replace(/\/$/, '')}`,
          // Laravel keeps the other parameters once each, in first-seen order, with the last value.
          query: [...new Map([...rawQuery].filter(([name]) => name !== 'page')).entries()],
        },
      },
      services,
    );
    return withRate(answer);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!quiet) console.error('[service] request failed:', error);
      writeAnswer(res, json(500, { message: 'Server Error' }));
    });
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    const body = JSON.stringify({ message: status === 431 ? 'Request Header Fields Too Large' : 'Bad Request' });
    socket.end(
      `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });

  // CONNECT and protocol upgrades are not part of the API; answer them instead of dropping them.
  const refuse = (socket: Socket, status: number, message: string): void => {
    const body = JSON.stringify({ message });
    socket.on('error', () => socket.destroy());
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  };
  server.on('connect', (_req: IncomingMessage, socket: Socket) =>
    refuse(socket, 405, 'The CONNECT method is not supported.'),
  );
  server.on('upgrade', (_req: IncomingMessage, socket: Socket) =>
    refuse(socket, 400, 'Protocol upgrades are not supported.'),
  );

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;

  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopped ??= (async () => {
      stopping = true;
      for (const entry of sleeps) {
        clearTimeout(entry.timer);
        entry.resolve(false);
      }
      sleeps.clear();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      await persister?.flush();
    })();
    return stopped;
  };

  try {
    if ((options.seed ?? 0) > 0 && store.count() === 0) {
      seeding = true;
      await seedReports(store, accountOf(firstKey)!, options.seed!, port, analyze);
      seeding = false;
    }
  } catch (error) {
    await stop();
    throw error;
  }

  return { url: `${baseOrigin()}${basePath}`, port, keys: allKeys, stop };
}
