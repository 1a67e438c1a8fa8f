import { sql, type Kysely } from 'kysely';

/**
 * The overview's last-day counts, kept by the database itself: how many jobs of each queue
 * finished, per final state and minute of `finished_at`. Triggers on `jobs` keep them, so every
 * write that ends, deletes or changes a finished job counts in its own transaction, whichever code
 * path made it. The overview sums the whole minutes from here and counts only the window's
 * partial first minute from the index of 008: a day of 10⁶ finished jobs was 10⁶ index entries a
 * read. `shard` spreads PostgreSQL's concurrent completions over rows (SQLite has one writer:
 * always 0). Buckets are milliseconds since the epoch, whole multiples of 60,000.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await createCountsTable(db);
  const [newMinute, oldMinute] = [minuteOf('NEW.finished_at'), minuteOf('OLD.finished_at')];
  const countNew = sql.raw(`INSERT INTO queue_finished_counts (queue, bucket, state, shard, jobs)
      SELECT NEW.queue, ${newMinute}, NEW.state, 0, 1
       WHERE NEW.finished_at IS NOT NULL
      ON CONFLICT (queue, bucket, state, shard) DO UPDATE SET jobs = jobs + 1;`);
  // A bucket already pruned (older than any window read) is not made again to count down.
  const uncountOld = sql.raw(`UPDATE queue_finished_counts SET jobs = jobs - 1
       WHERE OLD.finished_at IS NOT NULL AND queue = OLD.queue
         AND bucket = ${oldMinute}
         AND state = OLD.state AND shard = 0;`);
  await sql`CREATE TRIGGER jobs_finished_counted AFTER INSERT ON jobs
    WHEN NEW.finished_at IS NOT NULL
    BEGIN ${countNew} END`.execute(db);
  await sql`CREATE TRIGGER jobs_finished_uncounted AFTER DELETE ON jobs
    WHEN OLD.finished_at IS NOT NULL
    BEGIN ${uncountOld} END`.execute(db);
  await sql`CREATE TRIGGER jobs_finished_recounted AFTER UPDATE OF state, queue, finished_at ON jobs
    WHEN (OLD.finished_at IS NOT NULL OR NEW.finished_at IS NOT NULL)
      AND (OLD.state IS NOT NEW.state OR OLD.queue IS NOT NEW.queue
        OR OLD.finished_at IS NOT NEW.finished_at)
    BEGIN ${uncountOld} ${countNew} END`.execute(db);
  await backfill(db);
}

/**
 * The counts of what finished since a little more than a day ago (older buckets are never read);
 * `shard`: the expression of a row's shard, or none (all 0).
 */
export async function backfill(db: Kysely<unknown>, shard?: string): Promise<void> {
  const DAY_AND_A_BUCKET_MS = 24 * 3_600_000 + 60_000;
  const from = Date.now() - DAY_AND_A_BUCKET_MS;
  const bucket = sql.raw(minuteOf('finished_at'));
  await sql`INSERT INTO queue_finished_counts (queue, bucket, state, shard, jobs)
    SELECT queue, ${bucket}, state, ${sql.raw(shard ?? '0')}, count(*)
      FROM jobs WHERE finished_at >= ${from}
     GROUP BY queue, ${bucket}, state${sql.raw(shard ? `, ${shard}` : '')}`.execute(db);
}

/** The start of the minute a time (in milliseconds) falls in: a row's bucket, in either dialect. */
export const minuteOf = (time: string) => `${time} - ${time} % 60000`;

/** The same table in both dialects. */
export async function createCountsTable(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE queue_finished_counts (
    queue text NOT NULL,
    bucket bigint NOT NULL,
    state text NOT NULL,
    shard integer NOT NULL,
    jobs bigint NOT NULL,
    PRIMARY KEY (queue, bucket, state, shard)
  )`.execute(db);
  // Retention forgets the buckets past the day by this one, whatever the queue.
  await sql`CREATE INDEX queue_finished_counts_age ON queue_finished_counts (bucket)`.execute(db);
}
