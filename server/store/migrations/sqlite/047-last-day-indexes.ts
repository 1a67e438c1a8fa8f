import { sql, type Kysely } from 'kysely';

/**
 * Fair share's last day (runsSince in sql/jobs/share-use.ts, each instance once a minute) reads
 * the jobs and the retried attempts that ended since a time: without these it read every job
 * and every attempt stored (docs/benchmarks.md, "The last day's runs"). The jobs holding a slot
 * it also reads are found by 021's index on the state.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX jobs_by_end ON jobs (finished_at)`.execute(db);
  await sql`CREATE INDEX job_attempts_by_end ON job_attempts (finished_at)`.execute(db);
}
