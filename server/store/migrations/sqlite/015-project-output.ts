import { sql, type Kysely } from 'kysely';

/**
 * Each project's stored output in bytes, kept up to date by every write to job_logs: checking
 * the budget as a job's output is kept read the sum over all of the project's outputs, a scan
 * that grew with every job ever stored. And the outputs still held, by age, in an index of their
 * own: the oldest to drop were found past every output dropped before, in a project at its budget.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE project_output (
    project text PRIMARY KEY,
    stored_bytes bigint NOT NULL
  )`.execute(db);
  await sql`INSERT INTO project_output (project, stored_bytes)
    SELECT project, sum(stored_bytes) FROM job_logs WHERE project IS NOT NULL GROUP BY project`.execute(
    db,
  );
  await sql`DROP INDEX job_logs_project_saved`.execute(db);
  await sql`CREATE INDEX job_logs_held_by_age ON job_logs (project, saved_at, job_id)
    WHERE stored_bytes > 0`.execute(db);
}
