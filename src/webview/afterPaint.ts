/**
 * Work the page puts off until just after its first paint of a report: the check rows below
 * the fold and the raw view. The first paint then lays out a screenful, not every check (a
 * report with 60 checks is a 60-row table and its whole JSON); the rest follows in the task
 * after that paint, before the user can scroll to it (the page says when that is: `endDraw`). Only the page's first draw of a report defers:
 * later draws (busy, refreshed data) build everything at once so the scroll position and the
 * focus they restore are there.
 */

/** Check rows built with the first paint: about a screenful under the header. */
export const FIRST_PAINT_ROWS = 24;

let deferring = false;
let rowsLeft = 0;
let tasks: (() => void)[] = [];
/** The put-off work of the last draw, until it runs; a newer draw drops it. */
let pending: (() => void)[] | undefined;

/** Starts a draw: `defer` says whether this draw may put work off (the first draw of a report). */
export function beginDraw(defer: boolean): void {
  cancel();
  deferring = defer;
  rowsLeft = FIRST_PAINT_ROWS;
}

/** Whether one more check row belongs to the first paint (else it goes to {@link later}). */
export function takeRow(): boolean {
  if (!deferring) return true;
  if (rowsLeft <= 0) return false;
  rowsLeft--;
  return true;
}

/** Runs `task` now, or right after the first paint when this draw defers. */
export function later(task: () => void): void {
  if (deferring) tasks.push(task);
  else task();
}

/** Whether this draw puts work off until after its paint. */
export function isDeferring(): boolean {
  return deferring;
}

/**
 * Called once the draw has been handed to the browser, with the page's way to run something
 * after the next paint: runs the put-off work then (unless a newer draw replaced it).
 */
export function endDraw(afterNextPaint: (run: () => void) => void): void {
  deferring = false;
  if (tasks.length === 0) return;
  const batch = tasks;
  tasks = [];
  pending = batch;
  afterNextPaint(() => {
    if (pending !== batch) return;
    pending = undefined;
    for (const task of batch) task();
  });
}

/** Drops put-off work of a draw that a newer one replaces. */
function cancel(): void {
  pending = undefined;
  tasks = [];
}
