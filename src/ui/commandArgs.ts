/**
 * Reads what a command was invoked with (a tree node, a report (the panel's), `{ id }`, a bare id,
 * a project name, or nothing from the palette) into the reports or project it names.
 */
import type { Report, ReportId } from '../api/types';
import type { TreeNode } from '../parts';
import { isRecord, isReportId } from '../text/guards';

/** A report a command acts on: always its id, and the report when the caller had it. */
export interface ReportRef {
  readonly id: ReportId;
  readonly report?: Report;
}

function isTreeNode(value: unknown): value is TreeNode {
  return isRecord(value) && typeof value.kind === 'string';
}

/** A full domain report (as the client builds them), not just `{ id }`. */
function isReport(value: unknown): value is Report {
  return isRecord(value) && isReportId(value.id) && typeof value.url === 'string' && isRecord(value.raw);
}

/** The report `arg` names, or undefined when it names none (a project node, a load-more item, nothing at all). */
export function reportRef(arg: unknown): ReportRef | undefined {
  if (isReportId(arg)) return { id: arg };
  if (isTreeNode(arg)) return arg.kind === 'report' ? { id: arg.report.id, report: arg.report } : undefined;
  if (isReport(arg)) return { id: arg.id, report: arg };
  if (isRecord(arg) && isReportId(arg.id)) return { id: arg.id };
  return undefined;
}

/**
 * The reports of a menu invocation `(item, selected)`: the whole selection when the clicked
 * item is part of it (multi-select), else the item alone. Duplicates are dropped.
 */
export function reportRefs(item: unknown, selected: unknown): ReportRef[] {
  const itemRef = reportRef(item);
  let refs: ReportRef[] = itemRef ? [itemRef] : [];
  if (Array.isArray(selected) && selected.length > 1) {
    const all = selected.map(reportRef).filter((r): r is ReportRef => r !== undefined);
    if (itemRef === undefined || all.some((r) => String(r.id) === String(itemRef.id))) refs = all;
  }
  const unique = new Map<string, ReportRef>();
  for (const ref of refs) if (!unique.has(String(ref.id))) unique.set(String(ref.id), ref);
  return [...unique.values()];
}

/** The project name `arg` names: a project node, a `Project` (`{ name }`), `{ project }` or a name. */
export function projectName(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg === '' ? undefined : arg;
  if (isTreeNode(arg)) return arg.kind === 'project' ? arg.project.name : undefined;
  if (isRecord(arg)) {
    if (typeof arg.name === 'string') return arg.name || undefined;
    if (typeof arg.project === 'string' && arg.project !== '') return arg.project;
  }
  return undefined;
}
