/**
 * `--data FILE`: the store survives restarts. Writes are debounced and atomic (a temp file
 * in the same folder, then a rename), so a crash leaves the previous file intact.
 */
import { promises as fs, readFileSync } from 'node:fs';
import type { Snapshot, Store } from './store';

const DEBOUNCE_MS = 50;

/** Reads a data file; undefined when it does not exist yet. Throws on a corrupt file. */
export function loadSnapshot(file: string): Snapshot | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const value = JSON.parse(text) as Partial<Snapshot>;
  if (value.version !== 1 || !Array.isArray(value.reports) || typeof value.nextId !== 'number') {
    throw new Error(`${file} is not a data file of the reference service`);
  }
  for (const report of value.reports) {
    if (
      !Number.isSafeInteger(report.id) ||
      typeof report.account !== 'string' ||
      typeof report.fields !== 'object' ||
      report.fields === null
    ) {
      throw new Error(`${file} holds an invalid report`);
    }
  }
  return value as Snapshot;
}

/** Saves the store to a file a short while after each change, one write at a time. */
export class Persister {
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private dirty = false;
  private counter = 0;

  constructor(
    private readonly file: string,
    private readonly store: () => Store,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Marks the store changed; the file is written soon. */
  schedule(): void {
    this.dirty = true;
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, DEBOUNCE_MS);
  }

  /** Writes now if anything changed, after any write in progress. */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.writing = this.writing.then(async () => {
      if (!this.dirty) return;
      this.dirty = false;
      const temp = `${this.file}.${process.pid}.${++this.counter}.tmp`;
      try {
        await fs.writeFile(temp, JSON.stringify(this.store().snapshot()));
        await fs.rename(temp, this.file);
      } catch (error) {
        await fs.rm(temp, { force: true }).catch(() => undefined);
        this.onError(error);
      }
    });
    return this.writing;
  }
}
