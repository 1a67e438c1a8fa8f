import { sql, type Kysely } from 'kysely';

/**
 * The dispatcher reads the pending jobs that wait for others on every full tick: a partial
 * index holds those alone, so the read does not walk every scheduled job as well.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX jobs_waiting_on_others ON jobs (seq)
    WHERE state = 'pending' AND depends_json IS NOT NULL`.execute(db);
}
