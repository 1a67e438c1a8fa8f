import { sql, type Kysely } from 'kysely';

/**
 * Retries: a job's strategy, the attempt it is on and when a waiting one may start; and each
 * attempt that ended, with the newest part of its output when another attempt followed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE jobs ADD COLUMN retry_json text`.execute(db);
  await sql`ALTER TABLE jobs ADD COLUMN attempt integer NOT NULL DEFAULT 1`.execute(db);
  await sql`ALTER TABLE jobs ADD COLUMN not_before integer`.execute(db);
  await sql`CREATE TABLE job_attempts (
    job_id text NOT NULL,
    attempt integer NOT NULL,
    state text NOT NULL,
    exit_code integer,
    reason text NOT NULL,
    note text,
    node text,
    started_at integer,
    finished_at integer NOT NULL,
    retried integer NOT NULL,
    output blob,
    truncated integer NOT NULL DEFAULT 0,
    PRIMARY KEY (job_id, attempt)
  )`.execute(db);
}
