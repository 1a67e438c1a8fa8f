import { sql, type Kysely } from 'kysely';

/**
 * Retention deletes a finished job with the rows that name it: the dependency edges where it is
 * the one waiting and the schedule firing that submitted it are found by these indexes, not by
 * reading every edge and firing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX job_dependencies_job ON job_dependencies (job_id)`.execute(db);
  await sql`CREATE INDEX schedule_firings_job ON schedule_firings (job_id)
    WHERE job_id IS NOT NULL`.execute(db);
}
