import { sql, type Kysely } from 'kysely';

/**
 * Keys get a role, an optional expiry, who made them and when they were last used. Keys made
 * before roles existed keep every right they had: admin.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE api_keys ADD COLUMN role text NOT NULL DEFAULT 'admin'`.execute(db);
  await sql`ALTER TABLE api_keys ADD COLUMN expires_at bigint`.execute(db);
  await sql`ALTER TABLE api_keys ADD COLUMN last_used_at bigint`.execute(db);
  await sql`ALTER TABLE api_keys ADD COLUMN created_by text`.execute(db);
}
