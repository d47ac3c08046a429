/**
 * Global state read past late copies of this window's own writes: a copy of the stored state
 * VS Code sends back after a write (the extension host takes it whole) that arrives after a
 * later write does not bring back what the later write replaced, neither for a read nor in the
 * next write of another key. Another window's change holds, whatever its values. The store
 * stands in for the extension host's copy of global state.
 */
import * as assert from 'node:assert/strict';
import { globalMemento, type StateStore } from '../../../src/stores/globalMemento';
import { GlobalStateKey } from '../../../src/ids';

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

/** What the stored state holds but the stamp. */
function withoutStamp(state: Record<string, unknown> | undefined): Record<string, unknown> {
  const { [GlobalStateKey.writeStamp]: _stamp, ...rest } = state ?? {};
  return rest;
}

describe("globalMemento: global state without the late copies of this window's writes", () => {
  let host: HostCopy;
  let state: StateStore;
  beforeEach(() => {
    host = new HostCopy();
    state = globalMemento(host);
  });

  it('a late copy of an earlier write does not bring back a removed entry, and the latest write is stored again', async () => {
    await state.update('known', ['alpha', 'beta']);
    const copyOfFirst = host.snapshot();
    await state.update('known', ['beta']);
    host.arrive(copyOfFirst);
    assert.deepEqual(state.get('known'), ['beta']);
    assert.deepEqual(host.get('known'), ['beta'], "the host's copy has the latest write again");
    assert.deepEqual(withoutStamp(host.stored.at(-1)), { known: ['beta'] });
  });

  it('a write of another key after a late copy stores the latest of both', async () => {
    await state.update('known', ['alpha', 'beta']);
    const copyOfFirst = host.snapshot();
    await state.update('known', ['beta']);
    host.arrive(copyOfFirst);
    await state.update('keys', ['https://beta.example']);
    assert.deepEqual(withoutStamp(host.stored.at(-1)), { known: ['beta'], keys: ['https://beta.example'] });
  });

  it('a late copy of the value from before a deletion, or of a key not set then, is not read', async () => {
    await state.update('note', { url: 'https://beta.example' });
    const copyBeforeDeletion = host.snapshot();
    await state.update('note', undefined);
    await state.update('known', ['alpha']);
    host.arrive(copyBeforeDeletion);
    assert.equal(state.get('note'), undefined);
    assert.deepEqual(state.get('known'), ['alpha']);
  });

  it('the copy of the latest write is taken as it is: nothing is written back', async () => {
    await state.update('known', ['alpha']);
    await state.update('known', ['alpha', 'beta']);
    host.arrive(host.snapshot());
    const writes = host.stored.length;
    assert.deepEqual(state.get('known'), ['alpha', 'beta']);
    assert.equal(host.stored.length, writes);
  });

  it("another window's change holds, also one that sets a value this window has just replaced", async () => {
    // This window signs out of alpha; another window stores a key for it a moment later.
    await state.update('origins', ['alpha', 'beta']);
    await state.update('origins', ['beta']);
    const other = globalMemento(new HostCopy());
    await other.update('origins', ['alpha', 'beta']);
    host.arrive({ origins: ['alpha', 'beta'], [GlobalStateKey.writeStamp]: stampOf(other) });
    const writes = host.stored.length;
    assert.deepEqual(state.get('origins'), ['alpha', 'beta']);
    assert.equal(host.stored.length, writes, 'nothing written back');
    // Its change is the base of this window's next write.
    await state.update('known', ['beta']);
    assert.deepEqual(withoutStamp(host.stored.at(-1)), { origins: ['alpha', 'beta'], known: ['beta'] });
  });

  it('a state written before this window started holds', async () => {
    host.arrive({ known: ['gamma'], [GlobalStateKey.writeStamp]: { window: 'an earlier start', write: 7 } });
    assert.deepEqual(state.get('known'), ['gamma']);
    await state.update('keys', []);
    assert.deepEqual(withoutStamp(host.stored.at(-1)), { known: ['gamma'], keys: [] });
  });

  it('reads like a memento: the default for a missing key, the value as stored otherwise', async () => {
    assert.deepEqual(state.get('known', []), []);
    assert.equal(state.get('known'), undefined);
    await state.update('known', ['alpha']);
    assert.deepEqual(state.get('known', []), ['alpha']);
  });

  it('one wrapper per memento: a write through one call counts for a read through another', async () => {
    assert.equal(globalMemento(host), state);
    await globalMemento(host).update('known', ['alpha', 'beta']);
    const copyOfFirst = host.snapshot();
    await globalMemento(host).update('known', ['beta']);
    host.arrive(copyOfFirst);
    assert.deepEqual(globalMemento(host).get('known'), ['beta']);
  });
});

/** The stamp a wrapper's last write put on its own store (what its window's change carries). */
function stampOf(wrapper: StateStore): unknown {
  return wrapper.get(GlobalStateKey.writeStamp);
}
