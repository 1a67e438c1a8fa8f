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

/** A call of `run` at most every `everyMs`; `cancel` drops the one waiting. */
export interface Throttled {
  (): void;
  cancel(): void;
}

/**
 * Calls `run` at most once every `everyMs`: a call runs on the next turn when the last run is
 * that long past, else once at the interval's end for however many calls came meanwhile. For a
 * signal to the other instances, which is one NOTIFY each waking every one of them.
 */
export function throttled(run: () => void, everyMs: number): Throttled {
  let last = -Infinity;
  let timer: NodeJS.Timeout | undefined;
  const call = () => {
    if (timer) return;
    timer = setTimeout(
      () => {
        timer = undefined;
        last = Date.now();
        run();
      },
      Math.max(0, last + everyMs - Date.now()),
    );
    timer.unref();
  };
  call.cancel = () => {
    clearTimeout(timer);
    timer = undefined;
  };
  return call;
}
