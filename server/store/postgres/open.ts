import { Kysely, PostgresDialect } from 'kysely';
import type { Store } from '../ports';
import type { Database } from '../schema';
import { openSqlStore } from '../sql/sql-store';
import { postgresStoreDialect } from './dialect';
import { createPool } from './pool';
import { PostgresSignals } from './signals';

/** A PostgreSQL database that several instances can share; `poolSize` connections at most. */
export async function openPostgresStore(url: string, poolSize: number): Promise<Store> {
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: createPool(url, poolSize) }),
  });
  const signals = new PostgresSignals(url, db);
  const store = await openSqlStore(db, postgresStoreDialect, signals, { cacheKeys: true });
  try {
    await signals.listen();
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}
