/** Types shared by the modules of the reference service. */

/** Options of {@link startService} (test/service/server.ts) and of the command line. */
export interface ServiceOptions {
  /** TCP port on 127.0.0.1; 0 (the default) picks a free one. */
  port?: number;
  /** API keys; each key is its own account unless `accounts` maps it. Default `['demo-key']`. */
  keys?: string[];
  /** Key → account name; keys mapped to the same account share its reports. Its keys are valid keys too. */
  accounts?: Record<string, string>;
  /** Keys that authenticate but whose account may not use the API (403). They are valid keys too. */
  forbiddenKeys?: string[];
  /** Number of reports to create at start, owned by the first key's account (deterministic). */
  seed?: number;
  /** Requests per window and key; default 60, 0 turns rate limiting off. */
  rateLimit?: number;
  /** Length of the fixed rate-limit window in milliseconds; default 60000. */
  rateWindowMs?: number;
  /**
   * Milliseconds every API answer waits before it is sent (default 0), so the service behaves
   * like one across a network. The rate limit counts the request when it arrives.
   */
  latencyMs?: number;
  /** Milliseconds each analysis (store and `update=1`) takes on top of fetching the page; default 0. */
  analysisDelayMs?: number;
  /**
   * CORS as a Laravel application answers it by default (`Access-Control-Allow-Origin: *`,
   * preflights echoed, nothing exposed) on `/api/*` and `/__admin/*`; default true.
   */
  cors?: boolean;
  /** Enables the `/__admin/*` endpoints and the `X-Fault` request header. */
  faults?: boolean;
  /** JSON file that keeps every report across restarts (written to a temp file, then renamed). */
  dataFile?: string;
  /** No request log on stdout. Default true; the command line sets false. */
  quiet?: boolean;
  /** Page fetch timeout of the analysis in milliseconds; default 10000. */
  fetchTimeoutMs?: number;
  /** How long `/demo-site/slow.html` waits before it answers, in milliseconds; default 1500. */
  slowPageDelayMs?: number;
  /**
   * The path the service is mounted under, as behind a reverse proxy (e.g. `/team`): its base
   * URL is then `http://127.0.0.1:PORT/team` and the API `/team/api/v1/…`; `/api/…` without it
   * is not found. `/__admin` and `/demo-site` answer with and without it. Default: the root.
   */
  basePath?: string;
  /**
   * More paths the same service answers under, beside `basePath` (e.g. `['/team-b']`): two
   * services on one origin, as the extension sees them, with the same data.
   */
  alsoMountedAt?: string[];
}

export type ReportResult = 'good' | 'decent' | 'bad';
export type Importance = 'high' | 'medium' | 'low';

/** One entry of a report's `results`. */
export interface CheckResult {
  passed: boolean;
  importance: Importance;
  value: unknown;
}

/** What the analysis of a page gives a report. */
export interface Analysis {
  results: Record<string, CheckResult>;
  score: number | null;
  result: ReportResult;
}

/**
 * A report as the store keeps it. `fields` holds every answered field but `id`, in answer
 * order (canonical reports: url, project, result, score, privacy, results, generated_at,
 * created_at, updated_at); raw reports from the admin API may hold anything there.
 */
export interface StoredReport {
  id: number;
  account: string;
  /** Salted SHA-256 of the report page password; never answered. */
  passwordHash: string | null;
  fields: Record<string, unknown>;
}

/**
 * A report as the API answers it in the canonical shape (contract §5): the fields the test levels
 * read, each as the service sends it. Tests that need more read it from the index signature.
 */
export interface RawReport {
  id: number;
  url: string;
  project: string;
  privacy: number;
  result: string | null;
  score: number | null;
  results: Record<string, { passed: boolean; importance: string }>;
  generated_at: string;
  [field: string]: unknown;
}

/** How slowly the service answers, switched by `POST /__admin/speed` (both in milliseconds). */
export interface Speed {
  /** Every API answer waits this long before it is sent. */
  latencyMs: number;
  /** Each analysis (store and `update=1`) takes this much longer. */
  analysisDelayMs: number;
}

/** Answer shapes of contract §5, switched by `POST /__admin/shape`. Canonical: number, number, iso, laravel, 200. */
export interface Shape {
  ids: 'number' | 'string';
  scores: 'number' | 'string' | 'missing';
  dates: 'iso' | 'sql';
  list: 'laravel' | 'links' | 'data' | 'array';
  deleteStatus: 200 | 202 | 204;
}

export const CANONICAL_SHAPE: Readonly<Shape> = Object.freeze({
  ids: 'number',
  scores: 'number',
  dates: 'iso',
  list: 'laravel',
  deleteStatus: 200,
});

/** Body of a fault answer: a canned kind, a raw text, or any JSON object sent as is. */
export type FaultBody =
  | 'json'
  | 'html'
  | 'truncated'
  | 'malformed'
  | 'empty'
  | 'gzipBomb'
  | 'huge'
  | 'endless'
  | { raw: string }
  | Record<string, unknown>;

/** One queued fault (`POST /__admin/faults`) or the value of an `X-Fault` header. */
export interface FaultSpec {
  /** Only requests with this method (any case); default any. */
  method?: string;
  /** Only requests whose pathname starts with this (any path but `/__admin`, e.g. `/demo-site/`); default: API requests (`/api/`). */
  path?: string;
  /** Only requests whose query has each of these parameters with this value (e.g. `{ "page": "2" }`); default any query. */
  query?: Record<string, string>;
  /** How many matching requests it applies to; default 1. */
  times?: number;
  status?: number;
  body?: FaultBody;
  headers?: Record<string, string>;
  delayMs?: number;
  /** Absolute URL: answers 302 with `Location` = this (no trailing slash) + original path and query. */
  redirectTo?: string;
  /** Destroys the connection without an answer. */
  drop?: boolean;
  /** Answers without CORS headers, as a proxy's or gateway's error page does (a browser hides it). */
  noCors?: boolean;
  /** Sends the first half of the fault's body at once and the rest after this many milliseconds. */
  bodyDelayMs?: number;
}

/** One line of `GET /__admin/requests`: an API request as the service saw it. */
export interface RecordedRequest {
  method: string;
  /** Pathname, as sent (still URL-encoded). */
  path: string;
  /** Query parameters (the last value of a repeated name). */
  query: Record<string, string>;
  /** The query string as sent, with its `?`, or ''. */
  rawQuery: string;
  hasAuthorization: boolean;
  /** The `Origin` header: a browser sends it on cross-origin calls (the web worker extension host), Node's fetch does not. */
  origin: string | null;
  /** Names of the body fields (form or JSON); never their values. */
  bodyFields: string[];
  /** Status of the answer; null while unanswered or when the connection was dropped. */
  status: number | null;
  /** When the request arrived (ISO). */
  at: string;
  /** When its answer was sent (ISO); null while unanswered or when the connection was dropped. */
  answeredAt: string | null;
}
