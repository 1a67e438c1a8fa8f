import { sql, type Kysely } from 'kysely';

/** SQLite's 033: the list's `id_suffix` filter, by the last 6 digits of a job's id. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX jobs_id_end ON jobs ((substr(id, 31)), project)
    WHERE array_parent IS NULL`.execute(db);
}
