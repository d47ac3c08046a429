/**
 * What the writes share: each is sent once and never retried automatically (batch.ts retries
 * only a 429 refused before acting); one write at a time per target, shown busy meanwhile.
 * A write belongs to the service it was sent to: after a switch, the same id is another
 * report, so its answer goes to that service's panel only and its Retry refuses.
 */
import * as vscode from 'vscode';
import * as l10n from '@vscode/l10n';
import { isApiError, type ApiError } from '../api/errors';
import type { Report, ReportId } from '../api/types';
import { HTTP_BLOCKED } from '../api/browserReasons';
import { CONNECT_TIMEOUT } from '../api/failures';
import type { ReportRef } from '../ui/commandArgs';
import { truncate } from '../presentation/format';
import { isOptions } from '../text/guards';
import { singleLine } from '../text/text';
import type { ConnectionApi, Parts } from '../parts';
import type { CommandId } from '../ids';
import { flash, idText, type ConfirmOptions } from '../ui/notify';

/**
 * Remembers which writes are in flight, so a double click (or a second menu invocation)
 * never sends the same write twice.
 */
export class InFlight {
  readonly #running = new Set<string>();

  /** Runs `task` unless the same key is already running; then resolves `undefined`. */
  async run<T>(key: string, task: () => PromiseLike<T>): Promise<T | undefined> {
    if (this.#running.has(key)) return undefined;
    this.#running.add(key);
    try {
      return await task();
    } finally {
      this.#running.delete(key);
    }
  }

  has(key: string): boolean {
    return this.#running.has(key);
  }
}

/**
 * A failed command's Retry: runs `again` only while the connection still shows `serviceUrl`,
 * the service it failed on. After a switch the same id names another report, so it says so
 * (`changed`, or the general sentence) and sends nothing.
 */
export function retryOn(
  connection: Pick<ConnectionApi, 'serviceUrl'>,
  serviceUrl: string | undefined,
  again: () => unknown,
  changed?: string,
): () => unknown {
  return () => {
    if (serviceUrl === connection.serviceUrl) return again();
    void vscode.window.showWarningMessage(
      changed ??
        l10n.t(
          'The service changed since this failed, so nothing was sent. Run the command again for the current service.',
        ),
    );
    return undefined;
  };
}

/** {@link retryOn} whose Retry runs the command `command` with `args` again. */
export function retryCommand(
  connection: Pick<ConnectionApi, 'serviceUrl'>,
  serviceUrl: string | undefined,
  command: CommandId,
  ...args: unknown[]
): () => unknown {
  return retryOn(connection, serviceUrl, () => vscode.commands.executeCommand(command, ...args));
}

/** The parts a write touches, and the one in-flight guard every write shares. */
export class Writes {
  readonly inFlight = new InFlight();

  constructor(readonly parts: Parts) {}

  get log(): Parts['log'] {
    return this.parts.log;
  }

  get errors(): Parts['errors'] {
    return this.parts.errors;
  }

  get panels(): Parts['panels'] {
    return this.parts.panels;
  }

  get reportsView(): Parts['reportsView'] {
    return this.parts.reportsView;
  }

  /** The service the views show now. */
  get serviceUrl(): string | undefined {
    return this.parts.connection.serviceUrl;
  }

  /**
   * Both views while they show `serviceUrl`; none once the user has switched away from it
   * (there the same id is another report).
   */
  #viewsOf(serviceUrl: string | undefined): (Parts['reportsView'] | Parts['projectsView'])[] {
    return serviceUrl === this.serviceUrl ? [this.parts.reportsView, this.parts.projectsView] : [];
  }

  /**
   * Shows or clears the busy state of report `id` of `serviceUrl` (by default the current
   * service): its items in both views while that is the service they show, and its panel.
   */
  setBusy(id: ReportId, busy: boolean, serviceUrl = this.serviceUrl): void {
    for (const view of this.#viewsOf(serviceUrl)) view.setBusy(id, busy);
    this.parts.panels.setBusy(id, busy, serviceUrl);
  }

  /** Shows the report as the service (`serviceUrl`, by default the current one) now has it, in both views and its panel. */
  showUpdated(report: Report, serviceUrl = this.serviceUrl): void {
    for (const view of this.#viewsOf(serviceUrl)) view.update(report);
    this.parts.panels.update(report, serviceUrl);
    this.parts.findings.reportChanged(report, serviceUrl);
  }

  /** A report is gone from the service: its rows leave both views and its panel closes. */
  dropReport(id: ReportId, serviceUrl = this.serviceUrl): void {
    for (const view of this.#viewsOf(serviceUrl)) view.remove(id);
    this.parts.panels.close(id, serviceUrl);
    this.parts.findings.reportGone(id, serviceUrl);
  }

  /** A failed write's Retry, sent only to the service it failed on: {@link retryOn}. */
  retryOn(serviceUrl: string | undefined, again: () => unknown, changed?: string): () => unknown {
    return retryOn(this.parts.connection, serviceUrl, again, changed);
  }

  /** A failed write's Retry that runs the command again: {@link retryCommand}. */
  retryCommand(serviceUrl: string | undefined, command: CommandId, ...args: unknown[]): () => unknown {
    return retryCommand(this.parts.connection, serviceUrl, command, ...args);
  }

  /**
   * Reloads both views, the pages loaded so far (the rows the user paged to stay), and the
   * findings in the code, while they show `serviceUrl` (by default the current service); none
   * after a switch away from it. Never rejects.
   */
  async refreshViews(serviceUrl = this.serviceUrl): Promise<void> {
    const findings = serviceUrl === this.serviceUrl ? [this.parts.findings.refresh()] : [];
    await Promise.allSettled([...this.#viewsOf(serviceUrl).map((view) => view.refresh(true)), ...findings]);
  }

  /** The in-flight key of the writes on report `id` of the current service: one at a time each. */
  #writeKey(id: ReportId): string {
    return `${this.serviceUrl ?? ''}:${id}`;
  }

  /** True, after saying so, when a write on report `id` of the current service is still in flight. */
  stillRunning(id: ReportId): boolean {
    if (!this.inFlight.has(this.#writeKey(id))) return false;
    flash(l10n.t('Report {0} is still being changed; wait for it to finish.', idText(id)));
    return true;
  }

  /**
   * Runs `task`, a question about `subject` (`report:42`, `project:shop`) and what follows,
   * unless the same question is already open (then resolves undefined): a double click on
   * Delete asks once, where VS Code would queue a second question.
   */
  askingOnce<T>(subject: string, task: () => Promise<T>): Promise<T | undefined> {
    return this.inFlight.run(`ask:${this.serviceUrl ?? ''}:${subject}`, task);
  }

  /**
   * Runs a write on report `id` unless one is in flight on it (then resolves undefined), its
   * items and panel busy meanwhile, so a quick second write cannot end the first one's busy
   * state or make it fail. `task` gets the service it writes to.
   */
  write<T>(id: ReportId, task: (serviceUrl: string | undefined) => Promise<T>): Promise<T | undefined> {
    // Another began meanwhile (while this one's confirmation was open, say): said, not silent.
    if (this.stillRunning(id)) return Promise.resolve(undefined);
    const serviceUrl = this.serviceUrl;
    return this.inFlight.run(this.#writeKey(id), async () => {
      this.setBusy(id, true, serviceUrl);
      try {
        return await task(serviceUrl);
      } catch (e) {
        // Deleted elsewhere: its panel (on the service the write went to) says so.
        if (isApiError(e, 'notFound')) this.parts.panels.showDeleted(id, serviceUrl);
        throw e;
      } finally {
        this.setBusy(id, false, serviceUrl);
      }
    });
  }
}

/**
 * A menu write's arguments, read once at the table: the clicked item, the view's selection
 * (VS Code passes both for a multi-select menu), and confirmation options (tests).
 */
export interface WriteArgs {
  readonly item: unknown;
  readonly selected: unknown;
  readonly confirm: ConfirmOptions | undefined;
}

/** Reads `(item?, selected?, options?)`: options may come third (menus) or second (the palette, tests). */
export function writeArgs(item?: unknown, selected?: unknown, options?: unknown): WriteArgs {
  return { item, selected, confirm: confirmOf(options, selected) };
}

/** The first of `args` that is an options object: Delete Project's `(item?, options?)` or `(item, selected, options)`. */
export function confirmOf(...args: unknown[]): ConfirmOptions | undefined {
  return args.find(isOptions);
}

/** The URLs (or ids) of the reports, one a line, at most ten, each one line of at most 200 characters, for a confirmation's detail. */
export function listForConfirmation(refs: readonly ReportRef[]): string {
  const lines = refs
    .slice(0, 10)
    .map((r) => (r.report ? truncate(singleLine(r.report.url), 200).text : l10n.t('Report {0}', idText(r.id))));
  if (refs.length > 10) lines.push(l10n.t('…and {0} more', refs.length - 10));
  return lines.join('\n');
}

/**
 * Network reasons (src/api/failures.ts, src/api/browser.ts) that mean the request never
 * reached the service: nothing resolved, connected or was trusted.
 */
const NEVER_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  CONNECT_TIMEOUT,
  'bad port',
  HTTP_BLOCKED,
]);

/**
 * Whether the service may have carried out a write that failed this way, so that sending it
 * again could do it twice: no answer in time, a connection that failed other than before
 * sending (certificate and name failures are before), a CORS failure (the browser may have
 * sent it), a gateway's 502 or 504 (the service behind it may have finished), or a 2xx whose
 * body could not be read.
 */
export function mayHaveActed(e: unknown): boolean {
  if (!isApiError(e)) return false;
  switch (e.kind) {
    case 'timeout':
    case 'cors':
      return true;
    case 'network': {
      const reason = e.reason ?? '';
      return !NEVER_SENT.has(reason) && !/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|TLS/.test(reason);
    }
    case 'server':
      return e.status === undefined || e.status === 502 || e.status === 504;
    case 'badResponse':
      return e.status !== undefined && e.status >= 200 && e.status < 300;
    default:
      return false;
  }
}

/** Sends a delete; a 404 means the target is gone already, which is the goal. */
export async function deletedOrGone(send: () => Promise<void>): Promise<'deleted' | 'gone'> {
  try {
    await send();
    return 'deleted';
  } catch (e) {
    if (isApiError(e, 'notFound')) return 'gone';
    throw e;
  }
}

/** The field messages of a 422, per field, or undefined for other errors. */
export function fieldErrors(e: unknown): ApiError | undefined {
  return isApiError(e, 'validation') ? e : undefined;
}
