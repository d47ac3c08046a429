/**
 * Summaries of repeated measurements: the median as the figure, min–max and the
 * interquartile range as its spread. Medians, because a benchmark on a shared 2-core machine
 * has outliers (a GC pause, another process) that would drag a mean.
 */

/** A summary of one figure's samples. */
export interface Summary {
  n: number;
  median: number;
  min: number;
  max: number;
  /** First and third quartiles (linear interpolation between closest ranks). */
  q1: number;
  q3: number;
}

/** The q-quantile (0..1) of sorted values, interpolated linearly between closest ranks. */
function quantile(sorted: readonly number[], q: number): number {
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo);
}

/** Summarizes samples; throws on an empty list (a figure without samples is a bug of the bench). */
export function summarize(samples: readonly number[]): Summary {
  if (samples.length === 0) throw new Error('no samples to summarize');
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    n: sorted.length,
    median: quantile(sorted, 0.5),
    min: sorted[0],
    max: sorted[sorted.length - 1],
    q1: quantile(sorted, 0.25),
    q3: quantile(sorted, 0.75),
  };
}

/** The median of samples. */
export function median(samples: readonly number[]): number {
  return summarize(samples).median;
}

/** Milliseconds since an arbitrary origin, sub-millisecond. */
export function now(): number {
  return performance.now();
}

/** Runs `fn` and resolves with how long it took, in milliseconds. */
export async function timed(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}
