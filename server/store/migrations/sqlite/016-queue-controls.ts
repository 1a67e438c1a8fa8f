import { sql, type Kysely } from 'kysely';

/**
 * A queue's pause and slot limit as operators set them, shared by every instance; `max_running`
 * null means the configured one. The configuration's values as last seen are kept too: an edit
 * of them wins over what was set through the API before it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE queue_controls (
    ref text PRIMARY KEY,
    paused integer NOT NULL,
    paused_reason text,
    max_running integer,
    changed_at bigint,
    changed_by text,
    configured_paused integer NOT NULL,
    configured_max_running integer NOT NULL
  )`.execute(db);
}
