import { sql, type Kysely } from 'kysely';

/**
 * 015's one row a project, updated by every batch that keeps output, held each batch's
 * transaction behind the others' until their durable commits (370 waits past 20 ms in a
 * 10,000-job run of eight instances, docs/benchmarks.md). As 048 does for the finished counts,
 * each connection now adds to a shard of its own (the column's default) and the total is the
 * sum. The table holds a row or a few a project: its rewrite and new key take no time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE project_output ADD COLUMN shard integer NOT NULL DEFAULT 0`.execute(db);
  await sql`ALTER TABLE project_output ALTER COLUMN shard SET DEFAULT pg_backend_pid() % 64`.execute(
    db,
  );
  await sql`ALTER TABLE project_output DROP CONSTRAINT project_output_pkey`.execute(db);
  await sql`ALTER TABLE project_output ADD PRIMARY KEY (project, shard)`.execute(db);
}
