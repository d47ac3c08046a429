/**
 * THE store of recent analyses: for each report re-analyzed lately, the analysis the extension had
 * just before it sent `update=1`, which the panel compares with. It keeps `Report.raw`, so an entry
 * is parsed like a fresh answer; an entry of another shape is ignored, never trusted. No password
 * is kept, at any depth.
 */
import type { ReportId } from '../api/types';
import { WorkspaceStateKey } from '../ids';
import { isRecord, withoutPasswords } from '../text/guards';

/** How many reports keep their previous analysis. */
export const RECENT_ANALYSES_LIMIT = 50;
/**
 * The largest previous analysis kept, as JSON (UTF-16 code units): far above a real report's,
 * far below what a hostile service could send, which would otherwise grow workspace state on
 * every re-analysis.
 */
export const RECENT_ANALYSIS_MAX_CHARS = 256 * 1024;

/** The part of `vscode.Memento` the store uses. */
export interface StateLike {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}

export interface RecentAnalysis {
  /**
   * The service the report lives on: its normalized URL, e.g. `https://reports.example.com` or
   * `https://example.com/team-a` (ids are per service, and two services may share an origin).
   * Named `origin` as entries were stored before: a service at the root has the same key.
   */
  readonly origin: string;
  /** The report id as text (ids are compared as text throughout the extension). */
  readonly id: string;
  /** The previous analysis: every field as the service sent it. */
  readonly previous: Record<string, unknown>;
  /** When it was stored (epoch ms). */
  readonly savedAt: number;
}

function isEntry(value: unknown): value is RecentAnalysis {
  return (
    isRecord(value) &&
    typeof value.origin === 'string' &&
    typeof value.id === 'string' &&
    isRecord(value.previous) &&
    typeof value.savedAt === 'number'
  );
}

function withoutPassword(entry: RecentAnalysis): RecentAnalysis {
  const previous = withoutPasswords(entry.previous) as Record<string, unknown>;
  return previous === entry.previous ? entry : { ...entry, previous };
}

export class RecentAnalyses {
  constructor(
    private readonly state: StateLike,
    private readonly limit = RECENT_ANALYSES_LIMIT,
  ) {}

  /** Every entry, most recent first (entries of an unknown shape are left out). */
  all(): RecentAnalysis[] {
    const stored = this.state.get<unknown>(WorkspaceStateKey.recentAnalyses);
    return Array.isArray(stored) ? stored.filter(isEntry).map(withoutPassword) : [];
  }

  /** The previous analysis of report `id` on `service`, or undefined. */
  previous(service: string, id: ReportId): Record<string, unknown> | undefined {
    const key = String(id);
    return this.all().find((e) => e.origin === service && e.id === key)?.previous;
  }

  /**
   * Keeps `previous` as the previous analysis of report `id` on `service` (replacing the one it
   * had), at the front; the list is cut to the limit.
   */
  async remember(service: string, id: ReportId, previous: Record<string, unknown>, now = Date.now()): Promise<void> {
    const key = String(id);
    const rest = this.all().filter((e) => !(e.origin === service && e.id === key));
    const entry = withoutPassword({ origin: service, id: key, previous, savedAt: now });
    const tooLarge = JSON.stringify(entry.previous).length > RECENT_ANALYSIS_MAX_CHARS;
    const next: RecentAnalysis[] = tooLarge ? rest : [entry, ...rest].slice(0, this.limit);
    await this.state.update(WorkspaceStateKey.recentAnalyses, next);
  }

  /** Drops the entry of a deleted report. */
  async forget(service: string, id: ReportId): Promise<void> {
    const key = String(id);
    const all = this.all();
    const rest = all.filter((e) => !(e.origin === service && e.id === key));
    if (rest.length !== all.length) await this.state.update(WorkspaceStateKey.recentAnalyses, rest);
  }
}
