import { sql, type Kysely } from 'kysely';

/**
 * The memory limit each attempt ran with (retry.out_of_memory raises it from one attempt to the
 * next; null in attempts recorded before), and the jobs of a definition newest first, which the
 * right-size hint reads its recent runs from.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE job_attempts ADD COLUMN memory_bytes bigint`.execute(db);
  await sql`CREATE INDEX jobs_by_definition ON jobs (definition, seq)`.execute(db);
}
