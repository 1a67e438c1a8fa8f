import { sql, type Kysely } from 'kysely';

/**
 * Windows when the engine was unreachable or a queue paused, for the trends: an instance opens
 * one when it sees the engine go and any closes it when it answers again; a pause opens one and
 * its resume closes it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE incidents (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    kind text NOT NULL,
    queue text,
    started_at bigint NOT NULL,
    ended_at bigint,
    note text
  )`.execute(db);
  await sql`CREATE INDEX incidents_by_start ON incidents (started_at)`.execute(db);
  await sql`CREATE INDEX incidents_open ON incidents (kind, queue) WHERE ended_at IS NULL`.execute(
    db,
  );
}
