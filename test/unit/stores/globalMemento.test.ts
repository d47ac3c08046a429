/**
 * Global state read through this window's own writes: a late copy of the stored state (VS Code
 * sends it back after each write and the extension host takes it whole) does not bring back a
 * value this window wrote over, neither for a read nor in the next write of another key; another
 * window's value holds. The store stands in for the extension host's copy of global state.
 */
import * as assert from 'node:assert/strict';
import { CHECKS_MS, globalMemento, LATE_COPY_MS, type StateStore } from '../../../src/stores/globalMemento';

/** The extension host's copy of global state; `arrive` replaces it whole, as a copy VS Code sends back does. */
class HostCopy implements StateStore {
  values: Record<string, unknown> = {};
  /** What each update stored, in order (what the other windows and the next start see). */
  readonly stored: Record<string, unknown>[] = [];
  get<T>(key: string, defaultValue?: T): T {
    return (key in this.values ? this.values[key] : defaultValue) as T;
  }
  update(key: string, value: unknown): PromiseLike<void> {
    const { [key]: _old, ...rest } = this.values;
    this.values = value === undefined ? rest : { ...rest, [key]: JSON.parse(JSON.stringify(value)) as unknown };
    this.stored.push(this.snapshot());
    return Promise.resolve();
  }
  snapshot(): Record<string, unknown> {
    return JSON.parse(JSON.stringify(this.values)) as Record<string, unknown>;
  }
  arrive(copy: Record<string, unknown>): void {
    this.values = copy;
  }
}

describe("globalMemento: global state without the late copies of this window's writes", () => {
  let host: HostCopy;
  let now: number;
  /** What the wrapper asked to run later, and when. */
  let timers: { run: () => void; at: number }[];
  let state: StateStore;
  beforeEach(() => {
    host = new HostCopy();
    now = 1_000_000;
    timers = [];
    state = globalMemento(host, { now: () => now, later: (run, ms) => timers.push({ run, at: now + ms }) });
  });
  /** Moves the clock on by `ms`, running the timers due. */
  function wait(ms: number): void {
    now += ms;
    for (const timer of timers.filter((t) => t.at <= now)) timer.run();
    timers = timers.filter((t) => t.at > now);
  }

  it('a late copy of an earlier write does not bring back a removed entry, and the latest write is stored again', async () => {
    await state.update('known', ['alpha', 'beta']);
    const copyOfFirst = host.snapshot();
    wait(20);
    await state.update('known', ['beta']);
    host.arrive(copyOfFirst);
    assert.deepEqual(state.get('known'), ['beta']);
    assert.deepEqual(host.get('known'), ['beta'], "the host's copy has the latest write again");
    assert.deepEqual(host.stored.at(-1), { known: ['beta'] });
  });

  it('a late copy that lands when nothing reads is put right by the check after the write', async () => {
    await state.update('known', ['alpha', 'beta']);
    const copyOfFirst = host.snapshot();
    await state.update('known', ['beta']);
    wait(100);
    host.arrive(copyOfFirst);
    wait(CHECKS_MS[0] ?? 0);
    assert.deepEqual(host.get('known'), ['beta'], 'put back without a read');
    assert.deepEqual(host.stored.at(-1), { known: ['beta'] });
  });

  it("a late copy of a write another window's change followed, or of the value before a deletion, is not read", async () => {
    await state.update('known', ['alpha']);
    const copyOfFirst = host.snapshot();
    host.arrive({ known: ['alpha', 'gamma'] });
    await state.update('known', ['beta']);
    host.arrive(copyOfFirst);
    assert.deepEqual(state.get('known'), ['beta']);
    await state.update('note', { url: 'https://beta.example' });
    const copyBeforeDeletion = host.snapshot();
    await state.update('note', undefined);
    host.arrive(copyBeforeDeletion);
    assert.equal(state.get('note'), undefined);
  });

  it('a write of another key after a late copy stores the latest of both', async () => {
    await state.update('known', ['alpha', 'beta']);
    const copyOfFirst = host.snapshot();
    await state.update('known', ['beta']);
    host.arrive(copyOfFirst);
    await state.update('keys', ['https://beta.example']);
    assert.deepEqual(host.stored.at(-1), { known: ['beta'], keys: ['https://beta.example'] });
  });

  it('a late copy of the value from before the first write, or of a key not set then, is not read either', async () => {
    host.arrive({ known: ['alpha'] });
    const before = host.snapshot();
    await state.update('known', ['alpha', 'beta']);
    await state.update('note', { url: 'https://beta.example' });
    host.arrive(before);
    assert.deepEqual(state.get('known'), ['alpha', 'beta']);
    assert.deepEqual(state.get('note'), { url: 'https://beta.example' });
  });

  it('another window that sets a value this window had seconds ago is overruled (documented: the values carry times of use)', async () => {
    await state.update('known', ['alpha']);
    await state.update('known', ['alpha', 'beta']);
    host.arrive({ known: ['alpha'] });
    assert.deepEqual(state.get('known'), ['alpha', 'beta']);
  });

  it("another window's value holds: one this window never wrote or replaced", async () => {
    await state.update('known', ['alpha']);
    await state.update('known', ['alpha', 'beta']);
    host.arrive({ known: ['gamma'] });
    assert.deepEqual(state.get('known'), ['gamma']);
    const writes = host.stored.length;
    state.get('known');
    assert.equal(host.stored.length, writes, 'nothing written back');
  });

  it('a value from longer ago than LATE_COPY_MS is taken as it is (another window may have gone back to it)', async () => {
    await state.update('known', ['alpha', 'beta']);
    const copyOfFirst = host.snapshot();
    await state.update('known', ['beta']);
    wait(LATE_COPY_MS + 1);
    host.arrive(copyOfFirst);
    assert.deepEqual(state.get('known'), ['alpha', 'beta']);
  });

  it('reads like a memento: the default for a missing key, the value as stored otherwise', async () => {
    assert.deepEqual(state.get('known', []), []);
    assert.equal(state.get('known'), undefined);
    await state.update('known', ['alpha']);
    assert.deepEqual(state.get('known', []), ['alpha']);
  });

  it('one wrapper per memento, kept on globalThis for both bundles: a write through one call counts for a read through another', async () => {
    assert.equal(globalMemento(host), state);
    const kept = (globalThis as Record<symbol, WeakMap<object, StateStore> | undefined>)[
      Symbol.for('pageReports.globalMemento')
    ];
    assert.equal(kept?.get(host), state, 'the wrapper is where the other bundle looks for it');
    await globalMemento(host).update('known', ['alpha', 'beta']);
    const copyOfFirst = host.snapshot();
    await globalMemento(host).update('known', ['beta']);
    host.arrive(copyOfFirst);
    assert.deepEqual(globalMemento(host).get('known'), ['beta']);
  });
});
