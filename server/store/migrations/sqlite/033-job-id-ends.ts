import { sql, type Kysely } from 'kysely';

/**
 * The list's `id_suffix` filter: a job by the end of its id, the console's short form. Ids are
 * UUIDv7, whose random digits are at the end; the last 6 (the fewest the filter takes) are the
 * index's key, the rest of a longer suffix compared on the few rows it finds.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX jobs_project_id_end ON jobs (project, substr(id, 31))
    WHERE array_parent IS NULL`.execute(db);
}
