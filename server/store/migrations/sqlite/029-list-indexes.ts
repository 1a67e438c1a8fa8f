import { sql, type Kysely } from 'kysely';

/**
 * The job list's two filters that walked every job: a time range, by the sequence numbers of the
 * jobs created at each end of it (server/store/sql/jobs/time-window.ts), and a name prefix, as a
 * range of names. Only the jobs the list shows (an array's children are listed under it).
 * `IS NOT NULL` on a column that is never null keeps each index to the queries that compare that
 * column: SQLite, which keeps no statistics here, took the name index for a list by state too.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX jobs_project_created ON jobs (project, created_at, seq)
    WHERE array_parent IS NULL AND created_at IS NOT NULL`.execute(db);
  await sql`CREATE INDEX jobs_project_name ON jobs (project, name, seq)
    WHERE array_parent IS NULL AND name IS NOT NULL`.execute(db);
}
