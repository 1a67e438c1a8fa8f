import { sql, type Kysely } from 'kysely';

/**
 * SQLite's 039: the owner's epoch on every job, the instance that made each transition. A
 * constant default and a nullable column: PostgreSQL (11 on) records both in the catalogue,
 * rewriting no row, so writes to jobs do not wait on it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE jobs ADD COLUMN owner_epoch integer NOT NULL DEFAULT 0`.execute(db);
  await sql`ALTER TABLE job_transitions ADD COLUMN moved_by text`.execute(db);
}
