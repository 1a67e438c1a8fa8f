import { sql, type Kysely } from 'kysely';
import type { Backfill } from '../../sql/backfill';

/**
 * The memory limit each attempt ran with (retry.out_of_memory raises it from one attempt to the
 * next; null in attempts recorded before), and the jobs of a definition newest first, which the
 * right-size hint reads its recent runs from.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE job_attempts ADD COLUMN memory_bytes bigint`.execute(db);
}

/**
 * The index over every stored job, built after `up` has committed and CONCURRENTLY, so that
 * writers to `jobs` go on meanwhile (built in `up`, it held them for seconds at 10⁶ jobs). One
 * left half-built by a killed process is invalid and would stay so: it is dropped and built again.
 */
export const batchedBackfill: Backfill = {
  finish: [
    async (db) => {
      await sql`DROP INDEX CONCURRENTLY IF EXISTS jobs_by_definition`.execute(db);
      await sql`CREATE INDEX CONCURRENTLY jobs_by_definition ON jobs (definition, seq)`.execute(db);
    },
  ],
};
