import { sql, type Kysely } from 'kysely';

/**
 * An array's parent submitted with `array.indexes` (only some of 0…size−1 run: a failed array's
 * indexes again): those indexes as JSON, ascending; null for every other job.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE jobs ADD COLUMN array_indexes_json text`.execute(db);
}
