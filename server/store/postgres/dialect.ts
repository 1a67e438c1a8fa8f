import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { postgresMigrations } from '../migrations/postgres';
import type { Database } from '../schema';
import type { StoreDialect } from '../sql/dialect';
import { insertJobsAndTransitions } from './admission';
import { moveJobsAndTransitions } from './moves';
import { readChangeHorizon } from './change-horizon';

// Advisory lock keys: arbitrary, fixed, and scoped to the database by PostgreSQL itself.
const MIGRATION_LOCK = 0x10bdec_01;
const CLAIM_LOCK = 0x10bdec_02;
const PRUNE_LOCK = 0x10bdec_03;
/** With a second key per scope (its hash): creates in different projects do not wait. */
const LIMIT_LOCK = 0x10bdec_04;

const UNIQUE_VIOLATION = '23505';
const MIGRATION_LOCK_RETRY_MS = 100;

async function tryMigrationLock(connection: Kysely<Database>): Promise<boolean> {
  const { rows } = await sql<{
    locked: boolean;
  }>`SELECT pg_try_advisory_lock(${MIGRATION_LOCK}) AS locked`.execute(connection);
  return rows[0]?.locked === true;
}

export const postgresStoreDialect: StoreDialect = {
  migrations: postgresMigrations,
  // A session lock, so it is held on one connection for the whole run; a process killed while
  // holding it loses its session, and the lock with it. Tried, not waited for: a process waiting
  // in pg_advisory_lock holds a snapshot, which a backfill's CREATE INDEX CONCURRENTLY waits
  // out, and the two would deadlock.
  withMigrationLock: (db, work) =>
    db.connection().execute(async (connection) => {
      while (!(await tryMigrationLock(connection))) await sleep(MIGRATION_LOCK_RETRY_MS);
      try {
        return await work(connection);
      } finally {
        await sql`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`.execute(connection);
      }
    }),
  // A batch holds only its own rows: writers of other rows go on meanwhile.
  backfillPauseMs: 0,
  // Released at commit or rollback. One lock for all queues: the service-wide limit spans them.
  serializeClaims: async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(${CLAIM_LOCK})`.execute(trx);
  },
  locksRowsRead: true,
  serializePruning: async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(${PRUNE_LOCK})`.execute(trx);
  },
  // READ COMMITTED lets two transactions count the same rows and both insert: one at a time.
  serializeLimit: async (trx, scope) => {
    await sql`SELECT pg_advisory_xact_lock(${LIMIT_LOCK}, hashtext(${scope}))`.execute(trx);
  },
  // Plain DELETE: autovacuum marks the rows' space free and new rows reuse it; the files do not
  // shrink (VACUUM FULL would, locking the tables while it rewrites them).
  reclaimSpace: () => Promise.resolve(0),
  isUniqueViolation: (error, index) =>
    error instanceof pg.DatabaseError &&
    error.code === UNIQUE_VIOLATION &&
    error.constraint === index.name,
  storableText: (text) => text.replaceAll('\0', '\uFFFD'),
  bytewise: (column) => sql<string>`${sql.ref(column)} COLLATE "C"`,
  plansByStatistics: true,
  readChangeHorizon,
  insertJobsAndTransitions,
  moveJobsAndTransitions,
};
