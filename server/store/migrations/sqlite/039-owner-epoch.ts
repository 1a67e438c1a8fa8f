import { sql, type Kysely } from 'kysely';

/**
 * Fencing: a job's owner carries an epoch, raised by every claim and takeover, and an owner's
 * moves are conditional on both (sql/jobs/moves.ts), so an instance taken over while alive
 * changes nothing of the jobs it lost. Each transition names the instance that made it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE jobs ADD COLUMN owner_epoch integer NOT NULL DEFAULT 0`.execute(db);
  await sql`ALTER TABLE job_transitions ADD COLUMN moved_by text`.execute(db);
}
