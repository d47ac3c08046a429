/**
 * Runs one write over several selected reports: progress with cancellation between items
 * (a write already sent is never abandoned half-way), then one summary. A switch of service
 * stops it too: the rest would go to a service the user has left; and so does removing the
 * key: the rest would go without one.
 */
import * as vscode from 'vscode';
import * as l10n from '@vscode/l10n';
import { isApiError, KEY_REMOVED, KEY_REPLACED, SERVICE_CHANGED } from '../api/errors';
import { waitingOutRateLimits } from '../api/rateLimitWaits';
import type { ReportId } from '../api/types';
import type { Parts } from '../parts';
import type { ReportRef } from '../common/commandArgs';
import { refName } from './refs';
import { escapeForMessage } from '../common/text';
import { cancellableProgress, describe, flash, offer } from '../ui/notify';

export interface BatchOutcome {
  readonly succeeded: ReportId[];
  readonly failed: { id: ReportId; message: string; name?: string }[];
  /** Not started: cancelled, stopped after the service rejected the key, the service changed or its key was removed. */
  readonly skipped: ReportId[];
  /** The user switched service while it ran: the items after that were not started. */
  readonly serviceChanged?: boolean;
  /** The user removed the service's API key while it ran: the items after that were not started. */
  readonly keyRemoved?: boolean;
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
  /** Does the write for one report; throws on failure. */
  run: (ref: ReportRef) => Promise<void>;
}

/** Runs the items one after another. Never throws: failures end up in the outcome. */
export async function runBatch(parts: Parts, options: BatchOptions): Promise<BatchOutcome> {
  const succeeded: ReportId[] = [];
  const failed: { id: ReportId; message: string; name?: string }[] = [];
  const skipped: ReportId[] = [];
  const serviceUrl = parts.connection.serviceUrl;
  // SERVICE_CHANGED or KEY_REMOVED, once the connection refused to send (errors.ts, serviceChangedError).
  let stoppedBy: string | undefined;
  let cancelled = false;
  // Cancel stops a wait for a rate limit (`cancelWaits`); a write already sent is never abandoned.
  await cancellableProgress(options.title, async (progress, cancelWaits, token) => {
    const total = options.refs.length;
    for (const [index, ref] of options.refs.entries()) {
      if (parts.connection.serviceUrl !== serviceUrl) stoppedBy ??= SERVICE_CHANGED;
      if (token.isCancellationRequested || stoppedBy !== undefined) {
        cancelled ||= token.isCancellationRequested;
        skipped.push(ref.id);
        continue;
      }
      // The page only: the bar shows how far it is, and a count here would be stale by the time the summary shows.
      const step = refName(ref);
      progress.report({ message: step, increment: index === 0 ? 0 : 100 / total });
      try {
        await waitingOutRateLimits(() => options.run(ref), {
          signal: cancelWaits,
          onWait: (seconds) => {
            parts.log.info(`${options.action} ${ref.id}: the service is rate limiting; trying again in ${seconds} s.`);
            progress.report({ message: l10n.t('{0} (rate limited: waiting {1} s)', step, seconds) });
          },
          onResume: () => progress.report({ message: step }),
        });
        succeeded.push(ref.id);
      } catch (e) {
        // Cancelled while waiting out a rate limit (refused, not done), or not sent at all
        // (the client of a service the user has left, or whose key they removed, refuses to send).
        if (isApiError(e, 'cancelled')) {
          if (e.reason === SERVICE_CHANGED || e.reason === KEY_REMOVED) stoppedBy = e.reason;
          else cancelled = true;
          skipped.push(ref.id);
          continue;
        }
        // Deleted elsewhere: the summary says so, and the lists drop its row.
        if (isApiError(e, 'notFound')) parts.errors.gone({ reportId: ref.id });
        const message = e instanceof StillBeingChanged ? e.message : describe(e, { reportId: ref.id }).message;
        parts.log.warn(`${options.action} ${ref.id} failed: ${message.replace(/\s+/g, ' ')}`);
        failed.push({ id: ref.id, message, name: refName(ref) });
        const refused = isApiError(e) && (e.kind === 'unauthorized' || e.kind === 'forbidden');
        // Every other item would fail the same way: say it once, stop here. Not when the key
        // refused was one the user has replaced since: the next item goes with the new key.
        if (refused && e.reason !== KEY_REPLACED) {
          parts.errors.report(e);
          for (const rest of options.refs.slice(index + 1)) skipped.push(rest.id);
          break;
        }
      }
    }
  });
  if (stoppedBy !== undefined) parts.log.info(`${options.action}: ${stoppedBy}; ${skipped.length} not started.`);
  return {
    succeeded,
    failed,
    skipped,
    ...(stoppedBy === SERVICE_CHANGED ? { serviceChanged: true } : {}),
    ...(stoppedBy === KEY_REMOVED ? { keyRemoved: true } : {}),
    ...(cancelled ? { cancelled } : {}),
  };
}

/**
 * What happened to every item. When all went as asked (a cancel included), the status bar
 * says so: the views show the rest. When something failed or the service or key went away
 * meanwhile, a warning names the pages, with Show Log. Not awaited by callers.
 */
export function showBatchSummary(parts: Parts, outcome: BatchOutcome, done: (count: number) => string): void {
  const { succeeded, failed, skipped } = outcome;
  const wentWrong = failed.length > 0 || outcome.serviceChanged === true || outcome.keyRemoved === true;
  if (!wentWrong) {
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
  if (outcome.serviceChanged === true) pieces.push(l10n.t('The service changed while this ran.'));
  if (outcome.keyRemoved === true) pieces.push(l10n.t('The API key was removed while this ran.'));
  offer(vscode.window.showWarningMessage, pieces.join(' '), l10n.t('Show Log'), () => parts.log.show());
}
