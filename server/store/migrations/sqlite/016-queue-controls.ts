import { sql, type Kysely } from 'kysely';

/**
 * A queue's pause and slot limit as operators set them, shared by every instance. The
 * configuration's `paused` is the state when the store first sees the queue; `max_running` null
 * means the configured one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE queue_controls (
    ref text PRIMARY KEY,
    paused integer NOT NULL,
    paused_reason text,
    max_running integer,
    changed_at bigint,
    changed_by text
  )`.execute(db);
}
