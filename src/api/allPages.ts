/**
 * Loads every page of a list (up to a cap), for work that needs all reports of a query:
 * insights and Export List as CSV…. Imports no `vscode`.
 *
 * - Page 1 first: it says how many pages there are. Those pages then go at most
 *   {@link MAX_PAGES_IN_FLIGHT} at a time; from a service that announces no total (no page
 *   count), one page at a time, each after the one before.
 * - The items keep the list's order, each once: a report created or deleted meanwhile shifts
 *   the pages, so a report may come twice.
 * - Rate limits (the policy is `./rateLimit`): never more requests in flight than the
 *   service's `X-RateLimit-Remaining` allows. A 429 pauses the whole load once, for the wait
 *   it names; without a readable `Retry-After` or rate headers (a browser hides them) the
 *   load goes on one request at a time.
 * - Cancel aborts every request in flight. A failed page keeps the pages loaded: the same
 *   `AllPages` loaded again fetches only the gaps.
 */
import { ApiError, isApiError } from './errors';
import { cancelledWhileWaiting, longWorkWaitS, pause } from './rateLimit';
import type { Page, ReadOptions } from './types';

/**
 * Pages requested at once. Four turn a load's round trips from one per page into one per four
 * pages, while a burst stays small against a service's per-minute limit and its workers.
 */
export const MAX_PAGES_IN_FLIGHT = 4;

/** A load of every page: what it has so far. */
export interface AllPages<T> {
  /** The pages loaded, by number (1-based), as the service sent them. */
  readonly pages: Map<number, Page<T>>;
  /** The items of the pages loaded, in the list's order, each once, at most the cap. */
  items: T[];
  /** The number of items the service says the list holds (its latest `meta.total`), when it says. */
  total: number | undefined;
  /** Whether every item up to the cap is loaded. */
  done: boolean;
  /** Whether the cap stopped the load while the service had more. */
  capped: boolean;
  /** The last page this load means to fetch; grows one page at a time when the service announces no count. */
  end: number;
  /** Whether a page brought nothing new (a service that ignores `page` sends page 1 again): the load ends there. */
  stalled: boolean;
}

export function emptyAllPages<T>(): AllPages<T> {
  return { pages: new Map(), items: [], total: undefined, done: false, capped: false, end: 1, stalled: false };
}

export interface AllPagesOptions<T> {
  /** Fetches one page; the loader passes its own signal and asks to be given 429s (`rateLimitToCaller`). */
  fetchPage(page: number, signal: AbortSignal, options: ReadOptions): Promise<Page<T>>;
  /** What makes two items the same one (a report's id). */
  keyOf(item: T): string;
  /** Items per page the fetcher asks for. */
  perPage: number;
  /** Most items to keep (the first ones of the list). */
  limit: number;
  signal?: AbortSignal;
  /** Called after each page with the load so far. */
  onPage?: (load: AllPages<T>) => void;
  /** Called when the load pauses for a rate limit (seconds), and when it goes on (null). */
  onWait?: (seconds: number | null) => void;
  /** Looks at each page before it is kept; throws to end the load (a project deleted meanwhile). */
  checkPage?: (page: Page<T>, load: AllPages<T>) => void;
}

/**
 * Loads the pages `load` lacks, up to the cap, into `load` (mutated, so a caller keeps what
 * came before a failure). Rejects with the first page's error once the requests in flight have
 * settled, with `checkPage`'s error, or as `cancelled` when `signal` aborts.
 */
export async function loadAllPages<T>(load: AllPages<T>, options: AllPagesOptions<T>): Promise<AllPages<T>> {
  const run = new PageRun(load, options);
  return run.start();
}

/** One call of {@link loadAllPages}: its requests in flight, its rate-limit state. */
class PageRun<T> {
  readonly #controller = new AbortController();
  /** Pages in flight, and when each was sent. */
  readonly #inFlight = new Map<number, { sentAt: number; settled: Promise<void> }>();
  #failure: Error | undefined;
  #cancelled: ApiError | undefined;
  /** Requests the service's window still allows, as far as its last answer said (undefined: it did not say). */
  #budget: number | undefined;
  /** Whether the service's rate headers could be read at all. */
  #sawRateHeaders = false;
  /** After a 429 without readable headers: one request at a time. */
  #oneAtATime = false;
  /** When the last pause began: 429s of requests sent before it are the same burst. */
  #pauseStartedAt = -1;
  /** The pause a 429 began, while it lasts: settles when it ends or the load is cancelled. */
  #pauseOver: Promise<void> | undefined;
  /** Whether that pause has run its time. */
  #pauseEnded = false;
  /** Pauses since the last page that loaded. */
  #pauses = 0;

  constructor(
    private readonly load: AllPages<T>,
    private readonly options: AllPagesOptions<T>,
  ) {}

  async start(): Promise<AllPages<T>> {
    const { signal } = this.options;
    const abort = (): void => this.#controller.abort();
    if (signal?.aborted === true) abort();
    signal?.addEventListener('abort', abort, { once: true });
    try {
      return await this.#loop();
    } finally {
      signal?.removeEventListener('abort', abort);
    }
  }

  async #loop(): Promise<AllPages<T>> {
    const load = this.load;
    for (;;) {
      this.#launch();
      if (this.#inFlight.size > 0) {
        // Wakes when a page settles or a pause ends, whichever is first.
        const wake: Promise<unknown>[] = [...this.#inFlight.values()].map((request) => request.settled);
        if (this.#pauseOver) wake.push(this.#pauseOver);
        await Promise.race(wake);
        this.#resumeAfterPause();
        continue;
      }
      if (this.#controller.signal.aborted) {
        throw (
          this.#cancelled ??
          new ApiError({ kind: 'cancelled', host: '', method: 'GET', path: '' }, 'The load was cancelled.')
        );
      }
      if (this.#failure !== undefined) throw this.#failure;
      if (this.#pauseOver) {
        await this.#pauseOver;
        this.#resumeAfterPause();
        continue;
      }
      if (this.#nextPage() !== undefined) continue;
      if (!this.#extend()) {
        load.done = true;
        return load;
      }
    }
  }

  /** Sends pages while the limits allow: the gaps first, up to `end`. */
  #launch(): void {
    const max = this.#oneAtATime ? 1 : MAX_PAGES_IN_FLIGHT;
    while (this.#failure === undefined && !this.#controller.signal.aborted && this.#pauseOver === undefined) {
      if (this.#inFlight.size >= max) return;
      // With nothing in flight one request goes even on an empty budget: the window may have passed.
      if (this.#budget !== undefined && this.#budget <= 0 && this.#inFlight.size > 0) return;
      const page = this.#nextPage();
      if (page === undefined) return;
      if (this.#budget !== undefined) this.#budget -= 1;
      const sentAt = Date.now();
      this.#inFlight.set(page, { sentAt, settled: this.#fetch(page, sentAt) });
    }
  }

  /** The lowest page up to `end` neither loaded nor in flight. */
  #nextPage(): number | undefined {
    const { load } = this;
    if (load.stalled) return undefined;
    for (let page = 1; page <= load.end; page++) {
      if (!load.pages.has(page) && !this.#inFlight.has(page)) return page;
    }
    return undefined;
  }

  /** One page's request; never rejects (what went wrong is kept for the loop). */
  async #fetch(page: number, sentAt: number): Promise<void> {
    try {
      const answer = await this.options.fetchPage(page, this.#controller.signal, { rateLimitToCaller: true });
      this.options.checkPage?.(answer, this.load);
      this.#noteRate(answer);
      this.#accept(page, answer);
    } catch (error) {
      if (this.#controller.signal.aborted) {
        if (isApiError(error, 'cancelled')) this.#cancelled ??= error;
      } else if (isApiError(error, 'rateLimited')) {
        this.#rateLimited(error, sentAt);
      } else {
        this.#failure ??= error instanceof Error ? error : new Error(String(error));
      }
    } finally {
      this.#inFlight.delete(page);
    }
  }

  /** What the answer says of the service's window: the budget for the requests still to send. */
  #noteRate(answer: Page<T>): void {
    const remaining = answer.rateLimitRemaining;
    if (remaining === undefined) return;
    this.#sawRateHeaders = true;
    // The others in flight may not be counted in it yet.
    this.#budget = remaining - (this.#inFlight.size - 1);
  }

  /** A 429: the page goes again after one pause for the whole load, unless this burst already paused it. */
  #rateLimited(error: ApiError, sentAt: number): void {
    if (sentAt <= this.#pauseStartedAt || this.#pauseOver !== undefined) return;
    const seconds = longWorkWaitS(error, this.#pauses);
    if (seconds === undefined) {
      this.#failure ??= error;
      return;
    }
    this.#pauses += 1;
    if (error.retryAfter === undefined && !this.#sawRateHeaders) this.#oneAtATime = true;
    const now = Date.now();
    this.#pauseStartedAt = now;
    this.#pauseEnded = false;
    this.#pauseOver = pause(seconds * 1000, this.#controller.signal).then((ended) => {
      this.#pauseEnded = ended;
    });
    // A new window: what the last answer said of the old one no longer holds.
    this.#budget = undefined;
    this.#cancelled ??= cancelledWhileWaiting(error);
    this.options.onWait?.(seconds);
  }

  /** Ends the pause once its time has passed (not when the load was cancelled during it). */
  #resumeAfterPause(): void {
    if (this.#pauseOver === undefined || !this.#pauseEnded) return;
    this.#pauseOver = undefined;
    this.options.onWait?.(null);
  }

  /** Keeps a page, and plans the pages it announces. */
  #accept(page: number, answer: Page<T>): void {
    const { load, options } = this;
    this.#pauses = 0;
    if (page > 1 && answer.items.length > 0) {
      // Nothing new: a service that ignores `page` sends the same page again.
      const known = new Set(load.items.map((item) => options.keyOf(item)));
      if (answer.items.every((item) => known.has(options.keyOf(item)))) load.stalled = true;
    }
    load.pages.set(page, answer);
    load.total = answer.total ?? load.total;
    if (page === 1 && answer.lastPage !== undefined) {
      load.end = Math.max(load.end, Math.min(answer.lastPage, Math.ceil(options.limit / options.perPage)));
    }
    load.items = assemble(load, options);
    options.onPage?.(load);
  }

  /**
   * Every page up to `end` is in: plans more when the cap is not reached and the last page says
   * more follow (one page when the service announces no count, else the pages the cap still needs).
   */
  #extend(): boolean {
    const { load, options } = this;
    const last = load.pages.get(load.end);
    const more = last !== undefined && last.hasMore && last.items.length > 0 && !load.stalled;
    if (load.items.length >= options.limit) {
      load.capped = more || (load.total !== undefined && load.total > options.limit);
      return false;
    }
    if (!more) return false;
    // Pages that shifted may have brought fewer new items than a page holds: the cap needs more.
    const needed = last.lastPage === undefined ? 1 : Math.ceil((options.limit - load.items.length) / options.perPage);
    const lastPage = last.lastPage !== undefined && last.lastPage > load.end ? last.lastPage : load.end + 1;
    load.end = Math.min(lastPage, load.end + needed);
    return true;
  }
}

/** The items of the loaded pages in page order, each once, at most the cap. */
function assemble<T>(load: AllPages<T>, options: AllPagesOptions<T>): T[] {
  const seen = new Set<string>();
  const items: T[] = [];
  const numbers = [...load.pages.keys()].sort((a, b) => a - b);
  for (const number of numbers) {
    for (const item of load.pages.get(number)!.items) {
      const key = options.keyOf(item);
      if (seen.has(key)) continue;
      seen.add(key);
      items.push(item);
      if (items.length >= options.limit) return items;
    }
  }
  return items;
}
