import { sql, type Kysely } from 'kysely';

/**
 * What each attempt of a job used (server/jobs/usage-sampler.ts): one row per attempt, rewritten
 * by every sample, kept with the job until retention deletes it. Its own table, not columns of
 * job_attempts: those rows are written once, as an attempt ends, and only for jobs with retries.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE job_usage (
    job_id text NOT NULL,
    attempt integer NOT NULL,
    peak_memory_bytes bigint NOT NULL,
    peak_exact integer NOT NULL,
    cpu_nanos bigint NOT NULL,
    memory_limit_bytes bigint NOT NULL,
    cpus double precision NOT NULL,
    samples integer NOT NULL,
    sampled_at bigint NOT NULL,
    PRIMARY KEY (job_id, attempt)
  )`.execute(db);
}
