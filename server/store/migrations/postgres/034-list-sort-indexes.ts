import { sql, type Kysely } from 'kysely';

/**
 * The job list's sorts (store/sql/jobs/sorted-list.ts) by when a job started, when it ended and
 * how long it ran, each with the seq that breaks its ties, in the index's order so that a page
 * is read, not every matching job sorted; the ended time also serves the `ended_after` and
 * `ended_before` filters. Only jobs with the value: the sort reads those without it apart, and
 * the condition keeps SQLite, which keeps no statistics here, from taking these for other lists.
 * Created is 029's index. State sorts by its place in the lifecycle, the expression
 * sorted-list.ts builds from the states in order, written out here as it was then (an index
 * serves only a query with the same expression): without it, PostgreSQL sorted all 100,000 jobs
 * of a project for a page (526 ms).
 */
const STATE_RANK = sql.raw(`(CASE state
  WHEN 'submitted' THEN 0 WHEN 'pending' THEN 1 WHEN 'runnable' THEN 2 WHEN 'starting' THEN 3
  WHEN 'running' THEN 4 WHEN 'cancelling' THEN 5 WHEN 'cancelled' THEN 6 WHEN 'timeout' THEN 7
  WHEN 'completed' THEN 8 WHEN 'failed' THEN 9 WHEN 'error' THEN 10 END)`);

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX jobs_project_started ON jobs (project, started_at, seq)
    WHERE array_parent IS NULL AND started_at IS NOT NULL`.execute(db);
  await sql`CREATE INDEX jobs_project_finished ON jobs (project, finished_at, seq)
    WHERE array_parent IS NULL AND finished_at IS NOT NULL`.execute(db);
  await sql`CREATE INDEX jobs_project_duration ON jobs (project, (finished_at - started_at), seq)
    WHERE array_parent IS NULL AND (finished_at - started_at) IS NOT NULL`.execute(db);
  // The condition, which only the sort's query holds, keeps SQLite from taking it for others.
  await sql`CREATE INDEX jobs_project_state_rank ON jobs (project, ${STATE_RANK}, seq)
    WHERE array_parent IS NULL AND ${STATE_RANK} IS NOT NULL`.execute(db);
}
