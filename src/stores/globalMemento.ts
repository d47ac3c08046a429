/**
 * Global state without the late copies of this window's own writes. Every read and write of
 * `globalState` goes through {@link globalMemento} (an ESLint rule refuses `globalState.get` and
 * `.update` calls; a helper given the memento wraps it itself).
 *
 * VS Code keeps each window's copy of global state in step with the others by sending the
 * stored state back after a change, and the extension host replaces its whole copy with it.
 * When a second write follows the first before that copy arrives, the copy of the first can
 * land after the second: the host then reads the state from before the second write, after that
 * write has finished, and the next write of any key stores that old state for good. Seen in the
 * accounts suite (code-server 4.139, about one run in three): a service removed just after a
 * switch was listed again 1 ms after the removal, for 100 ms and more, and the switch that
 * followed stored it back.
 *
 * So each window remembers its writes for {@link LATE_COPY_MS}. A key that shows a value this
 * window replaced (or wrote before its latest write) in that time holds a late copy: its latest
 * write is put back, at each read and write and {@link CHECKS_MS} after each write (a copy may land
 * when nothing reads). A value this window never had is another window's, and holds. Another
 * window that sets a key back to a value this window had in the last seconds is overruled, which
 * the values here make rare: the known services carry the time each was last used. Imports no
 * `vscode`.
 */

/** The part of `vscode.Memento` used here. */
export interface StateStore {
  get<T>(key: string): T | undefined;
  get<T>(key: string, defaultValue: T): T;
  update(key: string, value: unknown): PromiseLike<void>;
}

/** The time and the timer; tests give their own. */
export interface Clock {
  now(): number;
  later(run: () => void, ms: number): void;
}

/**
 * How long after a write a copy from before it is taken for a late one. The copies came within
 * 30 ms of the write on an idle machine and 100 ms on a busy one; a copy later than this is taken
 * for another window's. A longer bound would overrule more of the other windows' changes.
 */
export const LATE_COPY_MS = 5_000;
/** When, after each write, every key written in the last {@link LATE_COPY_MS} is looked at again, whether anything reads it or not. */
export const CHECKS_MS: readonly number[] = [1_000, LATE_COPY_MS - 1_000];

interface Write {
  key: string;
  /** The value before this write, as JSON. */
  replaced: string;
  /** The value written, as JSON. */
  written: string;
  /** The value written, as given (what is put back). */
  value: unknown;
  at: number;
}

class OwnWrites implements StateStore {
  /** This window's writes of the last {@link LATE_COPY_MS}, oldest first. */
  #writes: Write[] = [];

  constructor(
    private readonly store: StateStore,
    private readonly clock: Clock,
  ) {}

  get<T>(key: string, defaultValue?: T): T | undefined {
    this.#putBackLatest();
    return this.store.get(key, defaultValue);
  }

  async update(key: string, value: unknown): Promise<void> {
    this.#putBackLatest();
    const at = this.clock.now();
    this.#writes.push({ key, replaced: json(this.store.get(key)), written: json(value), value, at });
    for (const ms of CHECKS_MS) this.clock.later(() => this.#putBackLatest(), ms);
    await this.store.update(key, value);
  }

  /** Writes again the latest value of each key that shows a value this window has written over. */
  #putBackLatest(): void {
    const since = this.clock.now() - LATE_COPY_MS;
    this.#writes = this.#writes.filter((write) => write.at >= since);
    const latest = new Map(this.#writes.map((write) => [write.key, write]));
    for (const [key, last] of latest) {
      const shown = json(this.store.get(key));
      if (shown === last.written) continue;
      const writtenOver = this.#writes.some((w) => w.key === key && (w.replaced === shown || w.written === shown));
      // The host's copy takes it at once. A failed store is not tried again: the copy keeps the
      // value, and the next write of any key stores it with the rest.
      if (writtenOver) this.store.update(key, last.value).then(undefined, () => undefined);
    }
  }
}

/**
 * Where the wrappers are kept: on `globalThis`, not in this module. dist/extension.js (the
 * provider, the status bar) and dist/main.js (the connection, Switch Service…) each have a copy
 * of this module, and each must see the writes of the other.
 */
const WRAPPERS = Symbol.for('pageReports.globalMemento');

const REAL_CLOCK: Clock = {
  now: () => performance.now(),
  later: (run, ms) => void setTimeout(run, ms),
};

/**
 * `memento` read and written through this window's own writes: one wrapper per memento, so a
 * write anywhere counts. `clock` is for tests: the first call for a memento sets it.
 */
export function globalMemento(memento: StateStore, clock: Clock = REAL_CLOCK): StateStore {
  const host = globalThis as { [WRAPPERS]?: WeakMap<StateStore, StateStore> };
  const wrappers = (host[WRAPPERS] ??= new WeakMap());
  let own = wrappers.get(memento);
  if (own === undefined) {
    own = new OwnWrites(memento, clock);
    wrappers.set(memento, own);
  }
  return own;
}

function json(value: unknown): string {
  return JSON.stringify(value) ?? 'undefined';
}
