/**
 * Global state in the real extension host, in both hosts. VS Code sends the stored state back
 * after each write and the extension host replaces its whole copy with it. A write still in
 * flight when the next one starts therefore comes back after it: until the copy of the next
 * one arrives, the host reads the older value, and a write of any key in between stores the
 * older value for good. The first test runs that sequence through `globalMemento`, as the
 * extension does; with the plain memento it fails in both hosts. Another window's change holds.
 */
import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { globalMemento, type StateStore } from '../../src/stores/globalMemento';
import { GlobalStateKey, TestHook } from '../../src/ids';
import { activate, waitFor } from './harness';

const KEY = 'pageReports.test.lateCopy';
const OTHER = 'pageReports.test.lateCopyOther';
const ROUNDS = 20;

function hostGlobalState(): vscode.Memento {
  const hook = (globalThis as Record<symbol, unknown>)[TestHook.accounts] as
    { globalState?: vscode.Memento } | undefined;
  if (!hook?.globalState) throw new Error('the accounts test hook is not set (is the extension in test mode?)');
  return hook.globalState;
}

const nextTask = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

interface Outcome {
  /** Rounds in which a read after the second write showed the first write's value. */
  staleReads: number[];
  /** Rounds whose second write was lost for good. */
  lost: number[];
}

/**
 * Per round: a write left to finish on its own (as the connection's own writes are), the next
 * write of the same key while it is in flight, and until that one has finished, reads and
 * writes of another key (the others' work goes on meanwhile); then the value once every copy
 * has come back.
 */
async function overlappingWrites(state: StateStore): Promise<Outcome> {
  const outcome: Outcome = { staleReads: [], lost: [] };
  for (let round = 1; round <= ROUNDS; round++) {
    const first = `${round} first`;
    const second = `${round} second`;
    const writes: PromiseLike<unknown>[] = [state.update(KEY, first)];
    // VS Code sends the state on its next task: the first write is then on its way.
    await nextTask();
    let secondDone = false;
    writes.push(Promise.resolve(state.update(KEY, second)).then(() => (secondDone = true)));
    let stale = false;
    for (let step = 0; !secondDone; step++) {
      if (state.get(KEY) === first) stale = true;
      writes.push(state.update(OTHER, `${round}.${step}`));
      await nextTask();
    }
    await Promise.all(writes);
    // Its copy is the last to come back: every earlier one has arrived by then.
    await state.update(OTHER, round);
    if (stale) outcome.staleReads.push(round);
    if (state.get(KEY) !== second) outcome.lost.push(round);
  }
  return outcome;
}

describe("global state: late copies of this window's own writes", function () {
  this.timeout(60_000);

  before(async () => {
    await activate();
  });

  after(async () => {
    await globalMemento(hostGlobalState()).update(KEY, undefined);
    await globalMemento(hostGlobalState()).update(OTHER, undefined);
  });

  it('through globalMemento, no read after a write shows the value before it, and no write is lost', async () => {
    const outcome = await overlappingWrites(globalMemento(hostGlobalState()));
    assert.deepEqual(outcome, { staleReads: [], lost: [] });
    const plain = hostGlobalState();
    await waitFor(() => plain.get(KEY) === `${ROUNDS} second`, {
      message: "the host's own copy ends with the last write",
    });
  });

  it("another window's change holds, also one that sets a value this window has just replaced", async () => {
    // This window signs out of alpha; another window stores a key for it a moment later.
    const state = globalMemento(hostGlobalState());
    await state.update(KEY, ['alpha', 'beta']);
    await state.update(KEY, ['beta']);
    // The other window's state, as it arrives: its value and its own stamp.
    const plain = hostGlobalState();
    await Promise.all([
      plain.update(KEY, ['alpha', 'beta']),
      plain.update(GlobalStateKey.writeStamp, { window: 'another window', write: 1 }),
    ]);
    // Time for this window to write its own value back, if it were to.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.deepEqual(state.get(KEY), ['alpha', 'beta']);
    assert.deepEqual(plain.get(KEY), ['alpha', 'beta'], 'nothing written back');
  });
});
