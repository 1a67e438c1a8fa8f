import { sql, type Kysely } from 'kysely';

/**
 * The list's `id_suffix` filter: a job by the end of its id, the console's short form. Ids are
 * UUIDv7, whose random digits are at the end; the last 6 (the fewest the filter takes) are the
 * index's key, the rest of a longer suffix compared on the few rows it finds. The end leads, the
 * project follows: led by the project, SQLite's planner took it for lists filtered by state too.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX jobs_id_end ON jobs (substr(id, 31), project)
    WHERE array_parent IS NULL`.execute(db);
}
