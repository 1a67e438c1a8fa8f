import { sql, type Kysely } from 'kysely';

/** The instance that claimed a job, so that several instances can share one store later. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE jobs ADD COLUMN owner text`.execute(db);
}
