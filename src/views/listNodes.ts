/**
 * Maps a `PagedList` onto tree elements: one element object per item key (kept across
 * renders, so VS Code's element identity holds), then the list's last row — an error with
 * Retry (none for a rejected key, which the Projects view's message says), `Load more (n of total)`,
 * or the empty-state row.
 */
import type { PagedList } from './listState';
import type { EmptyNode, ListKey, ViewNode } from './items';
import { errorMessage } from './items';
import { isApiError } from '../api/errors';

export class ListNodes<T, N extends ViewNode> {
  #nodes = new Map<string, N>();

  /**
   * @param keyOf the item's key (as the list's)
   * @param make a new element for an item
   * @param assign puts a newer copy of the item into its existing element
   */
  constructor(
    readonly listKey: ListKey,
    private readonly keyOf: (item: T) => string,
    private readonly make: (item: T) => N,
    private readonly assign: (node: N, item: T) => void,
  ) {}

  /** The element of an item, created or refreshed. */
  nodeFor(item: T): N {
    const key = this.keyOf(item);
    let node = this.#nodes.get(key);
    if (node) this.assign(node, item);
    else {
      node = this.make(item);
      this.#nodes.set(key, node);
    }
    return node;
  }

  /** The elements of the items last rendered. */
  get rendered(): N[] {
    return [...this.#nodes.values()];
  }

  /** The element last rendered for a key, if any. */
  get(key: string): N | undefined {
    return this.#nodes.get(key);
  }

  /**
   * The children for the list's current state. Returns `undefined` while nothing is loaded
   * yet (idle, or the first page in flight): the caller waits for the load, or shows nothing.
   */
  render(list: PagedList<T>, empty: () => EmptyNode): ViewNode[] | undefined {
    const items = list.items;
    if (items.length === 0 && (list.status === 'idle' || list.status === 'loading')) return undefined;
    const next = new Map<string, N>();
    const children: ViewNode[] = [];
    for (const item of items) {
      const node = this.nodeFor(item);
      next.set(this.keyOf(item), node);
      children.push(node);
    }
    // Forget elements of items that left the list, so the map does not grow without bound.
    this.#nodes = next;
    // A rejected key is said once, above the Projects rows and in one notification: no error row.
    if (list.status === 'error' && isApiError(list.error, 'unauthorized')) {
      return children;
    } else if (list.status === 'error') {
      children.push({
        kind: 'error',
        listKey: this.listKey,
        message: errorMessage(list.error, this.listKey),
        error: list.error,
      });
    } else if (list.hasMore) {
      children.push({
        kind: 'loadMore',
        listKey: this.listKey,
        loaded: items.length,
        total: list.total,
        loading: list.status === 'loadingMore',
      });
    } else if (items.length === 0) {
      children.push(empty());
    }
    return children;
  }
}
