import { sql, type Kysely } from 'kysely';

/**
 * What each queue's ended attempts held, as amount × seconds, summed per time bucket: fair
 * share's decayed past use (server/jobs/fair-share.ts) is read from a few rows per queue, never
 * from the jobs' history. A bucket is added to, never rewritten, so instances write it at once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE share_use (
    queue text NOT NULL,
    bucket_start bigint NOT NULL,
    cpu_seconds double precision NOT NULL,
    memory_byte_seconds double precision NOT NULL,
    gpu_seconds double precision NOT NULL,
    job_seconds double precision NOT NULL,
    PRIMARY KEY (queue, bucket_start)
  )`.execute(db);
}
