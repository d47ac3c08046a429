/**
 * A list loaded a page at a time from the service, shared by both views (product spec,
 * "Lists that are long"). Imports no `vscode`. The rules it keeps:
 *
 * - One request at a time per list. A refresh while a refresh is in flight waits for it and
 *   then runs once more (several such refreshes share that one follow-up), so the list
 *   never shows an answer older than the last refresh asked for, and requests never race.
 *   A Load more joins a Load more in flight and follows a reload; a reload that keeps the
 *   pages (after a write) takes a Load more in flight into the pages it loads.
 * - A new query (`load`) or `reset` aborts the request in flight (AbortController) and bumps
 *   a generation counter; an answer from an older generation is dropped, so a stale answer
 *   never overwrites a newer one.
 * - A failure keeps the items loaded so far and records which step failed, so `retry` runs
 *   that step again (a reload with as many pages, a Load more it took over included).
 * - Items are keyed (report id): a refresh or an overlapping page replaces an item in place
 *   instead of duplicating it, so tree ids, selection and expansion stay stable.
 *
 * Every promise it returns resolves (never rejects): failures become the list's `error`.
 */
import type { Page, ReportId } from '../api/types';

/** The key of a report in lists and tree maps: its id as text (ids are kept as the server sent them). */
export function reportKey(report: { id: ReportId }): string {
  return String(report.id);
}

/** Fetches one 1-based page; must honour the signal. */
export type FetchPage<T> = (page: number, signal: AbortSignal) => Promise<Page<T>>;

/**
 * - `idle`: nothing loaded for the current query (nothing requested yet, or reset).
 * - `loading`: page 1 in flight (first load, new query or refresh; a refresh keeps the old items).
 * - `loadingMore`: the next page in flight.
 * - `loaded`: the last request succeeded.
 * - `error`: the last request failed; `items` keeps what was loaded before.
 */
export type ListStatus = 'idle' | 'loading' | 'loadingMore' | 'loaded' | 'error';

interface InFlight {
  readonly kind: 'reload' | 'more';
  readonly controller: AbortController;
  readonly promise: Promise<void>;
}

interface QueuedRefresh {
  readonly promise: Promise<void>;
  cancelled: boolean;
  /** Whether it keeps the pages: only if every caller that shares it asked to (a user's Refresh goes back to page 1). */
  keepPages: boolean;
}

export interface Disposable {
  dispose(): void;
}

/** What a view needs of any list, whatever its item type. */
export interface ListHandle {
  readonly status: ListStatus;
  readonly error: unknown;
  /** A reload failed while the items of the last load stay (not a Load more that failed). */
  readonly refreshFailed: boolean;
  loadMore(): Promise<void>;
  retry(): Promise<void>;
}

/** The most pages a refresh loads again: past that, a list nobody scrolls would eat the rate limit. */
export const MAX_REFRESHED_PAGES = 5;

export class PagedList<T> implements Disposable, ListHandle {
  #fetcher: FetchPage<T> | undefined;
  #generation = 0;
  /** Counts the queries: `load` and `reset` start another. */
  #query = 0;
  #inFlight: InFlight | undefined;
  #queuedRefresh: QueuedRefresh | undefined;
  readonly #list: T[] = [];
  /** Key → index in `list`, for in-place replacement and de-duplication in O(1). */
  readonly #index = new Map<string, number>();
  #totalCount: number | undefined;
  #more = false;
  #nextPage = 1;
  #lastError: unknown;
  /** The step `retry` runs again; a reload that kept the pages keeps them again. */
  #failedStep: 'reload' | 'reloadKept' | 'more' | undefined;
  /** The pages the failed reload was loading: with a Load more it took over, one more than were loaded. */
  #failedPages = 1;
  #currentStatus: ListStatus = 'idle';
  readonly #listeners = new Set<() => void>();
  #disposed = false;

  /** @param keyOf a stable identity for an item (a report's id as a string). */
  constructor(private readonly keyOf: (item: T) => string) {}

  /** The items loaded so far, in server order. Do not mutate. */
  get items(): readonly T[] {
    return this.#list;
  }

  /** The server's total for the current query, when it sent one. */
  get total(): number | undefined {
    return this.#totalCount;
  }

  /** Whether the server has a next page (and the list is not empty-paged). */
  get hasMore(): boolean {
    return this.#more;
  }

  get status(): ListStatus {
    return this.#currentStatus;
  }

  /** The last failure, while `status` is `error`. */
  get error(): unknown {
    return this.#lastError;
  }

  /** Calls `listener` after every change of items or status. */
  onDidChange(listener: () => void): Disposable {
    this.#listeners.add(listener);
    return { dispose: () => this.#listeners.delete(listener) };
  }

  /**
   * Starts the list over for a new query: aborts what is in flight, clears the items and
   * fetches page 1. Resolves when that page is in (or the load was superseded).
   */
  load(fetchPage: FetchPage<T>): Promise<void> {
    this.#startOver(fetchPage);
    return this.#start('reload');
  }

  /**
   * Drops everything and goes back to `idle` without fetching; `ensureLoaded` fetches later
   * (lazy loading: the view asks when it becomes visible). A given `fetchPage` replaces the query.
   */
  reset(fetchPage?: FetchPage<T>): void {
    this.#startOver(fetchPage);
    this.#currentStatus = 'idle';
    this.#fire();
  }

  /** Loads page 1 if nothing is loaded yet; otherwise waits for what is in flight. */
  ensureLoaded(): Promise<void> {
    if (this.#inFlight) return this.#inFlight.promise;
    if (this.#currentStatus === 'idle' && this.#fetcher) return this.#start('reload');
    return Promise.resolve();
  }

  /**
   * Reloads page 1 of the same query, or with `keepPages` the pages loaded so far (after a
   * write); the old items stay until the answer replaces them. A refresh in flight is followed
   * by exactly one more, shared, as it may predate the change the caller wants to see.
   */
  refresh(keepPages = false): Promise<void> {
    if (!this.#fetcher) return Promise.resolve();
    const current = this.#inFlight;
    if (current?.kind === 'reload') {
      if (this.#queuedRefresh) {
        this.#queuedRefresh.keepPages &&= keepPages;
        return this.#queuedRefresh.promise;
      }
      const queued: QueuedRefresh = {
        cancelled: false,
        keepPages,
        promise: current.promise.then(() => {
          if (this.#queuedRefresh === queued) this.#queuedRefresh = undefined;
          // A new query started meanwhile: it fetches fresh data already; wait for it instead.
          if (queued.cancelled || this.#disposed) return this.#inFlight?.promise;
          return this.refresh(queued.keepPages);
        }),
      };
      this.#queuedRefresh = queued;
      return queued.promise;
    }
    const pages = keepPages ? Math.min(MAX_REFRESHED_PAGES, this.#loadedPages() + (current ? 1 : 0)) : 1;
    if (current) this.#abortInFlight();
    return this.#start('reload', pages);
  }

  /**
   * Auto-refresh: loads every page loaded so far again and swaps them in at once, so the rows
   * the user paged to stay. Does nothing while a request is in flight: the next tick asks again.
   */
  refreshLoaded(): Promise<void> {
    const settled = this.#currentStatus === 'loaded' || this.#currentStatus === 'error';
    if (!this.#fetcher || this.#inFlight || !settled) return Promise.resolve();
    // A failed reload that took in a Load more: as many pages as it was loading, as Retry would.
    const pages = this.#failedStep === 'reloadKept' ? this.#failedPages : this.#loadedPages();
    return this.#start('reload', pages);
  }

  #loadedPages(): number {
    return Math.min(MAX_REFRESHED_PAGES, Math.max(1, this.#nextPage - 1));
  }

  /**
   * Fetches the next page and appends it. Joins a Load more in flight; during a reload of the
   * same query it follows the reload, so the click is not lost.
   */
  loadMore(): Promise<void> {
    const current = this.#inFlight;
    const query = this.#query;
    // Another reload may follow this one (a refresh queued on it): the click follows that too,
    // but not into another query (a filter chosen meanwhile starts at its page 1).
    if (current?.kind === 'reload')
      return current.promise.then(() =>
        query === this.#query && (this.#currentStatus === 'loaded' || this.#inFlight?.kind === 'reload')
          ? this.loadMore()
          : undefined,
      );
    if (current) return current.promise;
    if (!this.#fetcher || !this.#more) return Promise.resolve();
    return this.#start('more');
  }

  get refreshFailed(): boolean {
    return this.#currentStatus === 'error' && this.#failedStep !== 'more' && this.#list.length > 0;
  }

  /** Runs the step that failed again (the reload, with the pages it was loading, or the next page). */
  retry(): Promise<void> {
    if (this.#failedStep === 'more') return this.loadMore();
    if (this.#failedStep === 'reloadKept' && !this.#inFlight) return this.#start('reload', this.#failedPages);
    return this.refresh(this.#failedStep === 'reloadKept');
  }

  /**
   * Replaces a loaded item with the same key in place (after a re-analysis). Returns whether
   * it was loaded. Does not notify: the caller updates just that item in its view.
   */
  replace(item: T): boolean {
    const at = this.#index.get(this.keyOf(item));
    if (at === undefined) return false;
    this.#list[at] = item;
    return true;
  }

  /**
   * Drops a loaded item at once (a deleted report), so it leaves the view even when the
   * refresh after the delete fails. Returns whether it was loaded; notifies when it was.
   */
  remove(key: string): boolean {
    const at = this.#index.get(key);
    if (at === undefined) return false;
    this.#list.splice(at, 1);
    this.#index.clear();
    this.#list.forEach((item, i) => this.#index.set(this.keyOf(item), i));
    if (this.#totalCount !== undefined) this.#totalCount = Math.max(0, this.#totalCount - 1);
    this.#fire();
    return true;
  }

  /** The loaded item with this key, if any. */
  get(key: string): T | undefined {
    const at = this.#index.get(key);
    return at === undefined ? undefined : this.#list[at];
  }

  dispose(): void {
    this.#disposed = true;
    this.#abortInFlight();
    this.#listeners.clear();
  }

  // ---- internals ----

  /** Another query (`fetchPage`, when given): what is in flight is dropped and the items cleared. */
  #startOver(fetchPage: FetchPage<T> | undefined): void {
    if (fetchPage) this.#fetcher = fetchPage;
    this.#query++;
    this.#abortInFlight();
    this.#list.length = 0;
    this.#index.clear();
    this.#totalCount = undefined;
    this.#more = false;
    this.#nextPage = 1;
    this.#lastError = undefined;
    this.#failedStep = undefined;
  }

  /** Aborts the request in flight and makes any answer still on its way stale. */
  #abortInFlight(): void {
    this.#generation++;
    if (this.#queuedRefresh) {
      this.#queuedRefresh.cancelled = true;
      this.#queuedRefresh = undefined;
    }
    const current = this.#inFlight;
    this.#inFlight = undefined;
    current?.controller.abort();
  }

  /** Starts loading `pages` pages (a reload from page 1, or the next page). */
  #start(kind: 'reload' | 'more', pages = 1): Promise<void> {
    const fetcher = this.#fetcher;
    if (!fetcher || this.#disposed) return Promise.resolve();
    const generation = ++this.#generation;
    const controller = new AbortController();
    const page = kind === 'reload' ? 1 : this.#nextPage;
    this.#currentStatus = kind === 'reload' ? 'loading' : 'loadingMore';
    const promise = this.#run(fetcher, page, pages, kind, generation, controller.signal);
    this.#inFlight = { kind, controller, promise };
    this.#fire();
    return promise;
  }

  /** Fetches `pages` pages from `firstPage` one after another, then shows them at once. */
  async #run(
    fetcher: FetchPage<T>,
    firstPage: number,
    pages: number,
    kind: 'reload' | 'more',
    generation: number,
    signal: AbortSignal,
  ): Promise<void> {
    // Let `start` record the request before any answer can arrive (a fetcher may be synchronous).
    await Promise.resolve();
    const answers: Page<T>[] = [];
    try {
      if (generation !== this.#generation) return;
      for (let page = firstPage; page < firstPage + pages; page++) {
        const answer = await fetcher(page, signal);
        if (generation !== this.#generation) return;
        answers.push(answer);
        // The list ended (or shrank) before the pages loaded so far.
        if (!answer.hasMore || answer.items.length === 0) break;
      }
    } catch (error) {
      // Superseded (aborted or stale): the newer request owns the state.
      if (generation !== this.#generation) return;
      this.#inFlight = undefined;
      this.#lastError = error;
      this.#failedStep = kind === 'reload' && pages > 1 ? 'reloadKept' : kind;
      this.#failedPages = pages;
      this.#currentStatus = 'error';
      this.#fire();
      return;
    }
    if (generation !== this.#generation) return;
    this.#inFlight = undefined;
    if (kind === 'reload') {
      this.#list.length = 0;
      this.#index.clear();
    }
    // How many items there were before the last page's: a last page that adds nothing ends the
    // list even if the server claims more, be it empty or page 1 again from a service that
    // ignores page= (no endless Load more that does nothing). On a real service, a page whose
    // reports all moved up since would end it too: Refresh brings it back.
    let before = 0;
    for (const answer of answers) {
      before = this.#list.length;
      for (const item of answer.items) this.#add(item);
    }
    const last = answers[answers.length - 1];
    this.#totalCount = last?.total;
    this.#more = last !== undefined && last.hasMore && this.#list.length > before;
    this.#nextPage = firstPage + answers.length;
    this.#lastError = undefined;
    this.#failedStep = undefined;
    this.#currentStatus = 'loaded';
    this.#fire();
  }

  /** Appends an item, or replaces the one with the same key (it moved between pages). */
  #add(item: T): void {
    const key = this.keyOf(item);
    const at = this.#index.get(key);
    if (at !== undefined) {
      this.#list[at] = item;
      return;
    }
    this.#index.set(key, this.#list.length);
    this.#list.push(item);
  }

  #fire(): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener();
      } catch {
        // A listener's failure must not break the list or the other listeners.
      }
    }
  }
}
