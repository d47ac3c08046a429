/**
 * Runs one write over several selected reports, a few at a time: progress with cancellation
 * (a write already sent is never abandoned half-way), then one summary. A change of service or
 * of its key, whatever its reason (Switch Service…, Set API Key…, Sign Out, another window),
 * stops what has not started: the rest would go to a service the user has left, without a key,
 * or with another account's key, whose 404s would read as "deleted" while the reports stay.
 */
import * as vscode from 'vscode';
import * as l10n from '@vscode/l10n';
import {
  isApiError,
  KEY_CHANGED,
  KEY_REMOVED,
  KEY_REPLACED,
  SERVICE_CHANGED,
  serviceChangedError,
} from '../api/errors';
import { waitingOutRateLimits } from '../api/rateLimit';
import { wrapEachCall } from '../api/client';
import type { ReportId, ReportsApi } from '../api/types';
import type { Parts } from '../parts';
import { TestHook } from '../ids';
import type { ReportRef } from '../ui/commandArgs';
import { refName } from './refs';
import { escapeForMessage } from '../text/text';
import { cancellableProgress, describe, flash } from '../ui/notify';

/**
 * Items in flight at once. A write waits for the service (a re-analysis fetches a web page,
 * seconds), so one at a time leaves it idle; three keep it busy without crowding a rate limit
 * of 60 requests a minute, and a cancel leaves at most three writes to finish.
 */
export const BATCH_CONCURRENCY = 3;

/** Why a batch stopped before its end, other than a cancel. */
export type BatchStop = 'serviceChanged' | 'keyChanged' | 'keyRemoved';

export interface BatchOutcome {
  readonly succeeded: ReportId[];
  readonly failed: { id: ReportId; message: string; name?: string }[];
  /** Not started: cancelled, stopped after the service rejected the key, the service or its key changed. */
  readonly skipped: ReportId[];
  /** The service or its key changed while it ran: the items after that were not started. */
  readonly stoppedBy?: BatchStop;
  /** The user cancelled it: the items after that were not started. */
  readonly cancelled?: boolean;
}

/** Thrown by an item's write that another write on the same report holds: nothing was sent. */
export class StillBeingChanged extends Error {
  constructor() {
    super(l10n.t('Still being changed by another command.'));
  }
}

export interface BatchOptions {
  /** Progress title, e.g. "Deleting 3 reports". */
  title: string;
  refs: readonly ReportRef[];
  /** Log label of one item, e.g. "Delete report". */
  action: string;
  /** The client the items use; the batch hands `run` one that refuses to send once it stops. */
  api: ReportsApi;
  /** Does the write for one report with `api`; throws on failure. */
  run: (ref: ReportRef, api: ReportsApi) => Promise<void>;
}

/** What became of one item. */
type ItemResult = { kind: 'succeeded' } | { kind: 'failed'; message: string } | { kind: 'skipped' };

/**
 * Runs the items, at most {@link BATCH_CONCURRENCY} at once, in order of starting. Never throws:
 * failures end up in the outcome, in the order of the items.
 */
export async function runBatch(parts: Parts, options: BatchOptions): Promise<BatchOutcome> {
  const { refs } = options;
  const serviceUrl = parts.connection.serviceUrl;
  const results: (ItemResult | undefined)[] = refs.map(() => undefined);
  let stoppedBy: BatchStop | undefined;
  // The service refused the key (401) or what it may do (403): every other item would fail the same way.
  let refused = false;
  let cancelled = false;
  // Any change of the service or its key, in this window or another, stops the rest.
  const watch = parts.connection.onDidChange(() => {
    stoppedBy ??= stopReason(parts, serviceUrl);
  });
  // An item under way asks nothing more once the batch stopped (a re-analysis reads, then writes).
  const api = guardedApi(options.api, () => stoppedBy, serviceUrl);
  try {
    // Cancel stops a wait for a rate limit and starts nothing more; a write already sent is never abandoned.
    await cancellableProgress(options.title, async (progress, cancelWaits) => {
      // Aborted by Cancel: stops a wait, and no item starts after it.
      const cancel = testCancel(parts, cancelWaits);
      const total = refs.length;
      let next = 0;
      const runItem = async (ref: ReportRef): Promise<ItemResult> => {
        // The page only: the bar shows how far it is, and a count here would be stale by the time the summary shows.
        const step = refName(ref);
        progress.report({ message: step });
        try {
          await waitingOutRateLimits(() => options.run(ref, api), {
            signal: cancel,
            onWait: (seconds) => {
              parts.log.info(
                `${options.action} ${ref.id}: the service is rate limiting; trying again in ${seconds} s.`,
              );
              progress.report({ message: l10n.t('{0} (rate limited: waiting {1} s)', step, seconds) });
            },
            onResume: () => progress.report({ message: step }),
          });
          return { kind: 'succeeded' };
        } catch (e) {
          // Cancelled while waiting out a rate limit (refused, not done), or not sent at all
          // (the batch stopped, or the client of a service the user has left refuses to send).
          if (isApiError(e, 'cancelled')) {
            if (e.reason === SERVICE_CHANGED) stoppedBy ??= 'serviceChanged';
            else if (e.reason === KEY_REMOVED) stoppedBy ??= 'keyRemoved';
            else if (e.reason !== KEY_CHANGED) cancelled = true;
            return { kind: 'skipped' };
          }
          // Refused with the key the user has replaced since: nothing was done; it goes with
          // the rest, which the summary offers to run again.
          if (isApiError(e, 'unauthorized') && e.reason === KEY_REPLACED) {
            stoppedBy ??= 'keyChanged';
            return { kind: 'skipped' };
          }
          // Deleted elsewhere: the summary says so, and the lists drop its row.
          if (isApiError(e, 'notFound')) parts.errors.gone({ reportId: ref.id });
          const message = e instanceof StillBeingChanged ? e.message : describe(e, { reportId: ref.id }).message;
          parts.log.warn(`${options.action} ${ref.id} failed: ${message.replace(/\s+/g, ' ')}`);
          // Every other item would fail the same way: say it once, start no more.
          if (isApiError(e) && (e.kind === 'unauthorized' || e.kind === 'forbidden') && !refused) {
            refused = true;
            parts.errors.report(e);
          }
          return { kind: 'failed', message };
        } finally {
          progress.report({ increment: 100 / total });
        }
      };
      const worker = async (): Promise<void> => {
        for (;;) {
          if (parts.connection.serviceUrl !== serviceUrl) stoppedBy ??= 'serviceChanged';
          cancelled ||= cancel.aborted;
          if (cancelled || refused || stoppedBy !== undefined || next >= total) return;
          const index = next++;
          const ref = refs[index];
          if (ref !== undefined) results[index] = await runItem(ref);
        }
      };
      await Promise.all(Array.from({ length: Math.min(BATCH_CONCURRENCY, total) }, worker));
    });
  } finally {
    watch.dispose();
  }
  const succeeded: ReportId[] = [];
  const failed: { id: ReportId; message: string; name?: string }[] = [];
  const skipped: ReportId[] = [];
  refs.forEach((ref, index) => {
    const result = results[index] ?? { kind: 'skipped' };
    if (result.kind === 'succeeded') succeeded.push(ref.id);
    else if (result.kind === 'failed') failed.push({ id: ref.id, message: result.message, name: refName(ref) });
    else skipped.push(ref.id);
  });
  if (stoppedBy !== undefined)
    parts.log.info(`${options.action}: stopped (${stoppedBy}); ${skipped.length} not started.`);
  return {
    succeeded,
    failed,
    skipped,
    ...(stoppedBy !== undefined ? { stoppedBy } : {}),
    ...(cancelled ? { cancelled } : {}),
  };
}

/**
 * `signal`, aborted also by the integration tests' Cancel (`TestHook.batch`, in test mode only):
 * the progress notification's own button is out of their reach.
 */
function testCancel(parts: Parts, signal: AbortSignal): AbortSignal {
  if (parts.context.extensionMode !== vscode.ExtensionMode.Test) return signal;
  const controller = new AbortController();
  const hook = globalThis as Record<symbol, unknown>;
  hook[TestHook.batch] = { cancel: () => controller.abort() };
  signal.addEventListener('abort', () => controller.abort(), { once: true });
  return controller.signal;
}

/** Why the connection's change stops a batch that began on `serviceUrl`. */
function stopReason(parts: Parts, serviceUrl: string | undefined): BatchStop {
  if (parts.connection.serviceUrl !== serviceUrl) return 'serviceChanged';
  return parts.connection.state === 'noKey' ? 'keyRemoved' : 'keyChanged';
}

/** `api` refusing every call once `stopped()` names a reason: as `cancelled`, nothing sent. */
function guardedApi(api: ReportsApi, stopped: () => BatchStop | undefined, serviceUrl: string | undefined): ReportsApi {
  const reasons: Record<BatchStop, string> = {
    serviceChanged: SERVICE_CHANGED,
    keyChanged: KEY_CHANGED,
    keyRemoved: KEY_REMOVED,
  };
  const guard =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> => {
      const stop = stopped();
      if (stop !== undefined && serviceUrl !== undefined)
        return Promise.reject(serviceChangedError(serviceUrl, reasons[stop]));
      return call(...args);
    };
  return wrapEachCall(api, guard);
}

/**
 * The arguments that run a command on the items `rest` of `refs` again, as a selection (the
 * reports where known, so a confirmation can name their pages).
 */
export function restArgs(refs: readonly ReportRef[], rest: readonly ReportId[]): [unknown, unknown[]] {
  const items = refs.filter((ref) => rest.includes(ref.id)).map((ref) => ref.report ?? { id: ref.id });
  return [items[0], items];
}

export interface BatchSummaryOptions {
  /**
   * After a change of service or key stopped the batch: runs the command again on the items
   * not started (it asks again, as it did first). Offered only with the same service current.
   */
  runRestAgain?: (rest: ReportId[]) => unknown;
}

/**
 * One message saying what happened to every item; a warning with Show Log when something
 * failed or was skipped, and Run the Rest Again when a change of key stopped it. Not awaited by callers.
 */
export function showBatchSummary(
  parts: Parts,
  outcome: BatchOutcome,
  done: (count: number) => string,
  options: BatchSummaryOptions = {},
): void {
  const { succeeded, failed, skipped } = outcome;
  // All went as asked (a cancel included): the views show it, the status bar says so.
  if (failed.length === 0 && outcome.stoppedBy === undefined) {
    const notStarted = skipped.length === 0 ? [] : [l10n.t('{0} not started.', skipped.length)];
    flash([done(succeeded.length), ...notStarted].join(' '));
    return;
  }
  const pieces = [done(succeeded.length)];
  if (failed.length > 0) {
    const first = failed[0];
    const list = failed.map((f) => f.name ?? l10n.t('report {0}', escapeForMessage(String(f.id)))).join(', ');
    pieces.push(l10n.t('Failed: {0} ({1})', list, first ? escapeForMessage(first.message) : ''));
  }
  if (skipped.length > 0) pieces.push(l10n.t('{0} not started.', skipped.length));
  if (outcome.stoppedBy === 'serviceChanged') pieces.push(l10n.t('The service changed while this ran.'));
  if (outcome.stoppedBy === 'keyRemoved') pieces.push(l10n.t('The API key was removed while this ran.'));
  if (outcome.stoppedBy === 'keyChanged') pieces.push(l10n.t('The API key changed while this ran.'));
  const showLog = l10n.t('Show Log');
  const runAgain = l10n.t('Run the Rest Again');
  // After a switch of service the same ids name other reports there: not offered.
  const again =
    options.runRestAgain !== undefined &&
    skipped.length > 0 &&
    (outcome.stoppedBy === 'keyChanged' || outcome.stoppedBy === 'keyRemoved');
  const buttons = again ? [runAgain, showLog] : [showLog];
  vscode.window.showWarningMessage(pieces.join(' '), ...buttons).then(
    (choice) => {
      if (choice === showLog) parts.log.show();
      else if (choice === runAgain) options.runRestAgain?.(skipped);
    },
    () => undefined,
  );
}
