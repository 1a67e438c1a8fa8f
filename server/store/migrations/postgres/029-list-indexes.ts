import { sql, type Kysely } from 'kysely';

/**
 * SQLite's 029, with names in byte order: a prefix is a range only in the order the index keeps,
 * and the database's default collation is its locale's. PostgreSQL's statistics choose between
 * these and the others, so no condition steers its planner.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX jobs_project_created ON jobs (project, created_at, seq)
    WHERE array_parent IS NULL`.execute(db);
  await sql`CREATE INDEX jobs_project_name ON jobs (project, (name COLLATE "C"), seq)
    WHERE array_parent IS NULL`.execute(db);
}
