import { sql, type Kysely } from 'kysely';

/**
 * The queue overview counts, per queue, the jobs that finished within the last day: a range of
 * this index per queue (state included, so the count never reads the rows).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX jobs_queue_finished ON jobs (queue, finished_at, state)`.execute(db);
}
