import { sql, type Kysely } from 'kysely';

/**
 * Array jobs. A parent has array_size, and what its children wait for (array_links_json: the array
 * each child follows index by index, whether each follows the one before); a child has array_parent and array_index and no command or
 * environment of its own (its parent's are read with it: ten thousand children store one copy).
 * Children are found by parent (in index order; an index is taken once, so an admission resumed
 * after a crash cannot store a child twice), and the unfinished parents, whose states are summed
 * up on every pass, by a partial index that holds those alone.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE jobs ADD COLUMN array_size integer`.execute(db);
  await sql`ALTER TABLE jobs ADD COLUMN array_parent text`.execute(db);
  await sql`ALTER TABLE jobs ADD COLUMN array_index integer`.execute(db);
  await sql`ALTER TABLE jobs ADD COLUMN array_links_json text`.execute(db);
  await sql`CREATE UNIQUE INDEX jobs_array_children ON jobs (array_parent, array_index)
    WHERE array_parent IS NOT NULL`.execute(db);
  await sql`CREATE INDEX jobs_unfinished_arrays ON jobs (seq)
    WHERE array_size IS NOT NULL
      AND state NOT IN ('cancelled', 'timeout', 'completed', 'failed', 'error')`.execute(db);
}
