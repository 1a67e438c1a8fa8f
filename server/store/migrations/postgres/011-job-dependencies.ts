import { sql, type Kysely } from 'kysely';

/**
 * Dependencies: what a job waits for, on its row (read with the job, like its retry strategy),
 * and the same edges keyed by the job waited for, so that "what waits for it" is an index read.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE jobs ADD COLUMN depends_json text`.execute(db);
  await sql`CREATE TABLE job_dependencies (
    depends_on text NOT NULL,
    job_id text NOT NULL,
    type text NOT NULL,
    PRIMARY KEY (depends_on, job_id)
  )`.execute(db);
}
