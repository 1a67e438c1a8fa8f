import { sql, type Kysely } from 'kysely';

/**
 * The earliest end of a backoff among runnable jobs, asked on every dispatch pass: by the
 * (state, schedule_at) index it read every runnable job, so a queue holding many made each pass
 * (and each job's end, which asks for one) cost in proportion (docs/benchmarks.md, Bulk cancel).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX jobs_state_not_before ON jobs (state, not_before)`.execute(db);
}
