/**
 * The seven operations of `/api/v1` (contract §1-4): routing, validation and handlers.
 * Authentication and rate limiting happen before, in server.ts.
 */
import { createHash, randomBytes } from 'node:crypto';
import { AnalysisError, type Analyzer } from './analysis';
import { json, type Answer, type Fields } from './http';
import { presentDeleted, presentList, presentProject, presentReport, type ListLocation } from './present';
import type { Direction, ProjectSortKey, ReportSortKey, Store } from './store';
import { nowIso } from './time';
import type { Shape, StoredReport } from './types';
import { Errors, given, isHttpUrl, isIn, isInteger, isString, messages, validationAnswer } from './validation';

export const NOT_FOUND: Answer = json(404, { message: 'Resource not found.', status: 404 });

export type ApiRoute =
  | { name: 'reports.index' | 'reports.store' | 'projects.index' }
  | { name: 'reports.show' | 'reports.update' | 'reports.destroy'; id: number }
  | { name: 'projects.destroy'; project: string };

export type RouteMatch = { route: ApiRoute } | { answer: Answer };

function methodNotAllowed(method: string, path: string, allowed: string[]): RouteMatch {
  return {
    answer: json(
      405,
      { message: `The ${method} method is not supported for route ${path}. Supported methods: ${allowed.join(', ')}.` },
      { Allow: allowed.join(', ') },
    ),
  };
}

/**
 * Finds the operation for a method and the path segments after `/api/v1/` (already
 * percent-decoded, so a project name may hold `/`). `path` is only for messages.
 */
export function matchApiRoute(method: string, segments: string[], path: string): RouteMatch {
  const get = method === 'GET' || method === 'HEAD';
  const [resource, param, ...rest] = segments;
  if (rest.length > 0) return { answer: json(404, { message: `The route ${path} could not be found.` }) };
  if (resource === 'reports' && param === undefined) {
    if (get) return { route: { name: 'reports.index' } };
    if (method === 'POST') return { route: { name: 'reports.store' } };
    return methodNotAllowed(method, path, ['GET', 'HEAD', 'POST']);
  }
  if (resource === 'reports' && param !== undefined) {
    // Like a route with whereNumber('id'): anything else is no report.
    if (!/^\d{1,15}$/.test(param)) return { answer: NOT_FOUND };
    const id = Number(param);
    if (get) return { route: { name: 'reports.show', id } };
    if (method === 'PUT' || method === 'PATCH') return { route: { name: 'reports.update', id } };
    if (method === 'DELETE') return { route: { name: 'reports.destroy', id } };
    return methodNotAllowed(method, path, ['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE']);
  }
  if (resource === 'projects' && param === undefined) {
    if (get) return { route: { name: 'projects.index' } };
    return methodNotAllowed(method, path, ['GET', 'HEAD']);
  }
  if (resource === 'projects' && param !== undefined && param !== '') {
    if (method === 'DELETE') return { route: { name: 'projects.destroy', project: param } };
    return methodNotAllowed(method, path, ['DELETE']);
  }
  return { answer: json(404, { message: `The route ${path} could not be found.` }) };
}

/** What a handler gets besides the route. */
export interface ApiRequest {
  account: string;
  /** Query parameters after Laravel's input middleware. */
  query: Fields;
  /** Body fields after Laravel's input middleware. */
  body: Fields;
  /** Where list links point. */
  list: ListLocation;
}

export interface ApiServices {
  store: Store;
  shape: () => Shape;
  analyze: Analyzer;
}

const PER_PAGE = ['10', '25', '50', '100'];
const DIRECTIONS = ['asc', 'desc'];
const RESULTS = ['good', 'decent', 'bad'];
const REPORT_SORTS = ['id', 'generated_at', 'url', 'score'];
const PROJECT_SORTS = ['created_at', 'project'];

/** Laravel's page resolver: a positive integer, anything else is page 1. */
function pageNumber(value: unknown): number {
  const text = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
  if (!/^\+?\d+$/.test(text)) return 1;
  const page = Number(text);
  return Number.isSafeInteger(page) && page >= 1 ? page : 1;
}

function checkString(errors: Errors, fields: Fields, name: string): void {
  if (given(fields[name]) && !isString(fields[name])) errors.add(name, messages.string(name));
}

function checkIn(errors: Errors, fields: Fields, name: string, allowed: readonly string[]): void {
  if (given(fields[name]) && !isIn(fields[name], allowed)) errors.add(name, messages.in(name));
}

/** Salted SHA-256 of a report page password (the password itself is never kept). */
export function hashPassword(password: string): string {
  const salt = randomBytes(8).toString('hex');
  return `sha256$${salt}$${createHash('sha256').update(`${salt}:${password}`).digest('hex')}`;
}

function analysisFailed(error: unknown): Answer {
  const message = error instanceof AnalysisError ? error.message : 'The url could not be fetched: the analysis failed.';
  return validationAnswer({ url: [message] });
}

/** Runs one operation. */
export async function handleApi(route: ApiRoute, request: ApiRequest, services: ApiServices): Promise<Answer> {
  const { store } = services;
  const shape = services.shape();
  switch (route.name) {
    case 'reports.index': {
      const q = request.query;
      const errors = new Errors();
      checkString(errors, q, 'search');
      checkIn(errors, q, 'search_by', ['url']);
      checkString(errors, q, 'project');
      checkIn(errors, q, 'result', RESULTS);
      checkIn(errors, q, 'sort_by', REPORT_SORTS);
      checkIn(errors, q, 'sort', DIRECTIONS);
      checkIn(errors, q, 'per_page', PER_PAGE);
      if (!errors.empty) return errors.toAnswer();
      const page = pageNumber(q.page);
      const perPage = given(q.per_page) ? Number(q.per_page) : 10;
      const list = store.listReports(request.account, {
        search: given(q.search) ? (q.search as string) : null,
        project: given(q.project) ? (q.project as string) : null,
        result: given(q.result) ? String(q.result) : null,
        sortBy: (given(q.sort_by) ? q.sort_by : 'id') as ReportSortKey,
        sort: (given(q.sort) ? q.sort : 'desc') as Direction,
        page,
        perPage,
      });
      const items = list.items.map((report) => presentReport(report, shape));
      return presentList(list, items, page, perPage, request.list, shape);
    }
    case 'projects.index': {
      const q = request.query;
      const errors = new Errors();
      checkString(errors, q, 'search');
      checkIn(errors, q, 'search_by', ['project']);
      checkIn(errors, q, 'sort_by', PROJECT_SORTS);
      checkIn(errors, q, 'sort', DIRECTIONS);
      checkIn(errors, q, 'per_page', PER_PAGE);
      if (!errors.empty) return errors.toAnswer();
      const page = pageNumber(q.page);
      const perPage = given(q.per_page) ? Number(q.per_page) : 10;
      const list = store.listProjects(request.account, {
        search: given(q.search) ? (q.search as string) : null,
        sortBy: (given(q.sort_by) ? q.sort_by : 'created_at') as ProjectSortKey,
        sort: (given(q.sort) ? q.sort : 'desc') as Direction,
        page,
        perPage,
      });
      const items = list.items.map((row) => presentProject(row, shape));
      return presentList(list, items, page, perPage, request.list, shape);
    }
    case 'reports.show': {
      const report = store.get(request.account, route.id);
      return report ? json(200, { data: presentReport(report, shape) }) : NOT_FOUND;
    }
    case 'reports.store':
      return storeReport(request, services, shape);
    case 'reports.update': {
      const report = store.get(request.account, route.id);
      return report ? updateReport(report, request, services, shape) : NOT_FOUND;
    }
    case 'reports.destroy':
      return store.deleteReport(request.account, route.id) ? presentDeleted(route.id, 'report', shape) : NOT_FOUND;
    case 'projects.destroy':
      return store.deleteProject(request.account, route.project) > 0
        ? presentDeleted(route.project, 'project', shape)
        : NOT_FOUND;
  }
}

function checkPrivacy(errors: Errors, body: Fields): void {
  if (!given(body.privacy)) return;
  if (!isInteger(body.privacy)) errors.add('privacy', messages.integer('privacy'));
  if (!isIn(body.privacy, ['0', '1', '2'])) errors.add('privacy', messages.in('privacy'));
}

async function storeReport(request: ApiRequest, services: ApiServices, shape: Shape): Promise<Answer> {
  const body = request.body;
  const errors = new Errors();
  if (!given(body.url)) errors.add('url', messages.required('url'));
  else if (!isHttpUrl(body.url)) errors.add('url', messages.url('url'));
  checkPrivacy(errors, body);
  checkString(errors, body, 'password');
  if (!errors.has('privacy') && given(body.privacy) && Number(body.privacy) === 2 && !given(body.password)) {
    errors.add('password', messages.requiredIf('password', 'privacy', '2'));
  }
  if (!errors.empty) return errors.toAnswer();

  const url = body.url as string;
  const privacy = given(body.privacy) ? Number(body.privacy) : 0;
  const createdAt = nowIso();
  let analysis;
  try {
    analysis = await services.analyze(url);
  } catch (error) {
    return analysisFailed(error);
  }
  const generatedAt = nowIso();
  const report = services.store.insert(
    request.account,
    {
      url,
      project: new URL(url).hostname,
      result: analysis.result,
      score: analysis.score,
      privacy,
      results: analysis.results,
      generated_at: generatedAt,
      created_at: createdAt,
      updated_at: generatedAt,
    },
    // A password sent with privacy 0 or 1 is ignored (contract §3).
    privacy === 2 ? hashPassword(body.password as string) : null,
  );
  return json(201, { data: presentReport(report, shape) });
}

async function updateReport(
  report: StoredReport,
  request: ApiRequest,
  services: ApiServices,
  shape: Shape,
): Promise<Answer> {
  const body = request.body;
  const errors = new Errors();
  checkPrivacy(errors, body);
  checkString(errors, body, 'password');
  checkIn(errors, body, 'update', ['0', '1']);
  const privacy = given(body.privacy) && !errors.has('privacy') ? Number(body.privacy) : undefined;
  if (privacy === 2 && !given(body.password) && report.passwordHash === null) {
    errors.add('password', messages.requiredIf('password', 'privacy', '2'));
  }
  if (!errors.empty) return errors.toAnswer();

  let analysis;
  if (given(body.update) && Number(body.update) === 1) {
    const url = report.fields.url;
    try {
      analysis = await services.analyze(typeof url === 'string' ? url : String(url));
    } catch (error) {
      return analysisFailed(error);
    }
  }
  // Apply the change to the report as it is now: it may have changed or gone meanwhile.
  const current = services.store.get(report.account, report.id);
  if (!current) return NOT_FOUND;
  const fields = { ...current.fields };
  let passwordHash = current.passwordHash;
  let changed = false;
  if (analysis) {
    fields.result = analysis.result;
    fields.score = analysis.score;
    fields.results = analysis.results;
    fields.generated_at = nowIso();
    changed = true;
  }
  if (privacy !== undefined && privacy !== fields.privacy) {
    fields.privacy = privacy;
    changed = true;
  }
  if (Number(fields.privacy) === 2) {
    if (given(body.password)) {
      passwordHash = hashPassword(body.password as string);
      changed = true;
    }
  } else if (passwordHash !== null) {
    // Privacy 0 or 1 drops a stored password; a password sent with it is ignored.
    passwordHash = null;
    changed = true;
  }
  if (changed) fields.updated_at = nowIso();
  services.store.replace(current, fields, passwordHash);
  const updated = services.store.get(report.account, report.id)!;
  return json(200, { data: presentReport(updated, shape) });
}
