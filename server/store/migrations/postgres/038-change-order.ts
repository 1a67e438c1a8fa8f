import { sql, type Kysely } from 'kysely';

/**
 * A change's seq is taken after its transaction has a transaction number, never before: the
 * change feed's horizon (store/postgres/change-horizon.ts) counts on every holder of a seq being
 * numbered below the next number to be assigned when the seq became visible. A transaction is
 * numbered at its first write, and the seq's default is evaluated before the row is written: a
 * transaction whose first write was a transition would take its seq unnumbered. So the default
 * numbers it first (`pg_current_xact_id()`, which CASE evaluates before the seq).
 *
 * An identity column's default cannot be changed: the column becomes a plain one over a
 * sequence of its own, which goes on from the identity's last number (CACHE 1, as before: a
 * seq is taken in increasing order in time). Metadata only: no row is rewritten.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Writers of transitions wait here (moments): the last number is read with none under way.
  await sql`LOCK TABLE job_transitions IN ACCESS EXCLUSIVE MODE`.execute(db);
  await sql`CREATE SEQUENCE job_transitions_change_seq AS bigint`.execute(db);
  await sql`SELECT setval('job_transitions_change_seq',
    COALESCE(pg_sequence_last_value(pg_get_serial_sequence('job_transitions', 'seq')::regclass), 0) + 1,
    false)`.execute(db);
  await sql`ALTER TABLE job_transitions ALTER COLUMN seq DROP IDENTITY`.execute(db);
  await sql`ALTER SEQUENCE job_transitions_change_seq OWNED BY job_transitions.seq`.execute(db);
  await sql`ALTER TABLE job_transitions ALTER COLUMN seq SET DEFAULT
    CASE WHEN pg_current_xact_id() IS NOT NULL THEN nextval('job_transitions_change_seq') END`.execute(
    db,
  );
}
