import type { JobStore, Logger, Signals } from './ports';
import type { JobStateMachine } from './state-machine';
import { coalesced } from './serial';

// The backstop: how often to look for changes when no wake-up came.
const POLL_MS = 2000;
/**
 * How long a missing sequence number may stay missing before it counts as rolled back: a
 * transaction commits milliseconds after it took its number, unless the database is in trouble.
 */
export const GAP_GRACE_MS = 5000;
// Each read of new sequence numbers takes at most this many; more make it read again.
const PAGE = 1000;
// While a number is missing, look again this often.
const GAP_RECHECK_MS = 50;
// Other instances hear of this one's changes at most this often (one signal per burst).
const ANNOUNCE_MS = 100;

/**
 * How far the store's state changes (job_transitions, by sequence number) can be read without
 * missing one: the `position` up to which every change is visible or never will be. The event
 * streams read up to it. Numbers are taken in insert order but can become visible in another
 * order (two instances, or two transactions, committing out of turn): a missing number holds the
 * position back until it shows up, or for GAP_GRACE_MS (then its transaction rolled back).
 *
 * It reads when this instance's state machine moves a job, when another instance signals that
 * it did, and every POLL_MS as the backstop; and only while someone listens.
 */
export class ChangeFeed {
  private head = 0;
  private readonly listeners = new Set<() => void>();
  private gap: { seq: number; since: number } | undefined;
  private readonly reads = coalesced(
    () => this.read(),
    () => this.listening(),
  );
  private poll: NodeJS.Timeout | undefined;
  private announced = 0;
  private announcing: NodeJS.Timeout | undefined;
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
    clearTimeout(this.announcing);
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
      // Nobody followed the numbers meanwhile: start from the newest visible one.
      this.head = Math.max(this.head, await this.store.lastChangeSeq());
      this.gap = undefined;
      this.poll = setInterval(() => this.wake(), POLL_MS);
      this.poll.unref();
    }
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) clearInterval(this.poll);
    };
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
    const before = this.head;
    for (;;) {
      const seqs = await this.store.changeSeqsAfter({ afterSeq: this.head, limit: PAGE });
      let blocked = false;
      for (const seq of seqs) {
        if (seq !== this.head + 1 && !this.gapExpired(this.head + 1)) {
          blocked = true;
          break;
        }
        this.head = seq;
      }
      if (blocked) {
        // Stopped at a missing number, usually a commit a moment away: look again shortly.
        setTimeout(() => this.wake(), GAP_RECHECK_MS).unref();
        break;
      }
      if (seqs.length < PAGE) break;
    }
    if (this.head !== before) for (const listener of this.listeners) listener();
  }

  /** Whether `seq` has been missing longer than the grace (tracks the first missing one). */
  private gapExpired(seq: number): boolean {
    const now = Date.now();
    if (this.gap?.seq !== seq) this.gap = { seq, since: now };
    if (now - this.gap.since < GAP_GRACE_MS) return false;
    // Rolled back, or committed later than the grace: then event streams and webhooks miss it.
    this.logger.warn({ seq }, 'event feed: change never became visible (rolled back?); skipped');
    this.gap = undefined;
    return true;
  }

  /** Tells the other instances that this one changed something, once per burst of changes. */
  private announce(): void {
    if (this.announcing) return;
    const wait = Math.max(0, this.announced + ANNOUNCE_MS - Date.now());
    this.announcing = setTimeout(() => {
      this.announcing = undefined;
      this.announced = Date.now();
      this.signals.publish({ kind: 'changes' }).catch((error: unknown) => {
        this.logger.warn({ err: error }, 'could not signal the other instances; they poll');
      });
    }, wait);
    this.announcing.unref();
  }
}
