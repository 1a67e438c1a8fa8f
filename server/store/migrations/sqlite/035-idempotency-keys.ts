import { sql, type Kysely } from 'kysely';

/**
 * Job Submit's Idempotency-Key: one row per key and project, written in the transaction that
 * stores the job it made (store/sql/jobs/idempotency.ts). The primary key decides between two
 * submits racing with one key; `request_digest` is a keyed HMAC of the request, never the body.
 * Retention deletes rows past `expires_at`, oldest first.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE idempotency_keys (
    project text NOT NULL,
    idempotency_key text NOT NULL,
    request_digest text NOT NULL,
    job_id text NOT NULL,
    created_at bigint NOT NULL,
    expires_at bigint NOT NULL,
    PRIMARY KEY (project, idempotency_key)
  )`.execute(db);
  await sql`CREATE INDEX idempotency_keys_by_expiry ON idempotency_keys (expires_at)`.execute(db);
}
