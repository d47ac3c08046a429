/**
 * How stored data becomes answers: the canonical shapes of contract §1-3, or one of the
 * variants of §5 chosen with `POST /__admin/shape`.
 */
import { buildQuery, json, type Answer } from './http';
import type { ListPage, ProjectRow } from './store';
import { toSqlDate } from './time';
import type { Shape, StoredReport } from './types';

const DATE_FIELDS = new Set(['generated_at', 'created_at', 'updated_at']);

function dateOut(value: unknown, shape: Shape): unknown {
  return shape.dates === 'sql' ? toSqlDate(value) : value;
}

/** A report as answered: `id` first, then its fields; never its password. */
export function presentReport(report: StoredReport, shape: Shape): Record<string, unknown> {
  const out: Record<string, unknown> = { id: shape.ids === 'string' ? String(report.id) : report.id };
  for (const [key, value] of Object.entries(report.fields)) {
    if (key === 'id' || key === 'password') continue;
    if (key === 'score') {
      if (shape.scores === 'missing') continue;
      out.score = shape.scores === 'string' && typeof value === 'number' ? value.toFixed(2) : value;
    } else if (DATE_FIELDS.has(key)) {
      out[key] = dateOut(value, shape);
    } else {
      out[key] = value;
    }
  }
  return out;
}

export function presentProject(row: ProjectRow, shape: Shape): Record<string, unknown> {
  const out: Record<string, unknown> = { project: row.project };
  if (row.createdAt !== undefined) out.created_at = dateOut(row.createdAt, shape);
  return out;
}

/** Where list links point: the list's absolute path and the request's other query parameters. */
export interface ListLocation {
  /** e.g. `http://127.0.0.1:8787/api/v1/reports` */
  path: string;
  /** The request's query parameters without `page`, in order, PHP style (last value wins). */
  query: [string, string][];
}

/** Laravel's paginated resource collection (`data`, `links`, `meta`) or a §5 variant. */
export function presentList<T>(
  page: ListPage<T>,
  items: unknown[],
  current: number,
  perPage: number,
  where: ListLocation,
  shape: Shape,
): Answer {
  if (shape.list === 'array') return json(200, items);
  if (shape.list === 'data') return json(200, { data: items });
  const lastPage = Math.max(1, Math.ceil(page.total / perPage));
  const link = (n: number): string => `${where.path}?${buildQuery([...where.query, ['page', String(n)]])}`;
  const links = {
    first: link(1),
    last: link(lastPage),
    prev: current > 1 ? link(current - 1) : null,
    next: current < lastPage ? link(current + 1) : null,
  };
  if (shape.list === 'links') return json(200, { data: items, links });
  const from = items.length > 0 ? (current - 1) * perPage + 1 : null;
  const meta = {
    current_page: current,
    from,
    last_page: lastPage,
    path: where.path,
    per_page: perPage,
    to: from === null ? null : from + items.length - 1,
    total: page.total,
  };
  return json(200, { data: items, links, meta });
}

/** The answer to a delete: `{ id, object, deleted }` with the shape's status. */
export function presentDeleted(id: number | string, object: 'report' | 'project', shape: Shape): Answer {
  if (shape.deleteStatus === 204) return { status: 204 };
  const shownId = object === 'report' && shape.ids === 'string' ? String(id) : id;
  return json(shape.deleteStatus, { id: shownId, object, deleted: true });
}
