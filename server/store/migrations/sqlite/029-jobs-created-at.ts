import { sql, type Kysely } from 'kysely';

/**
 * The job list's time range: the sequence numbers of the jobs created at each end of the range
 * (server/store/sql/jobs/time-window.ts), found by one probe each instead of walking every job
 * newer than the range. Only the jobs the list shows (an array's children are listed under it).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX jobs_project_created ON jobs (project, created_at, seq)
    WHERE array_parent IS NULL`.execute(db);
}
