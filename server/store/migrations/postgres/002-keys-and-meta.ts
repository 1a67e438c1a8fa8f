import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE api_keys (
    id text PRIMARY KEY,
    project text NOT NULL,
    key_hash text NOT NULL UNIQUE,
    label text,
    created_at bigint NOT NULL,
    revoked_at bigint
  )`.execute(db);
  await sql`CREATE TABLE meta (key text PRIMARY KEY, value text NOT NULL)`.execute(db);
  await sql`CREATE TABLE definition_fingerprints (
    ref text PRIMARY KEY,
    fingerprint text NOT NULL,
    first_used_at bigint NOT NULL
  )`.execute(db);
}
