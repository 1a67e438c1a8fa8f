import { sql, type Kysely } from 'kysely';
import * as m001 from './migrations/001-jobs';
import * as m002 from './migrations/002-keys-and-meta';

interface Migration {
  up(db: Kysely<unknown>): Promise<void>;
}

/** Numbered, append-only. Never edit one that has shipped: add the next number. */
const MIGRATIONS: [string, Migration][] = [
  ['001-jobs', m001],
  ['002-keys-and-meta', m002],
];

/**
 * Applies pending migrations, each in its own transaction. Kysely's Migrator runs SQLite
 * migrations with no transaction at all (its adapter reports no transactional DDL, though
 * SQLite has it), so a crash mid-migration would leave a half-built schema.
 */
export async function migrate(db: Kysely<unknown>): Promise<string[]> {
  await sql`CREATE TABLE IF NOT EXISTS schema_migrations (
    name TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)`.execute(db);
  const { rows } = await sql<{ name: string }>`SELECT name FROM schema_migrations`.execute(db);
  const applied = new Set(rows.map((r) => r.name));
  const ran: string[] = [];
  for (const [name, migration] of MIGRATIONS) {
    if (applied.has(name)) continue;
    await db.transaction().execute(async (trx) => {
      await migration.up(trx);
      await sql`INSERT INTO schema_migrations (name, applied_at) VALUES (${name}, ${Date.now()})`.execute(
        trx,
      );
    });
    ran.push(name);
  }
  return ran;
}
