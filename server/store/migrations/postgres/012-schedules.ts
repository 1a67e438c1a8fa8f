import { sql, type Kysely } from 'kysely';

/**
 * Recurring schedules: whether each is paused and the last time it fired (shared by every
 * instance), and each firing, keyed by its time, so that one firing submits one job however many
 * instances fire it at once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE schedules (
    ref text PRIMARY KEY,
    paused integer NOT NULL,
    paused_reason text,
    last_fired_at bigint NOT NULL
  )`.execute(db);
  await sql`CREATE TABLE schedule_firings (
    schedule text NOT NULL,
    fire_at bigint NOT NULL,
    job_id text,
    note text,
    PRIMARY KEY (schedule, fire_at)
  )`.execute(db);
}
