/**
 * Global state without the late copies of this window's own writes. Every read and write of
 * `globalState` goes through {@link globalMemento} (an ESLint rule refuses `globalState.get` and
 * `.update` calls; a helper given the memento wraps it itself).
 *
 * VS Code sends the stored state back after each write, and the extension host replaces its
 * whole copy of the extension's global state with it. When a write starts while an earlier one
 * is still on its way (the connection's own writes are not awaited by the command that caused
 * them), the copy of the earlier one arrives after the later write: until the later one's copy
 * follows, the host reads the state from before it, and a write of any key in between stores
 * that old state for good. test/integration/globalState.test.ts shows it in both hosts.
 *
 * So each write also stamps the state with this window's id and the write's number. A state
 * stamped with an earlier write of this window is a late copy: what this window wrote after it
 * is put back before any read or write. A state stamped by another window is that window's
 * change and holds, whatever values it has.
 */
import { GlobalStateKey } from '../ids';

/** The part of `vscode.Memento` used here. */
export interface StateStore {
  get<T>(key: string): T | undefined;
  get<T>(key: string, defaultValue: T): T;
  update(key: string, value: unknown): PromiseLike<void>;
}

/** Which window wrote the state last, and its how-manyth write that was. */
interface Stamp {
  window: string;
  write: number;
}

/** The latest value this window wrote to a key, and the number of that write. */
interface Written {
  value: unknown;
  json: string;
  write: number;
}

class OwnWrites implements StateStore {
  /** Tells this window's writes from other windows'; new with every extension host. */
  readonly #window = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  #writes = 0;
  readonly #latest = new Map<string, Written>();

  constructor(private readonly store: StateStore) {}

  get<T>(key: string, defaultValue?: T): T | undefined {
    this.#putBackLatest();
    return this.store.get(key, defaultValue);
  }

  async update(key: string, value: unknown): Promise<void> {
    this.#putBackLatest();
    await this.#write(key, value);
  }

  #write(key: string, value: unknown): Promise<void> {
    const write = ++this.#writes;
    this.#latest.set(key, { value, json: json(value), write });
    const stamp: Stamp = { window: this.#window, write };
    // Both in the same turn: VS Code stores them together, and its copy carries both.
    const stamped = this.store.update(GlobalStateKey.writeStamp, stamp);
    return Promise.all([stamped, this.store.update(key, value)]).then(() => undefined);
  }

  /** When the host's copy is one of this window's earlier writes, writes again what came after it. */
  #putBackLatest(): void {
    const stamp = this.store.get<Partial<Stamp>>(GlobalStateKey.writeStamp);
    if (stamp?.window !== this.#window || typeof stamp.write !== 'number' || stamp.write >= this.#writes) return;
    const since = stamp.write;
    const undone = [...this.#latest].filter(([key, w]) => w.write > since && json(this.store.get(key)) !== w.json);
    // The host's copy takes each at once. A failed store is not tried again: the copy keeps the
    // value, and the next write of any key stores it with the rest.
    for (const [key, w] of undone) this.#write(key, w.value).then(undefined, () => undefined);
  }
}

/** One wrapper per memento, so that every write of this window counts. */
const wrappers = new WeakMap<StateStore, OwnWrites>();

/** `memento` read and written past the late copies of this window's own writes. */
export function globalMemento(memento: StateStore): StateStore {
  let own = wrappers.get(memento);
  if (own === undefined) {
    own = new OwnWrites(memento);
    wrappers.set(memento, own);
  }
  return own;
}

function json(value: unknown): string {
  return JSON.stringify(value) ?? 'undefined';
}
