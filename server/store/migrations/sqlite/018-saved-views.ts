import { sql, type Kysely } from 'kysely';

/** The jobs table's views a project shares, by name. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE saved_views (
    project text NOT NULL,
    name text NOT NULL,
    search text NOT NULL,
    created_by text NOT NULL,
    saved_at bigint NOT NULL,
    PRIMARY KEY (project, name)
  )`.execute(db);
}
