import type { SeqPage } from './job-store';
import type { JobState } from '../../../contract';

/** How a job ended, as trends count it (timeout and error count as failed). */
export type TrendOutcome = 'completed' | 'failed' | 'cancelled';
export type TrendMeasure = 'wait' | 'run';
/** Rollups are kept per hour (for the 24-hour view) and per UTC day (for the 30-day view). */
export type TrendPeriod = 'hour' | 'day';

/**
 * One recorded state change after the trends cursor; `ended` when it is a move to a final state
 * of a job still stored (its queue and times, read as they are now: final, so they stay).
 */
export interface TrendChange {
  seq: number;
  at: number;
  ended: {
    queue: string;
    state: JobState;
    /** Submitted, or its scheduled time when that was later. */
    waitFrom: number;
    /** Its first start (of every attempt), null when it never started. */
    firstStartedAt: number | null;
    /** Its last attempt's start and end. */
    startedAt: number | null;
    finishedAt: number | null;
  } | null;
}

/** Jobs of a queue that ended in one period with one outcome. */
export interface OutcomeCount {
  queue: string;
  period: TrendPeriod;
  start: number;
  outcome: TrendOutcome;
  jobs: number;
}

/** Jobs of a queue that ended in one period whose wait or run fell in one histogram bucket. */
export interface DurationCount {
  queue: string;
  period: TrendPeriod;
  start: number;
  measure: TrendMeasure;
  bucket: number;
  jobs: number;
}

/** The trends rollups and the roller's cursor on the change feed. */
export interface TrendStore {
  /** Every change up to this seq is counted; null before the roller first starts. */
  cursor(): Promise<number | null>;
  /** Sets the cursor where none is set yet; returns the cursor as it is then. */
  startCursor(seq: number): Promise<number>;
  /**
   * The seq just before the first change at or after `at` (the newest seq when none is), found
   * in a few index reads, not a scan: changes are numbered about in the order of their times.
   */
  seqBefore(at: number): Promise<number>;
  /**
   * Up to `limit` changes after `afterSeq`, in order, none past the commit-order horizon (as
   * JobStore.changeHorizon): a change still to commit below a later one is waited for, not
   * stepped over.
   */
  changesAfter(params: SeqPage): Promise<TrendChange[]>;
  /**
   * In one transaction: moves the cursor from `from` to `to` (compare-and-set) and adds the
   * counts to the rollups. False, with nothing added, when the cursor was not at `from`: another
   * instance counted that batch.
   */
  addCounts(params: AddCountsParams): Promise<boolean>;
  /** Deletes the rollups of the period that start before `before`; how many rows went. */
  pruneBefore(period: TrendPeriod, before: number): Promise<number>;
  /** The queue's counts of the period from `from` on, per period and outcome. */
  outcomes(params: RollupRange): Promise<OutcomeCount[]>;
  /** The queue's histograms of the period from `from` on, summed, per measure and bucket. */
  durations(params: RollupRange): Promise<Omit<DurationCount, 'queue' | 'period' | 'start'>[]>;
}

/** A queue's rollups of one period from `from` on. */
export interface RollupRange {
  queue: string;
  period: TrendPeriod;
  from: number;
}

export interface AddCountsParams {
  from: number;
  to: number;
  outcomes: readonly OutcomeCount[];
  durations: readonly DurationCount[];
}
