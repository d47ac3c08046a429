/**
 * Work the page puts off until just after its first paint of a report (the rows below the fold,
 * the raw view), so that paint lays out a screenful. Later draws build everything at once, so
 * the scroll position and focus they restore are there.
 */

/** Check rows built with the first paint: about a screenful under the header. */
export const FIRST_PAINT_ROWS = 24;

let deferring = false;
let rowsLeft = 0;
let tasks: (() => void)[] = [];
let timer: ReturnType<typeof setTimeout> | undefined;

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

/** Called once the draw has been handed to the browser: runs the put-off work in the next task. */
export function endDraw(): void {
  deferring = false;
  if (tasks.length === 0) return;
  timer = setTimeout(() => {
    timer = undefined;
    const run = tasks;
    tasks = [];
    for (const task of run) task();
  }, 0);
}

/** Drops put-off work of a draw that a newer one replaces. */
function cancel(): void {
  if (timer !== undefined) clearTimeout(timer);
  timer = undefined;
  tasks = [];
}
