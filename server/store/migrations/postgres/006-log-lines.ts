import { sql, type Kysely } from 'kysely';

/**
 * The stored tail of a job's output, line by line with each line's stream and time, as JSON.
 * Rows written before keep their text (and read as text without lines).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE job_logs ADD COLUMN lines_json text`.execute(db);
}
