/**
 * Laravel's `throttle` in a fixed window per key: `limit` requests per `windowMs`, then
 * 429 with `Retry-After` until the window ends. Headers come on every API answer.
 */

interface Bucket {
  start: number;
  count: number;
}

export interface RateDecision {
  allowed: boolean;
  /** Headers to add to the answer (none when rate limiting is off). */
  headers: Record<string, string>;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  /** `limit` 0 turns limiting off. */
  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Counts one request of `bucket` unless it is over the limit. */
  hit(bucket: string, now = Date.now()): RateDecision {
    if (this.limit <= 0) return { allowed: true, headers: {} };
    let state = this.buckets.get(bucket);
    if (!state || now - state.start >= this.windowMs) {
      state = { start: now, count: 0 };
      this.buckets.set(bucket, state);
    }
    if (state.count >= this.limit) {
      const resetAt = state.start + this.windowMs;
      return {
        allowed: false,
        headers: {
          'X-RateLimit-Limit': String(this.limit),
          'X-RateLimit-Remaining': '0',
          'Retry-After': String(Math.max(1, Math.ceil((resetAt - now) / 1000))),
          'X-RateLimit-Reset': String(Math.ceil(resetAt / 1000)),
        },
      };
    }
    state.count++;
    return {
      allowed: true,
      headers: { 'X-RateLimit-Limit': String(this.limit), 'X-RateLimit-Remaining': String(this.limit - state.count) },
    };
  }

  clear(): void {
    this.buckets.clear();
  }
}
