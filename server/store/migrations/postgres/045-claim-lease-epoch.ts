import { sql, type Kysely } from 'kysely';

/**
 * The dispatcher lease's epoch a claim was fenced by, on the claim's transition (null for every
 * other move): which holder claimed each job is then read from the record itself, exactly.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE job_transitions ADD COLUMN lease_epoch integer`.execute(db);
}
