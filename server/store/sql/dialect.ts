import type { Kysely, RawBuilder, Selectable, Transaction } from 'kysely';
import type { Database, JobsTable } from '../schema';
import type { NewJobRow, NewTransitionRow } from './hot-queries';
import type { MoveRow } from './jobs/move-row';
import type { Migration } from './migrate';

/** A unique index, described so that each driver can recognise a violation of it. */
export interface UniqueIndex {
  name: string;
  table: string;
  columns: readonly string[];
}

/**
 * One look at how far the recorded state changes (job_transitions, by seq) can be read: the
 * newest seq visible, and when every seq up to it is final. sql/jobs/change-horizon.ts keeps
 * the looks and says which seq is settled.
 */
export interface ChangeReading {
  /** The newest seq visible to this look (0 when none). */
  last: number;
  /** Every transaction that may hold a seq up to `last` has a transaction number below this. */
  holdersBelow: bigint;
  /** Every transaction numbered below this had ended (committed or rolled back) at this look. */
  endedBelow: bigint;
}

/**
 * What the shared SQL in this folder needs from a driver: the parts that are not the same in
 * every database. Everything else (queries, upserts through Kysely's `onConflict`) is shared.
 */
export interface StoreDialect {
  /** This dialect's migrations, numbered and named like every other dialect's. */
  migrations: readonly Migration[];
  /** Runs `work` on a connection that no other process migrates the same database through. */
  withMigrationLock<T>(
    db: Kysely<Database>,
    work: (db: Kysely<Database>) => Promise<T>,
  ): Promise<T>;
  /** How long a migration's backfill leaves the store to writers between its batches. */
  backfillPauseMs: number;
  /**
   * Called first in a claim's transaction: holds until no other claim on the database, from
   * any process, is between counting slots and taking jobs.
   */
  serializeClaims(trx: Transaction<Database>): Promise<void>;
  /**
   * Whether a read in a transaction can hold the rows it read against writers until it ends
   * (PostgreSQL's FOR SHARE): a claim holds its lease row so, and a takeover's write waits for the
   * claim's commit. Where it cannot (SQLite), a write transaction holds the database's one write
   * lock from its BEGIN IMMEDIATE, so no other writer commits before it ends anyway.
   */
  locksRowsRead: boolean;
  /**
   * Called first in a prune's transaction: holds until no other prune on the database is under
   * way, so that two instances pruning at once take turns instead of deadlocking on rows.
   */
  serializePruning(trx: Transaction<Database>): Promise<void>;
  /**
   * Called first in a transaction that counts a project's rows and inserts one within a limit
   * (its webhooks, views, keys): holds until no other such transaction of the same `scope`, from
   * any process, is between its count and its commit, so that two creates cannot both count
   * one below the limit.
   */
  serializeLimit(trx: Transaction<Database>, scope: string): Promise<void>;
  /**
   * Gives pages that deletes freed back to the file system, at most a bounded number per call;
   * returns the bytes given back (0 where the database reuses free space by itself).
   */
  reclaimSpace(db: Kysely<Database>): Promise<number>;
  isUniqueViolation(error: unknown, index: UniqueIndex): boolean;
  /** Text as this database can keep it (PostgreSQL's text cannot hold a NUL character). */
  storableText(text: string): string;
  /**
   * A text column compared byte by byte, as its index is built: a name prefix is then a range
   * of that index (PostgreSQL compares text by the database's locale unless told otherwise).
   */
  bytewise(column: string): RawBuilder<string>;
  /**
   * Whether the planner knows how many rows each value has (PostgreSQL's statistics, kept by
   * autovacuum). A Jobdeck SQLite store has none: where a filter's matches may be few or many,
   * the shared SQL counts them first and chooses the plan itself.
   */
  plansByStatistics: boolean;
  /** One look at the recorded changes' horizon, in one statement (one snapshot). */
  readChangeHorizon(db: Kysely<Database>): Promise<ChangeReading>;
  /**
   * New jobs and their transitions in one atomic statement, where the database can: a batch
   * then needs no transaction of its own. Without it, two inserts in a transaction.
   */
  insertJobsAndTransitions?(
    executor: Kysely<Database>,
    jobs: readonly NewJobRow[],
    transitions: readonly NewTransitionRow[],
  ): Promise<{ id: string; seq: number }[]>;
  /**
   * A batch's compare-and-set moves (each job at most once) and the transitions of those that
   * moved, in one statement, where the database can; returns the job each move left, by its
   * index in `moves`. Without it, one update a move and one insert of the transitions.
   */
  moveJobsAndTransitions?(
    executor: Kysely<Database>,
    moves: readonly MoveRow[],
  ): Promise<Map<number, Selectable<JobsTable>>>;
}
