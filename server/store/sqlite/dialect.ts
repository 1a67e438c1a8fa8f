import {
  CompiledQuery,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type SqliteDialectConfig,
} from 'kysely';
import { sqliteMigrations } from '../migrations/sqlite';
import type { StoreDialect } from '../sql/dialect';

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
  // BEGIN IMMEDIATE already holds the database's single write lock for the whole claim.
  serializeClaims: async () => {},
  // SQLite names the columns, not the index: "UNIQUE constraint failed: jobs.queue, jobs.name".
  isUniqueViolation: (error, index) =>
    error instanceof Error &&
    'code' in error &&
    error.code === 'SQLITE_CONSTRAINT_UNIQUE' &&
    error.message.endsWith(index.columns.map((column) => `${index.table}.${column}`).join(', ')),
  storableText: (text) => text,
};
