import { sql, type Kysely } from 'kysely';
import { minuteOf } from '../sqlite/030-finished-counts';

/**
 * 030's count rows were shared by every transaction ending jobs of a queue in a minute (four
 * shards by `seq % 4`): with several instances their batched moves waited on each other's count
 * rows until each commit (1,059 waits past 20 ms in a 10,000-job run of eight instances,
 * docs/benchmarks.md). A count now goes to its connection's shard (`pg_backend_pid() % 64`): one
 * connection's transactions come one after the other, so two wait on one row only when two
 * busy connections' pids share a shard. An uncount is a -1 in the uncounting connection's shard,
 * wherever the job was counted: readers sum a minute's shards, so the sum stays exact (a shard
 * may go below zero), and rows counted by 030's rule need no rewrite.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const shard = sql.raw('pg_backend_pid() % 64');
  await sql`CREATE OR REPLACE FUNCTION jobdeck_count_finished() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP <> 'INSERT' AND OLD.finished_at IS NOT NULL THEN
        INSERT INTO queue_finished_counts AS c (queue, bucket, state, shard, jobs)
        VALUES (OLD.queue, ${sql.raw(minuteOf('OLD.finished_at'))}, OLD.state, ${shard}, -1)
        ON CONFLICT (queue, bucket, state, shard) DO UPDATE SET jobs = c.jobs - 1;
      END IF;
      IF TG_OP <> 'DELETE' AND NEW.finished_at IS NOT NULL THEN
        INSERT INTO queue_finished_counts AS c (queue, bucket, state, shard, jobs)
        VALUES (NEW.queue, ${sql.raw(minuteOf('NEW.finished_at'))}, NEW.state, ${shard}, 1)
        ON CONFLICT (queue, bucket, state, shard) DO UPDATE SET jobs = c.jobs + 1;
      END IF;
      RETURN NULL;
    END $$`.execute(db);
}
