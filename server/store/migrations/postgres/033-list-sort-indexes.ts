import { sql, type Kysely } from 'kysely';

/**
 * The job list's sorts (store/sql/jobs/sorted-list.ts) by when a job started, when it ended and
 * how long it ran, each with the seq that breaks its ties, in the index's order so that a page
 * is read, not every matching job sorted; the ended time also serves the `ended_after` and
 * `ended_before` filters. Only jobs with the value: the sort reads those without it apart, and
 * the condition keeps SQLite, which keeps no statistics here, from taking these for other lists.
 * Created is 029's index; state is a handful of values, sorted from the filter's matches.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX jobs_project_started ON jobs (project, started_at, seq)
    WHERE array_parent IS NULL AND started_at IS NOT NULL`.execute(db);
  await sql`CREATE INDEX jobs_project_finished ON jobs (project, finished_at, seq)
    WHERE array_parent IS NULL AND finished_at IS NOT NULL`.execute(db);
  await sql`CREATE INDEX jobs_project_duration ON jobs (project, (finished_at - started_at), seq)
    WHERE array_parent IS NULL AND (finished_at - started_at) IS NOT NULL`.execute(db);
}
