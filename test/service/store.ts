/**
 * The reports of every account, in memory, with sorted indexes so that a page of a large
 * list is a slice rather than a sort (10,000 reports list in about a millisecond).
 * Projects are derived: a project is the set of an account's reports with that `project`.
 */
import { parseTimestamp } from './time';
import type { StoredReport } from './types';

export type ReportSortKey = 'id' | 'generated_at' | 'url' | 'score';
export type ProjectSortKey = 'created_at' | 'project';
export type Direction = 'asc' | 'desc';

export interface ReportListQuery {
  /** Substring of the URL, matched case-insensitively; null for none. */
  search: string | null;
  project: string | null;
  result: string | null;
  sortBy: ReportSortKey;
  sort: Direction;
  page: number;
  perPage: number;
}

export interface ProjectListQuery {
  /** Substring of the name, matched case-insensitively; null for none. */
  search: string | null;
  sortBy: ProjectSortKey;
  sort: Direction;
  page: number;
  perPage: number;
}

/** A project as listed: its name and the `created_at` of its first report. */
export interface ProjectRow {
  project: string;
  createdAt: unknown;
}

export interface ListPage<T> {
  items: T[];
  total: number;
}

/** What the file behind `--data` holds. */
export interface Snapshot {
  version: 1;
  nextId: number;
  reports: StoredReport[];
}

/** A report with its sort and filter keys, computed once per write. */
interface Entry {
  report: StoredReport;
  id: number;
  url: string;
  urlLower: string;
  project: string | null;
  result: unknown;
  score: number;
  generated: number;
  /** `created_at` in microseconds; NaN when it is no timestamp. */
  created: number;
}

interface ProjectEntry {
  project: string;
  lower: string;
  created: number;
  createdAt: unknown;
}

/** Code-unit order of strings (contract §2: ordinal, not a locale collation). */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareNumber(a: number, b: number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Ascending comparators; every one ends on the id so that pages never overlap. */
const REPORT_ORDER: Record<ReportSortKey, (a: Entry, b: Entry) => number> = {
  id: (a, b) => a.id - b.id,
  generated_at: (a, b) => compareNumber(a.generated, b.generated) || a.id - b.id,
  url: (a, b) => compareText(a.url, b.url) || a.id - b.id,
  score: (a, b) => compareNumber(a.score, b.score) || a.id - b.id,
};

/** A missing or non-numeric value sorts before every number. */
function numberKey(value: unknown): number {
  const number =
    typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(number) ? number : -Infinity;
}

function toEntry(report: StoredReport): Entry {
  const url = typeof report.fields.url === 'string' ? report.fields.url : '';
  const project =
    typeof report.fields.project === 'string' && report.fields.project !== '' ? report.fields.project : null;
  const generated = parseTimestamp(report.fields.generated_at);
  return {
    report,
    id: report.id,
    url,
    urlLower: url.toLowerCase(),
    project,
    result: report.fields.result,
    score: numberKey(report.fields.score),
    generated: Number.isNaN(generated) ? -Infinity : generated,
    created: parseTimestamp(report.fields.created_at),
  };
}

/** One account's reports and the indexes built from them (rebuilt lazily after a write). */
class AccountData {
  /** Insertion order is id order: ids only grow. */
  readonly entries = new Map<number, Entry>();
  private readonly sorted = new Map<ReportSortKey, Entry[]>();
  private projects: ProjectEntry[] | null = null;
  private readonly projectOrder = new Map<ProjectSortKey, ProjectEntry[]>();

  invalidate(): void {
    this.sorted.clear();
    this.projects = null;
    this.projectOrder.clear();
  }

  /** Every report in ascending order of the key (the id breaks ties). */
  ascending(key: ReportSortKey): Entry[] {
    let list = this.sorted.get(key);
    if (!list) {
      list = [...this.entries.values()];
      if (key !== 'id') list.sort(REPORT_ORDER[key]);
      this.sorted.set(key, list);
    }
    return list;
  }

  projectList(key: ProjectSortKey): ProjectEntry[] {
    let list = this.projectOrder.get(key);
    if (!list) {
      list = [...this.projectEntries()];
      list.sort(
        key === 'project'
          ? (a, b) => compareText(a.project, b.project)
          : (a, b) => compareNumber(a.created, b.created) || compareText(a.project, b.project),
      );
      this.projectOrder.set(key, list);
    }
    return list;
  }

  /** A project's date is the `created_at` of its oldest report (earliest date, then lowest id). */
  private projectEntries(): ProjectEntry[] {
    if (!this.projects) {
      const byName = new Map<string, ProjectEntry>();
      for (const entry of this.entries.values()) {
        if (entry.project === null) continue;
        const createdAt = entry.report.fields.created_at;
        const created = Number.isNaN(entry.created) ? Infinity : entry.created;
        const known = byName.get(entry.project);
        if (!known) {
          byName.set(entry.project, { project: entry.project, lower: entry.project.toLowerCase(), created, createdAt });
        } else if (created < known.created) {
          known.created = created;
          known.createdAt = createdAt;
        }
      }
      this.projects = [...byName.values()];
      for (const project of this.projects) if (project.created === Infinity) project.created = -Infinity;
    }
    return this.projects;
  }

  hasProject(name: string): boolean {
    for (const entry of this.entries.values()) if (entry.project === name) return true;
    return false;
  }
}

/** Takes `perPage` items of page `page` from a list sorted ascending, in the wanted direction. */
function pageOf<T>(ascending: readonly T[], direction: Direction, page: number, perPage: number): T[] {
  const total = ascending.length;
  const start = (page - 1) * perPage;
  const items: T[] = [];
  for (let i = start; i < total && i < start + perPage; i++) {
    items.push(ascending[direction === 'asc' ? i : total - 1 - i]);
  }
  return items;
}

/** All reports of all accounts. Every change is announced to `onChange` (persistence). */
export class Store {
  private nextId = 1;
  private readonly accounts = new Map<string, AccountData>();

  constructor(private readonly onChange: () => void = () => undefined) {}

  private account(name: string): AccountData {
    let data = this.accounts.get(name);
    if (!data) {
      data = new AccountData();
      this.accounts.set(name, data);
    }
    return data;
  }

  /** Stores a new report with the next id. `fields` must not hold `id`. */
  insert(account: string, fields: Record<string, unknown>, passwordHash: string | null): StoredReport {
    const report: StoredReport = { id: this.nextId++, account, passwordHash, fields };
    const data = this.account(account);
    data.entries.set(report.id, toEntry(report));
    data.invalidate();
    this.onChange();
    return report;
  }

  /** Many inserts with one index rebuild (seeding). */
  insertMany(account: string, items: { fields: Record<string, unknown>; passwordHash: string | null }[]): void {
    const data = this.account(account);
    for (const item of items) {
      const report: StoredReport = { id: this.nextId++, account, passwordHash: item.passwordHash, fields: item.fields };
      data.entries.set(report.id, toEntry(report));
    }
    data.invalidate();
    this.onChange();
  }

  /** Builds every index of an account now rather than on its first list (after seeding). */
  warm(account: string): void {
    const data = this.accounts.get(account);
    if (!data) return;
    for (const key of Object.keys(REPORT_ORDER) as ReportSortKey[]) data.ascending(key);
    data.projectList('created_at');
    data.projectList('project');
  }

  get(account: string, id: number): StoredReport | undefined {
    return this.accounts.get(account)?.entries.get(id)?.report;
  }

  /** Replaces a stored report's fields and password; false when it is gone meanwhile. */
  replace(report: StoredReport, fields: Record<string, unknown>, passwordHash: string | null): boolean {
    const data = this.accounts.get(report.account);
    if (!data?.entries.has(report.id)) return false;
    const updated: StoredReport = { ...report, fields, passwordHash };
    data.entries.set(report.id, toEntry(updated));
    data.invalidate();
    this.onChange();
    return true;
  }

  deleteReport(account: string, id: number): boolean {
    const data = this.accounts.get(account);
    if (!data?.entries.delete(id)) return false;
    data.invalidate();
    this.onChange();
    return true;
  }

  /** Deletes a project with all its reports; the number deleted (0: no such project). */
  deleteProject(account: string, name: string): number {
    const data = this.accounts.get(account);
    if (!data) return 0;
    let count = 0;
    for (const [id, entry] of data.entries) {
      if (entry.project === name) {
        data.entries.delete(id);
        count++;
      }
    }
    if (count > 0) {
      data.invalidate();
      this.onChange();
    }
    return count;
  }

  hasProject(account: string, name: string): boolean {
    return this.accounts.get(account)?.hasProject(name) ?? false;
  }

  listReports(account: string, query: ReportListQuery): ListPage<StoredReport> {
    const data = this.accounts.get(account);
    if (!data) return { items: [], total: 0 };
    let pool = data.ascending(query.sortBy);
    if (query.search !== null || query.project !== null || query.result !== null) {
      const search = query.search?.toLowerCase() ?? null;
      pool = pool.filter(
        (entry) =>
          (search === null || entry.urlLower.includes(search)) &&
          (query.project === null || entry.project === query.project) &&
          (query.result === null || entry.result === query.result),
      );
    }
    return {
      items: pageOf(pool, query.sort, query.page, query.perPage).map((entry) => entry.report),
      total: pool.length,
    };
  }

  listProjects(account: string, query: ProjectListQuery): ListPage<ProjectRow> {
    const data = this.accounts.get(account);
    if (!data) return { items: [], total: 0 };
    let pool = data.projectList(query.sortBy);
    if (query.search !== null) {
      const search = query.search.toLowerCase();
      pool = pool.filter((project) => project.lower.includes(search));
    }
    const items = pageOf(pool, query.sort, query.page, query.perPage).map((p) => ({
      project: p.project,
      createdAt: p.createdAt,
    }));
    return { items, total: pool.length };
  }

  /** Number of reports of an account (all accounts when omitted). */
  count(account?: string): number {
    if (account !== undefined) return this.accounts.get(account)?.entries.size ?? 0;
    let total = 0;
    for (const data of this.accounts.values()) total += data.entries.size;
    return total;
  }

  /** Removes every report; ids keep growing (an id is never reused). */
  clear(): void {
    this.accounts.clear();
    this.onChange();
  }

  snapshot(): Snapshot {
    const reports: StoredReport[] = [];
    for (const data of this.accounts.values()) for (const entry of data.entries.values()) reports.push(entry.report);
    reports.sort((a, b) => a.id - b.id);
    return { version: 1, nextId: this.nextId, reports };
  }

  /** Replaces everything with a snapshot (from the data file); announces no change. */
  restore(snapshot: Snapshot): void {
    this.accounts.clear();
    const reports = [...snapshot.reports].sort((a, b) => a.id - b.id);
    for (const report of reports) this.account(report.account).entries.set(report.id, toEntry(report));
    const maxId = reports.length > 0 ? reports[reports.length - 1].id : 0;
    this.nextId = Math.max(snapshot.nextId, maxId + 1);
  }
}
