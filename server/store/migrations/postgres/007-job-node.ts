import { sql, type Kysely } from 'kysely';

/** The machine a job ran on, for engines with several that say which. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE jobs ADD COLUMN node text`.execute(db);
}
