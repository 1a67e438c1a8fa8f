import type { JobStore, Logger, Signals } from './ports';
import type { JobStateMachine } from './state-machine';
import { coalesced, throttled } from './serial';

// The backstop: how often to look for changes when no wake-up came.
const POLL_MS = 2000;
// While changes are under way (taken, not yet all committed), look again this often.
const PENDING_RECHECK_MS = 25;
// Other instances hear of this one's changes at most this often (one signal per burst).
const ANNOUNCE_MS = 100;

/**
 * How far the store's state changes (job_transitions, by sequence number) can be read without
 * missing one: the `position` up to which every change is visible or never will be. The event
 * streams and webhooks read up to it. Numbers are taken in insert order but can become visible
 * in another order (two instances, or two transactions, committing out of turn): the store's
 * commit-order horizon (JobStore.changeHorizon) holds the position back until every transaction
 * that may hold a lower number has ended, however late it commits, so none is skipped.
 *
 * It reads when this instance's state machine moves a job, when another instance signals that
 * it did, shortly after while changes are still under way, and every POLL_MS as the backstop;
 * and only while someone listens.
 */
export class ChangeFeed {
  private head = 0;
  private readonly listeners = new Set<() => void>();
  private readonly reads = coalesced(
    () => this.read(),
    () => this.listening(),
  );
  private poll: NodeJS.Timeout | undefined;
  private recheck: NodeJS.Timeout | undefined;
  /** The first read since someone listens: each subscribe waits for it. */
  private current: Promise<void> = Promise.resolve();
  /** Tells the other instances that this one changed something, once per burst of changes. */
  private readonly announce = throttled(() => {
    this.signals.publish({ kind: 'changes' }).catch((error: unknown) => {
      this.logger.warn({ err: error }, 'could not signal the other instances; they poll');
    });
  }, ANNOUNCE_MS);
  private stopped = true;

  constructor(
    private readonly store: JobStore,
    private readonly machine: JobStateMachine,
    private readonly signals: Signals,
    private readonly logger: Logger,
  ) {}

  /** Listens for changes here and on the other instances. */
  start(): void {
    this.stopped = false;
    this.machine.onTransition(() => {
      this.wake();
      this.announce();
    });
    this.signals.subscribe((signal) => {
      if (signal.kind === 'changes') this.wake();
    });
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.poll);
    clearTimeout(this.recheck);
    this.announce.cancel();
  }

  /** Every change up to here is visible (or never will be). */
  get position(): number {
    return this.head;
  }

  /**
   * Calls `listener` whenever the position moves on, until the returned function is called.
   * Resolves once the position is current.
   */
  async subscribe(listener: () => void): Promise<() => void> {
    if (this.listeners.size === 0) {
      // Nobody followed the numbers meanwhile: the horizon is read afresh.
      this.current = this.read();
      this.poll = setInterval(() => this.wake(), POLL_MS);
      this.poll.unref();
    }
    this.listeners.add(listener);
    const unsubscribe = () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) clearInterval(this.poll);
    };
    try {
      await this.current;
    } catch (error) {
      unsubscribe();
      throw error;
    }
    return unsubscribe;
  }

  /** Reads what became visible; a wake-up during a read makes it read once more. */
  wake(): void {
    if (!this.listening()) return;
    this.reads().catch((error: unknown) => {
      this.logger.warn(
        { err: error },
        'event feed: could not read changes; the next wake-up retries',
      );
    });
  }

  private listening(): boolean {
    return !this.stopped && this.listeners.size > 0;
  }

  private async read(): Promise<void> {
    const { settled, pending } = await this.store.changeHorizon();
    // Under way: most commit within milliseconds, with no wake-up when another process's.
    if (pending && !this.recheck) {
      this.recheck = setTimeout(() => {
        this.recheck = undefined;
        this.wake();
      }, PENDING_RECHECK_MS);
      this.recheck.unref();
    }
    if (settled <= this.head) return;
    this.head = settled;
    for (const listener of this.listeners) listener();
  }
}
