import { sql, type Kysely } from 'kysely';
import { backfill, createCountsTable, minuteOf } from '../sqlite/030-finished-counts';

/**
 * SQLite's 030 as one trigger function. Concurrent completions of a queue would each hold its
 * count row until commit, one after the other: `seq % 4` gives each bucket four rows to share.
 * The triggers come before the backfill: creating them waits for the writes under way and holds
 * off new ones until this commits, so no job is counted twice or missed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await createCountsTable(db);
  await sql`CREATE FUNCTION jobdeck_count_finished() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP <> 'INSERT' AND OLD.finished_at IS NOT NULL THEN
        UPDATE queue_finished_counts SET jobs = jobs - 1
         WHERE queue = OLD.queue AND bucket = ${sql.raw(minuteOf('OLD.finished_at'))}
           AND state = OLD.state AND shard = OLD.seq % 4;
      END IF;
      IF TG_OP <> 'DELETE' AND NEW.finished_at IS NOT NULL THEN
        INSERT INTO queue_finished_counts AS c (queue, bucket, state, shard, jobs)
        VALUES (NEW.queue, ${sql.raw(minuteOf('NEW.finished_at'))}, NEW.state, NEW.seq % 4, 1)
        ON CONFLICT (queue, bucket, state, shard) DO UPDATE SET jobs = c.jobs + 1;
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER jobs_finished_counted AFTER INSERT ON jobs FOR EACH ROW
    WHEN (NEW.finished_at IS NOT NULL) EXECUTE FUNCTION jobdeck_count_finished()`.execute(db);
  await sql`CREATE TRIGGER jobs_finished_uncounted AFTER DELETE ON jobs FOR EACH ROW
    WHEN (OLD.finished_at IS NOT NULL) EXECUTE FUNCTION jobdeck_count_finished()`.execute(db);
  await sql`CREATE TRIGGER jobs_finished_recounted AFTER UPDATE OF state, queue, finished_at
    ON jobs FOR EACH ROW
    -- Most moves are between unfinished states: those do not call the function at all.
    WHEN ((OLD.finished_at IS NOT NULL OR NEW.finished_at IS NOT NULL)
      AND (OLD.state, OLD.queue, OLD.finished_at) IS DISTINCT FROM
          (NEW.state, NEW.queue, NEW.finished_at))
    EXECUTE FUNCTION jobdeck_count_finished()`.execute(db);
  await backfill(db, 'seq % 4');
}
