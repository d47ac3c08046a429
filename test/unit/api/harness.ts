/**
 * Test plumbing for the client tests: the real reference service on loopback, its admin
 * API, a client whose log entries are kept, and a leak audit over everything the client
 * produced (log entries, error messages, user sentences).
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { createClient, type ClientOptions } from '../../../src/api/client';
import { ApiError, type ApiErrorKind } from '../../../src/api/errors';
import { describeError } from '../../../src/api/messages';
import type { ReportsApi, RequestLogEntry } from '../../../src/api/types';
import { adminCall } from '../../service/adminClient';
import { startService } from '../../service/server';

export const KEY = 'prk_live_7f3a9cQ2-secret';
export const OTHER_KEY = 'prk_live_other_81d0';
export const FORBIDDEN_KEY = 'prk_live_forbidden_55e1';
export const PASSWORD = 'pw-Never-Logged-93';
/** Strings that must never show up in a log entry or an error text. */
export const SECRETS = [KEY, OTHER_KEY, FORBIDDEN_KEY, PASSWORD];

import type { RecordedRequest } from '../../service/types';

export type { RecordedRequest };

export type Service = Awaited<ReturnType<typeof startService>>;

/** The service every harness talks to, in this process or in its own: two keys and a forbidden one, faults on, no rate limit, 30 reports. */
const SERVICE_OPTIONS = {
  keys: [KEY, OTHER_KEY],
  forbiddenKeys: [FORBIDDEN_KEY],
  faults: true,
  rateLimit: 0,
  seed: 30,
  quiet: true,
};

export class Harness {
  /** Every log entry and every error text of every client made here, for the leak audit. */
  readonly produced: string[] = [];
  log: RequestLogEntry[] = [];

  private constructor(readonly svc: Service) {}

  static async start(options: Parameters<typeof startService>[0] = {}): Promise<Harness> {
    const svc = await startService({ ...SERVICE_OPTIONS, ...options });
    return new Harness(svc);
  }

  /**
   * The same service in a process of its own (test/service/cli.ts), for tests that measure this
   * process's memory: only the client's then counts, as in the extension host, where the
   * service is on another machine. Its write buffers and fault bodies stay out of the figure.
   * `more` are further command-line options (a later one wins: `['--seed', '2000']`).
   */
  static async startProcess(more: readonly string[] = []): Promise<Harness> {
    const root = path.resolve(__dirname, '../../..');
    const { keys, forbiddenKeys, rateLimit, seed } = SERVICE_OPTIONS;
    const args = ['--port', '0', '--keys', keys.join(','), '--forbidden-keys', forbiddenKeys.join(',')];
    args.push('--rate-limit', String(rateLimit), '--seed', String(seed), '--faults', '--quiet', ...more);
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/service/cli.ts', ...args], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    let output = '';
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the service did not start within 30 s:\n${output}`)), 30_000);
      const read = (chunk: Buffer): void => {
        output += chunk.toString();
        const started = /service at (http:\/\/127\.0\.0\.1:\d+)\n/.exec(output);
        if (!started) return;
        clearTimeout(timer);
        resolve(started[1]);
      };
      child.stdout.on('data', read);
      child.stderr.on('data', read);
      void exited.then(() => reject(new Error(`the service exited before it started:\n${output}`)));
    }).catch((error: unknown) => {
      child.kill('SIGKILL');
      throw error;
    });
    const stop = async (): Promise<void> => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    };
    return new Harness({ url, port: Number(new URL(url).port), keys: [...keys, ...forbiddenKeys], stop });
  }

  get url(): string {
    return this.svc.url;
  }

  get host(): string {
    return new URL(this.svc.url).host;
  }

  /** A client of this service; its log entries go to `this.log`. */
  client(options: Partial<ClientOptions> = {}): ReportsApi {
    return createClient({
      baseUrl: this.url,
      getKey: () => KEY,
      timeoutMs: 3000,
      retry: { limit: 2, maxWaitMs: 3000 },
      ...options,
      onRequest: (entry) => {
        this.log.push(entry);
        this.produced.push(JSON.stringify(entry));
        options.onRequest?.(entry);
      },
    });
  }

  /** {@link adminCall} of this harness's service. */
  admin<T = unknown>(endpoint: string, body?: unknown, method?: string): Promise<T> {
    return adminCall<T>(this.url, endpoint, body, method);
  }

  fault(spec: Record<string, unknown>): Promise<unknown> {
    return this.admin('faults', spec);
  }

  shape(spec: Record<string, unknown>): Promise<unknown> {
    return this.admin('shape', spec);
  }

  requests(): Promise<RecordedRequest[]> {
    return this.admin<RecordedRequest[]>('requests');
  }

  /** Clears faults, recorded requests, the log, and sets the canonical shape. */
  async clean(): Promise<void> {
    await this.admin('faults', undefined, 'DELETE');
    await this.admin('requests', undefined, 'DELETE');
    await this.shape({ ids: 'number', scores: 'number', dates: 'iso', list: 'laravel', deleteStatus: 200 });
    this.log = [];
  }

  /** Awaits a rejection that must be an ApiError of `kind`; records its texts for the audit. */
  async failure(promise: Promise<unknown>, kind: ApiErrorKind): Promise<ApiError> {
    let caught: unknown;
    try {
      await promise;
    } catch (error) {
      caught = error;
    }
    assert.ok(
      caught instanceof ApiError,
      `expected ApiError ${kind}, got ${caught instanceof Error ? caught.stack : String(caught)}`,
    );
    this.produced.push(caught.message, String(caught.stack), JSON.stringify(caught), describeError(caught).message);
    assert.equal(caught.kind, kind, `kind of: ${caught.message}`);
    return caught;
  }

  /** Nothing the client produced holds a key or a password. */
  auditSecrets(): void {
    assert.ok(this.produced.length > 0, 'the audit saw nothing');
    for (const text of this.produced) {
      for (const secret of SECRETS) assert.ok(!text.includes(secret), `a secret leaked into: ${text}`);
    }
  }

  stop(): Promise<void> {
    return this.svc.stop();
  }
}

/** A plain HTTP server on another origin that records what reaches it (for the redirect tests). */
export class OtherOrigin {
  private constructor(
    private readonly server: http.Server,
    readonly seen: Array<{ method: string; url: string; authorization: string | undefined }>,
  ) {}

  static async start(): Promise<OtherOrigin> {
    const seen: OtherOrigin['seen'] = [];
    const server = http.createServer((req, res) => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization });
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ data: [] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new OtherOrigin(server, seen);
  }

  /** Another origin than the service's: `localhost` instead of `127.0.0.1`, and another port. */
  get url(): string {
    return `http://localhost:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** A loopback port nothing listens on (bound, then released). */
export async function refusedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
