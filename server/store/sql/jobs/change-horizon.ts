import type { Kysely } from 'kysely';
import type { ChangeHorizon } from '../../../jobs/ports';
import type { Database } from '../../schema';
import type { ChangeReading, StoreDialect } from '../dialect';

/** A first look of this process waits for the transactions under way this long between looks. */
const FIRST_LOOK_RETRY_MS = 10;
/** Looks kept waiting to settle at most: past it, a new one replaces the newest kept. */
const MAX_WAITING = 64;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The commit-order horizon of the change feed: the seq up to which every recorded change is
 * visible, or never will be. A seq is taken when a transaction inserts its change and becomes
 * visible when that transaction commits, possibly after later seqs did (PostgreSQL: many
 * writers). Each look (the dialect's readChangeHorizon) sees a newest seq `last` and the
 * transaction number every holder of a seq up to it is below; it settles once a later look sees
 * every transaction below that number ended, however long that takes: a transaction that commits
 * a minute after taking its seq holds the horizon back a minute, and is not skipped. On SQLite
 * every look settles at once (one writer: commit order is seq order).
 */
export class ChangeHorizonTracker {
  private settled: number | undefined;
  /** Looks not settled yet, oldest first (their `last` and `holdersBelow` both grow). */
  private waiting: ChangeReading[] = [];

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: StoreDialect,
  ) {}

  /**
   * Looks once, and returns the horizon. The first look of the process waits until it settles:
   * until then no seq is known to be final.
   */
  async look(): Promise<ChangeHorizon> {
    for (;;) {
      this.note(await this.dialect.readChangeHorizon(this.db));
      if (this.settled !== undefined) {
        return { settled: this.settled, pending: this.waiting.length > 0 };
      }
      await pause(FIRST_LOOK_RETRY_MS);
    }
  }

  private note(reading: ChangeReading): void {
    const newest = this.waiting.at(-1)?.last ?? this.settled ?? -1;
    if (reading.last > newest) {
      // Dropping the newest kept only delays: this one settles no sooner than it would have.
      if (this.waiting.length === MAX_WAITING) this.waiting.pop();
      this.waiting.push(reading);
    }
    const ended = reading.endedBelow;
    // Looks can finish out of order: what a look saw ended stays ended, whichever it settles.
    for (const kept of this.waiting) {
      if (kept.holdersBelow <= ended) this.settled = Math.max(this.settled ?? 0, kept.last);
    }
    const settled = this.settled ?? -1;
    this.waiting = this.waiting.filter((kept) => kept.last > settled);
  }
}
