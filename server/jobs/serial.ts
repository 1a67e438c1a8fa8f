/**
 * Runs tasks one at a time per key, in the order they were asked for; different keys run side by
 * side. The fast path and the reconciler can both settle a job: one after the other, the second
 * sees what the first did.
 */
export class KeyedSerial {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Whether a task of the key is queued or running. */
  busy(key: string): boolean {
    return this.tails.has(key);
  }
}

/**
 * Runs `task` one at a time. A call while a run is under way starts nothing: it makes that run go
 * round once more when it ends, however many calls came meanwhile, so work asked for during a run
 * is neither missed nor piled up. `goOn` is asked before each further round (a stopped loop ends).
 * Only the call that started a run gets its outcome (and its error); the others return at once.
 * A run that fails ends there: what was asked meanwhile waits for the next call.
 */
export function coalesced(
  task: () => Promise<void>,
  goOn: () => boolean = () => true,
): () => Promise<void> {
  let running = false;
  let again = false;
  return async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        await task();
      } while (again && goOn());
    } finally {
      running = false;
      again = false;
    }
  };
}
