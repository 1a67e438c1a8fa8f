import { sql, type Kysely } from 'kysely';
import { FINAL_STATES_SQL } from '../sqlite/032-dependency-ends';

/**
 * SQLite's 032 with a trigger function. Creating the trigger waits for the writes to `jobs`
 * under way and holds new ones only until this commits: no backfill runs meanwhile.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE job_dependencies ADD COLUMN ended_state text`.execute(db);
  await sql`CREATE FUNCTION jobdeck_dependency_ends() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE job_dependencies SET ended_state = NEW.state
        WHERE depends_on = NEW.id AND ended_state IS NULL;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER jobs_dependency_ends AFTER UPDATE OF state ON jobs FOR EACH ROW
    WHEN (OLD.state IS DISTINCT FROM NEW.state AND NEW.state IN ${FINAL_STATES_SQL})
    EXECUTE FUNCTION jobdeck_dependency_ends()`.execute(db);
}
