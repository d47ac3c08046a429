/**
 * What the report and project writes share: each write is sent once, and never twice at the
 * same time for the same target.
 */

/**
 * Remembers which writes are in flight, so a double click (or a second menu invocation)
 * never sends the same write twice.
 */
export class InFlight {
  readonly #running = new Set<string>();

  /** Runs `task` unless the same key is already running; then resolves `undefined`. */
  async run<T>(key: string, task: () => PromiseLike<T>): Promise<T | undefined> {
    if (this.#running.has(key)) return undefined;
    this.#running.add(key);
    try {
      return await task();
    } finally {
      this.#running.delete(key);
    }
  }

  has(key: string): boolean {
    return this.#running.has(key);
  }
}
