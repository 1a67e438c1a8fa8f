import { sql, type Kysely } from 'kysely';

/**
 * An ended job's whole output (up to job_output.max_bytes_per_job), compressed, with what was
 * kept of what it printed; each row counted against its project's budget, the oldest dropped
 * first. Rows written before are counted too, as large as their text, as old as their job's end.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE job_logs ADD COLUMN output bytea`.execute(db);
  await sql`ALTER TABLE job_logs ADD COLUMN project text`.execute(db);
  await sql`ALTER TABLE job_logs ADD COLUMN stored_bytes bigint NOT NULL DEFAULT 0`.execute(db);
  await sql`ALTER TABLE job_logs ADD COLUMN saved_at bigint NOT NULL DEFAULT 0`.execute(db);
  for (const column of ['kept_lines', 'kept_bytes', 'printed_lines', 'printed_bytes']) {
    await sql`ALTER TABLE job_logs ADD COLUMN ${sql.raw(column)} bigint`.execute(db);
  }
  await sql`UPDATE job_logs SET
    project = (SELECT project FROM jobs WHERE jobs.id = job_logs.job_id),
    saved_at = COALESCE((SELECT finished_at FROM jobs WHERE jobs.id = job_logs.job_id), 0),
    stored_bytes = length(text) + COALESCE(length(lines_json), 0)`.execute(db);
  await sql`CREATE INDEX job_logs_project_saved ON job_logs (project, saved_at)`.execute(db);
}
