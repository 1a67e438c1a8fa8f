import { sql, type Kysely } from 'kysely';

/** The states a job ends in, spelled out for the triggers (contract/states.ts's FINAL_STATES). */
export const FINAL_STATES_SQL = sql.raw(`('completed', 'failed', 'timeout', 'cancelled', 'error')`);

/**
 * A dependency's judgement outlives the job it names: each edge keeps the state that job ended
 * in, written by a trigger in the transaction of that end (whichever code path made it), so
 * retention can delete the job without a job waiting on it losing what it had met. The column
 * is new and nullable and nothing is backfilled: an edge of a job that waits now is judged as
 * before, and retention keeps the job it names while that edge holds no end (sql/jobs/retention.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE job_dependencies ADD COLUMN ended_state text`.execute(db);
  await sql`CREATE TRIGGER jobs_dependency_ends AFTER UPDATE OF state ON jobs
    WHEN OLD.state IS NOT NEW.state AND NEW.state IN ${FINAL_STATES_SQL}
    BEGIN
      UPDATE job_dependencies SET ended_state = NEW.state
        WHERE depends_on = NEW.id AND ended_state IS NULL;
    END`.execute(db);
}
