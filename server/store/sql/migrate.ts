import { sql, type Kysely } from 'kysely';
import { failpoint } from '../../jobs/failpoints';
import type { Database } from '../schema';
import { createBackfillTable, owe, runBackfill, type Backfill } from './backfill';
import type { StoreDialect } from './dialect';

/** Numbered, append-only: never edit one that has shipped, add the next number. */
export interface Migration {
  /** `NNN-what`, the same in every dialect: a store's version is the set of names it applied. */
  name: string;
  up(db: Kysely<unknown>): Promise<void>;
  /** Rows that already exist, filled in batches once `up` has committed (sql/backfill.ts). */
  backfill?: Backfill;
}

// Untyped on purpose: these tables come and go with migrations, Database describes the result.
const untyped = (db: Kysely<Database>) => db as unknown as Kysely<unknown>;

/**
 * Applies pending migrations, each in its own transaction, under the dialect's migration lock so
 * that instances starting together migrate once. Kysely's Migrator runs SQLite migrations with no
 * transaction at all (its adapter reports no transactional DDL, though SQLite has it), so a crash
 * mid-migration would leave a half-built schema. Whether a migration is applied is read again
 * inside its transaction, so a process that waited for the lock skips what another just did.
 * A migration's backfill runs right after its schema change (before the next migration), in
 * batches that writers interleave with; the lock only keeps other migrating processes out.
 */
export async function migrate(db: Kysely<Database>, dialect: StoreDialect): Promise<string[]> {
  return dialect.withMigrationLock(db, async (locked) => {
    // applied_at is milliseconds: 64 bits (SQLite files created before PostgreSQL say INTEGER,
    // which in SQLite is 64 bits too).
    await sql`CREATE TABLE IF NOT EXISTS schema_migrations (
      name TEXT PRIMARY KEY, applied_at BIGINT NOT NULL)`.execute(locked);
    await createBackfillTable(untyped(locked));
    const ran: string[] = [];
    for (const migration of dialect.migrations) {
      const applied = await locked.transaction().execute(async (trx) => {
        const { rows } =
          await sql`SELECT 1 FROM schema_migrations WHERE name = ${migration.name}`.execute(trx);
        if (rows.length > 0) return false;
        await migration.up(untyped(trx));
        if (migration.backfill) await owe(untyped(trx), migration.name);
        await sql`INSERT INTO schema_migrations (name, applied_at)
          VALUES (${migration.name}, ${Date.now()})`.execute(trx);
        // Statements done, commit not yet: a kill here must leave the migration to the next start.
        failpoint(`migration:${migration.name}`);
        return true;
      });
      if (applied) ran.push(migration.name);
      // Also when an earlier process applied it and was killed before its fill was done.
      if (migration.backfill) {
        const { name, backfill } = migration;
        await runBackfill(untyped(locked), name, backfill, dialect.backfillPauseMs);
      }
    }
    return ran;
  });
}
