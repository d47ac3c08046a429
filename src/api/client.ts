/**
 * The report service client: one method per operation of the published interface, answers
 * read tolerantly (contract §5) into domain types, every failure an `ApiError`.
 * Imports no `vscode`; the extension builds one per (service URL, key) connection.
 */
import { ApiError } from './errors';
import { badResponseError } from './failures';
import { RATE_LIMIT } from './rateLimit';
import { parseListAnswer, parseProject, parseReport, parseReportAnswer, ResponseShapeError } from './schemas';
import { Transport, type Answer } from './transport';
import type {
  NewReport,
  Page,
  Project,
  ProjectQuery,
  Report,
  ReportChange,
  ReportId,
  ReadOptions,
  ReportQuery,
  ReportsApi,
  RequestLogEntry,
} from './types';

export interface ClientOptions {
  /** Service base URL; normalize it with `parseServiceUrl` first. A trailing slash is ignored. */
  baseUrl: string;
  /** Asked before every request (not before retries of it), so a changed key applies at once. */
  getKey: () => string | undefined | Promise<string | undefined>;
  /** Per attempt, from sending to the whole body read. Default 30000. */
  timeoutMs?: number;
  /** Retries of reads (GET) only. */
  retry?: {
    /** Default 2. */
    limit?: number;
    /** Total wait across retries of one request; a longer `Retry-After` is not waited for. Default 10000. */
    maxWaitMs?: number;
  };
  /** Called once per HTTP exchange; the entry never holds the key, a password or a body. */
  onRequest?: (entry: RequestLogEntry) => void;
  /** For tests and special environments; default: the global fetch. */
  fetch?: typeof fetch;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_RETRY_LIMIT = RATE_LIMIT.readRetries;
export const DEFAULT_RETRY_MAX_WAIT_MS = RATE_LIMIT.readWaitBudgetMs;
/** What the service uses when `per_page` is not sent. */
const DEFAULT_PER_PAGE = 10;

/**
 * Creates the client. Nothing is sent until a method is called.
 *
 * - Reads take an `AbortSignal`; writes take one too, but aborting a write only stops
 *   waiting for it: the service may still carry it out.
 * - Writes are sent exactly once: never retried, whatever the failure.
 * - A redirect to another origin is refused (`ApiError` kind `redirect`), never followed,
 *   so neither the key nor a form body leaves the configured origin.
 */
/** Turns a call of the client into one that does more around it, keeping its arguments and answer. */
export type CallWrapper = <A extends unknown[], R>(call: (...args: A) => Promise<R>) => (...args: A) => Promise<R>;

/** `api` with every call passed through `around`: one place lists the client's calls. */
export function wrapEachCall(api: ReportsApi, around: CallWrapper): ReportsApi {
  return {
    listReports: around(api.listReports.bind(api)),
    getReport: around(api.getReport.bind(api)),
    createReport: around(api.createReport.bind(api)),
    updateReport: around(api.updateReport.bind(api)),
    deleteReport: around(api.deleteReport.bind(api)),
    listProjects: around(api.listProjects.bind(api)),
    deleteProject: around(api.deleteProject.bind(api)),
  };
}

export function createClient(options: ClientOptions): ReportsApi {
  const limit = options.retry?.limit;
  const maxWait = options.retry?.maxWaitMs;
  const transport = new Transport({
    baseUrl: options.baseUrl,
    getKey: options.getKey,
    timeoutMs: positive(options.timeoutMs) ?? DEFAULT_TIMEOUT_MS,
    retryLimit: limit !== undefined && Number.isInteger(limit) && limit >= 0 ? limit : DEFAULT_RETRY_LIMIT,
    retryMaxWaitMs: maxWait !== undefined && maxWait >= 0 ? maxWait : DEFAULT_RETRY_MAX_WAIT_MS,
    onRequest: options.onRequest,
    fetch: options.fetch,
  });
  return new ReportsClient(transport, options.baseUrl);
}

function positive(value: number | undefined): number | undefined {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : undefined;
}

class ReportsClient implements ReportsApi {
  constructor(
    private readonly transport: Transport,
    private readonly baseUrl: string,
  ) {}

  listReports(query: ReportQuery, page: number, signal?: AbortSignal, options?: ReadOptions): Promise<Page<Report>> {
    const filters = { project: query.project, result: query.result };
    return this.#list('api/v1/reports', query, filters, page, parseReport, signal, options);
  }

  async getReport(id: ReportId, signal?: AbortSignal): Promise<Report> {
    return this.transport.send({ method: 'GET', path: this.#reportPath(id, 'GET'), signal }, readReport);
  }

  async createReport(input: NewReport, signal?: AbortSignal): Promise<Report> {
    const form = new URLSearchParams({ url: input.url });
    if (input.privacy !== undefined) form.set('privacy', String(input.privacy));
    addPassword(form, input.privacy, input.password);
    return this.transport.send({ method: 'POST', path: 'api/v1/reports', form, signal }, readReport);
  }

  async updateReport(id: ReportId, change: ReportChange, signal?: AbortSignal): Promise<Report> {
    const path = this.#reportPath(id, 'PATCH');
    const form = new URLSearchParams();
    if (change.privacy !== undefined) form.set('privacy', String(change.privacy));
    addPassword(form, change.privacy, change.password);
    if (change.update === true) form.set('update', '1');
    return this.transport.send({ method: 'PATCH', path, form, signal }, readReport);
  }

  async deleteReport(id: ReportId, signal?: AbortSignal): Promise<void> {
    await this.#delete(this.#reportPath(id, 'DELETE'), signal);
  }

  listProjects(query: ProjectQuery, page: number, signal?: AbortSignal, options?: ReadOptions): Promise<Page<Project>> {
    return this.#list('api/v1/projects', query, {}, page, parseProject, signal, options);
  }

  async deleteProject(name: string, signal?: AbortSignal): Promise<void> {
    await this.#delete(`api/v1/projects/${this.segment(name, 'project', 'DELETE')}`, signal);
  }

  /** The path of report `id`, for a `method` request. */
  #reportPath(id: ReportId, method: string): string {
    return `api/v1/reports/${this.segment(id, 'id', method)}`;
  }

  /** A DELETE: any 2xx is success (200 with any body, 202, 204), the body is not parsed. */
  async #delete(path: string, signal: AbortSignal | undefined): Promise<void> {
    await this.transport.send({ method: 'DELETE', path, signal }, () => undefined);
  }

  /** One page of a list: the query's search, `filters`, sort, page size and the page, as the service names them. */
  #list<T>(
    path: string,
    query: ReportQuery | ProjectQuery,
    filters: Record<string, string | undefined>,
    page: number,
    parse: (item: unknown, where: string) => T,
    signal?: AbortSignal,
    options?: ReadOptions,
  ): Promise<Page<T>> {
    const params = definedParams({
      search: query.search,
      search_by: query.searchBy,
      ...filters,
      sort_by: query.sortBy,
      sort: query.sort,
      per_page: query.perPage,
      page: pageNumber(page),
    });
    const perPage = query.perPage ?? DEFAULT_PER_PAGE;
    const rateLimitToCaller = options?.rateLimitToCaller === true;
    return this.transport.send({ method: 'GET', path, query: params, signal, rateLimitToCaller }, (answer) => {
      const read = readBody(answer, (body) => parseListAnswer(body, parse, pageNumber(page), perPage));
      const remaining = rateLimitRemaining(answer.headers);
      return remaining === undefined ? read : { ...read, rateLimitRemaining: remaining };
    });
  }

  /**
   * One encoded path segment (`/` becomes `%2F`). Empty, `.` and `..` cannot be sent: URL
   * parsing would drop or resolve them (and encoding them as `%2E` does not help, WHATWG URL
   * treats that as a dot too), so the request would hit another resource; they fail as
   * `validation` without a request.
   */
  private segment(value: ReportId, field: string, method: string): string {
    const text = String(value);
    if (text === '' || text === '.' || text === '..') {
      const host = new URL(this.baseUrl).host;
      const message = `The ${field} "${text}" cannot be used in a request path.`;
      throw new ApiError({ kind: 'validation', host, method, path: '', fieldErrors: { [field]: [message] } }, message);
    }
    return encodeURIComponent(text);
  }
}

/** The query parameters that are defined, in the order given. */
function definedParams(entries: Record<string, string | number | undefined>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(entries)) {
    if (value !== undefined) params.set(name, String(value));
  }
  return params;
}

function pageNumber(page: number): number {
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

/** The password goes only with privacy 2 (Password); the service ignores it otherwise anyway. */
function addPassword(form: URLSearchParams, privacy: number | undefined, password: string | undefined): void {
  if (privacy === 2 && password !== undefined && password !== '') form.set('password', password);
}

/** `X-RateLimit-Remaining` as a count, when the service sent one the client can read (a browser may hide it). */
function rateLimitRemaining(headers: Headers): number | undefined {
  const value = headers.get('x-ratelimit-remaining')?.trim();
  return value !== undefined && /^\d{1,9}$/.test(value) ? Number(value) : undefined;
}

/** A single-report answer, read. */
function readReport(answer: Answer): Report {
  return readBody(answer, parseReportAnswer);
}

/** Parses a 2xx body as JSON and maps it; anything unusable is a `badResponse` naming the status. */
function readBody<T>(answer: Answer, map: (body: unknown) => T): T {
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch (error) {
    // Judged only once parsing failed: trimming a whole list answer up front costs more than its parse.
    const text = answer.text.trim();
    const problem =
      text === '' ? 'empty body' : text.startsWith('<') ? 'HTML instead of JSON' : 'invalid or truncated JSON';
    throw badResponseError(answer.target, answer.status, problem, text === '' ? undefined : error);
  }
  try {
    return map(body);
  } catch (error) {
    if (error instanceof ResponseShapeError) throw badResponseError(answer.target, answer.status, error.problem, error);
    throw error;
  }
}
