/** At most this many writes share one transaction (SQLite's write lock is held meanwhile). */
const MAX_BATCH = 256;

interface Waiting<T, R> {
  item: T;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: writes asked for in the same turn of the event loop, or while a batch is being
 * written, go to the database together in one transaction. Under load that turns N commits (each
 * writing the same table and index pages to the WAL again) into one; alone, a write waits only
 * for the next turn. Every caller is answered only after the commit that holds its write, so
 * nothing is acknowledged before it is durable.
 */
export class WriteBatch<T, R> {
  private waiting: Waiting<T, R>[] = [];
  private flushing = false;

  /**
   * @param writeAll writes every item in one transaction, all or none
   * @param writeOne writes one item in a transaction of its own and answers for it alone
   */
  constructor(
    private readonly writeAll: (items: T[]) => Promise<R[]>,
    private readonly writeOne: (item: T) => Promise<R>,
  ) {}

  add(item: T): Promise<R> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (this.waiting.length === 1 && !this.flushing) setImmediate(() => void this.flush());
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, MAX_BATCH);
      if (batch.length === 1) {
        await this.writeOne(batch[0]!.item).then(batch[0]!.resolve, batch[0]!.reject);
        continue;
      }
      try {
        const results = await this.writeAll(batch.map((w) => w.item));
        batch.forEach((w, i) => w.resolve(results[i]!));
      } catch {
        // One item can undo the whole transaction (a name already held): write each alone, so
        // that each caller gets the answer for its own item.
        for (const w of batch) await this.writeOne(w.item).then(w.resolve, w.reject);
      }
    }
    this.flushing = false;
  }
}
