import { sql, type Kysely } from 'kysely';

/**
 * A project's kept-output total in shards (PostgreSQL's 049 says why); SQLite's single writer
 * keeps one, shard 0. SQLite cannot change a primary key in place: the table is made anew.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE project_output_shards (
    project text NOT NULL,
    shard integer NOT NULL DEFAULT 0,
    stored_bytes bigint NOT NULL,
    PRIMARY KEY (project, shard)
  )`.execute(db);
  await sql`INSERT INTO project_output_shards (project, shard, stored_bytes)
    SELECT project, 0, stored_bytes FROM project_output`.execute(db);
  await sql`DROP TABLE project_output`.execute(db);
  await sql`ALTER TABLE project_output_shards RENAME TO project_output`.execute(db);
}
