import * as assert from 'node:assert/strict';
import { WorkspaceStateKey } from '../../../src/ids';
import { RECENT_ANALYSIS_MAX_CHARS, RecentAnalyses, type StateLike } from '../../../src/stores/recentAnalyses';

/** A Memento in a map, JSON round-tripped like VS Code's. */
function memento(initial?: unknown): StateLike & { writes: number } {
  const map = new Map<string, string>();
  if (initial !== undefined) map.set(WorkspaceStateKey.recentAnalyses, JSON.stringify(initial));
  return {
    writes: 0,
    get<T>(key: string): T | undefined {
      const value = map.get(key);
      return value === undefined ? undefined : (JSON.parse(value) as T);
    },
    update(key: string, value: unknown) {
      this.writes += 1;
      map.set(key, JSON.stringify(value));
      return Promise.resolve();
    },
  };
}

const A = 'https://a.test';
const B = 'http://127.0.0.1:8787';

describe('recent analyses store', () => {
  it('keeps the previous analysis per service origin and report id (ids as text)', async () => {
    const store = new RecentAnalyses(memento());
    await store.remember(A, 42, { id: 42, score: 1 });
    await store.remember(B, 42, { id: 42, score: 2 });
    assert.deepEqual(store.previous(A, '42'), { id: 42, score: 1 });
    assert.deepEqual(store.previous(B, 42), { id: 42, score: 2 });
    assert.equal(store.previous(A, 43), undefined);
    await store.remember(A, '42', { id: 42, score: 3 });
    assert.deepEqual(store.previous(A, 42), { id: 42, score: 3 });
    assert.equal(store.all().length, 2);
  });

  it('keeps no password at any depth: not stored, and one stored before is not read', async () => {
    const state = memento([{ origin: A, id: '7', previous: { id: 7, results: { t: { value: { password: 'old' } } } }, savedAt: 1 }]);
    const store = new RecentAnalyses(state);
    assert.deepEqual(store.previous(A, 7), { id: 7, results: { t: { value: {} } } });
    await store.remember(A, 42, { id: 42, extra: [{ password: 'new', score: 1 }] });
    assert.deepEqual(store.previous(A, 42), { id: 42, extra: [{ score: 1 }] });
    const stored = JSON.stringify(state.get(WorkspaceStateKey.recentAnalyses));
    assert.ok(!stored.includes('password'), stored);
  });

  it('does not keep a previous analysis larger than 256 K characters of JSON (a hostile answer), and drops the older one of that report', async () => {
    const state = memento();
    const store = new RecentAnalyses(state);
    await store.remember(A, 7, { id: 7, score: 1 });
    await store.remember(A, 8, { id: 8, score: 2 });
    await store.remember(A, 7, { id: 7, results: { huge: { value: 'x'.repeat(RECENT_ANALYSIS_MAX_CHARS) } } });
    assert.equal(store.previous(A, 7), undefined, 'neither the huge one nor the stale one');
    assert.deepEqual(store.previous(A, 8), { id: 8, score: 2 }, 'the others stay');
  });

  it('holds the 50 most recently re-analyzed reports, newest first', async () => {
    const state = memento();
    const store = new RecentAnalyses(state);
    for (let id = 1; id <= 55; id++) await store.remember(A, id, { id }, id);
    await store.remember(A, 10, { id: 10, again: true }, 100);
    const all = store.all();
    assert.equal(all.length, 50);
    assert.equal(all[0]?.id, '10');
    assert.equal(store.previous(A, 5), undefined, 'the oldest went');
    assert.deepEqual(store.previous(A, 6), { id: 6 });
  });

  it('ignores stored entries of another shape and forgets deleted reports', async () => {
    const store = new RecentAnalyses(
      memento([{ origin: A, id: 1 }, 'junk', { origin: A, id: '2', previous: { id: 2 }, savedAt: 1 }]),
    );
    assert.deepEqual(
      store.all().map((e) => e.id),
      ['2'],
    );
    await store.forget(A, 2);
    assert.deepEqual(store.all(), []);
    assert.deepEqual(new RecentAnalyses(memento({ not: 'a list' })).all(), []);
  });
});
