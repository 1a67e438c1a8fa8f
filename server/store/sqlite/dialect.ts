import {
  sql,
  CompiledQuery,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Kysely,
  type Driver,
  type SqliteDialectConfig,
} from 'kysely';
import { sqliteMigrations } from '../migrations/sqlite';
import type { StoreDialect } from '../sql/dialect';
import type { Database } from '../schema';

/**
 * Free pages given back per call, in one write transaction: each is moved or cut off while the
 * write lock is held, so a call is kept about as short as a batch of deletes.
 */
const RECLAIM_PAGES = 512;
/** Text, not built by Kysely: the event streams' change feed asks after every commit. */
const LAST_CHANGE_SQL = 'SELECT max(seq) AS last FROM job_transitions';
/** PRAGMA auto_vacuum's value for INCREMENTAL. */
export const INCREMENTAL_AUTO_VACUUM = 2;

async function pragmaNumber(db: Kysely<Database>, pragma: string): Promise<number> {
  const { rows } = await sql<Record<string, number>>`PRAGMA ${sql.raw(pragma)}`.execute(db);
  return Number(Object.values(rows[0] ?? {})[0] ?? 0);
}

/**
 * A file in incremental auto-vacuum mode (every file created since 020; an older one after
 * `jobdeck prune --vacuum`) keeps its free pages at the end until asked: this gives some back.
 * A file in another mode keeps them, and new rows reuse them.
 */
async function reclaimFreePages(db: Kysely<Database>): Promise<number> {
  if ((await pragmaNumber(db, 'auto_vacuum')) !== INCREMENTAL_AUTO_VACUUM) return 0;
  const free = await pragmaNumber(db, 'freelist_count');
  if (free === 0) return 0;
  // The driver steps a statement that returns no rows once, and each step of the pragma gives
  // back one page: so one call per page.
  await db.transaction().execute(async (trx) => {
    for (let page = 0; page < Math.min(free, RECLAIM_PAGES); page += 1) {
      await sql`PRAGMA incremental_vacuum`.execute(trx);
    }
  });
  const given = free - (await pragmaNumber(db, 'freelist_count'));
  return given * (await pragmaNumber(db, 'page_size'));
}

/**
 * Every transaction of the store writes, so each takes SQLite's write lock when it begins
 * (Kysely's driver says BEGIN, which waits until the first write): a transaction that read
 * first and then found another process had written meanwhile would fail with SQLITE_BUSY
 * instead of waiting, and a claim's count could be stale by the time it moves jobs.
 */
class ImmediateTransactionDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  /**
   * SQLite rolls a transaction back by itself when a write fails for want of disk (or memory):
   * the rollback that follows would fail with "no transaction is active" and hide the real error.
   */
  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await super.rollbackTransaction(connection);
    } catch (error) {
      if (!(error instanceof Error && /no transaction is active/.test(error.message))) throw error;
    }
  }
}

export class ImmediateTransactionDialect extends SqliteDialect {
  constructor(private readonly config: SqliteDialectConfig) {
    super(config);
  }

  override createDriver(): Driver {
    return new ImmediateTransactionDriver(this.config);
  }
}

export const sqliteStoreDialect: StoreDialect = {
  migrations: sqliteMigrations,
  // Each migration's BEGIN IMMEDIATE is the lock: its re-read of schema_migrations sees all commits.
  withMigrationLock: (db, work) => work(db),
  // A writer waiting for the write lock tries again every 100 ms at most (SQLite's busy
  // handler): a backfill that took the lock straight back after each batch would starve it.
  backfillPauseMs: 150,
  // BEGIN IMMEDIATE already holds the database's single write lock for the whole claim.
  serializeClaims: async () => {},
  // One writer: a claim's BEGIN IMMEDIATE keeps every other write out until its commit.
  locksRowsRead: false,
  // BEGIN IMMEDIATE: one writer at a time already.
  serializePruning: async () => {},
  // BEGIN IMMEDIATE: the count and the insert hold the write lock together.
  serializeLimit: async () => {},
  reclaimSpace: reclaimFreePages,
  // SQLite names the columns, not the index: "UNIQUE constraint failed: jobs.queue, jobs.name".
  isUniqueViolation: (error, index) =>
    error instanceof Error &&
    'code' in error &&
    error.code === 'SQLITE_CONSTRAINT_UNIQUE' &&
    error.message.endsWith(index.columns.map((column) => `${index.table}.${column}`).join(', ')),
  storableText: (text) => text,
  // BINARY, SQLite's default, is already byte order.
  bytewise: (column) => sql<string>`${sql.ref(column)}`,
  // Nothing runs ANALYZE on the store.
  plansByStatistics: false,
  // One writer at a time, from BEGIN IMMEDIATE to COMMIT: a seq is taken and committed before
  // the next transaction takes one, so commit order is seq order and what a read sees of the
  // changes is everything up to its newest seq. Nothing is ever under way below it.
  readChangeHorizon: async (db) => {
    const { rows } = await db.executeQuery<{ last: number | null }>(
      CompiledQuery.raw(LAST_CHANGE_SQL),
    );
    return { last: Number(rows[0]?.last ?? 0), holdersBelow: 0n, endedBelow: 0n };
  },
};
