import { sql, type Kysely } from 'kysely';
import { backfillAndIndex } from '../sqlite/031-label-states';

/**
 * SQLite's 031 with a trigger function. The trigger comes before the backfill: creating it waits
 * for the writes under way and holds off new ones until this commits, so no move is missed.
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
  await backfillAndIndex(db);
}
