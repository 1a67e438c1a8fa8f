import { sql, type Kysely } from 'kysely';
import type { Backfill } from '../../sql/backfill';
import { fillStates, STATE_INDEXES } from '../sqlite/031-label-states';

/**
 * SQLite's 031 with a trigger function. The trigger comes before the fill: creating it waits
 * for the writes under way and holds off new ones until this commits (moments), so no move is
 * missed; the rows already stored are filled after, in batches (`batchedBackfill`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE job_labels ADD COLUMN state text NOT NULL DEFAULT ''`.execute(db);
  await sql`CREATE FUNCTION jobdeck_label_states() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE job_labels SET state = NEW.state WHERE job_seq = NEW.seq;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER jobs_label_states AFTER UPDATE OF state ON jobs FOR EACH ROW
    WHEN (OLD.state IS DISTINCT FROM NEW.state AND NEW.labels_json IS NOT NULL)
    EXECUTE FUNCTION jobdeck_label_states()`.execute(db);
}

export const batchedBackfill: Backfill = {
  rows: { table: 'job_labels', key: 'job_seq', fill: fillStates },
  // CONCURRENTLY: built while writers go on (outside any transaction). One left half-built by a
  // killed process is invalid and would stay so: it is dropped and built again.
  finish: Object.entries(STATE_INDEXES).map(([name, columns]) => async (db) => {
    await sql`DROP INDEX CONCURRENTLY IF EXISTS ${sql.raw(name)}`.execute(db);
    await sql`CREATE INDEX CONCURRENTLY ${sql.raw(name)} ON ${columns}`.execute(db);
  }),
};
