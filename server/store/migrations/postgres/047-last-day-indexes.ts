import { sql, type Kysely } from 'kysely';
import type { Backfill } from '../../sql/backfill';

/**
 * Fair share's last day (runsSince in sql/jobs/share-use.ts, each instance once a minute) reads
 * the jobs and the retried attempts that ended since a time: without these it read every job
 * and every attempt stored (docs/benchmarks.md, "The last day's runs"). The jobs holding a slot
 * it also reads are found by 021's index on the state. Nothing here holds writers: the indexes
 * are built after it, below.
 */
export async function up(): Promise<void> {}

/** Built CONCURRENTLY, as 042's; one a killed build left invalid is dropped and built again. */
const concurrently = (name: string, on: string) => async (db: Kysely<unknown>) => {
  await sql`DROP INDEX CONCURRENTLY IF EXISTS ${sql.raw(name)}`.execute(db);
  await sql`CREATE INDEX CONCURRENTLY ${sql.raw(name)} ON ${sql.raw(on)}`.execute(db);
};

export const batchedBackfill: Backfill = {
  finish: [
    concurrently('jobs_by_end', 'jobs (finished_at)'),
    concurrently('job_attempts_by_end', 'job_attempts (finished_at)'),
  ],
};
