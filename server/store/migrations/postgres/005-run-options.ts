import { sql, type Kysely } from 'kysely';

/**
 * Per-definition options of how a job runs (user, read-only root, placement), pinned with the
 * rest of its plan at submit time. JSON: each engine reads what applies to it; null reads as none.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE jobs ADD COLUMN run_options_json text`.execute(db);
}
