import { Kysely } from 'kysely';
import type { Store } from '../ports';
import type { Database } from '../schema';
import { LocalSignals } from '../local-signals';
import { openSqlStore } from '../sql/sql-store';
import { openSqliteFile, withStatementCache } from './connection';
import { ImmediateTransactionDialect, sqliteStoreDialect } from './dialect';

/** The embedded store: one SQLite file (WAL), one connection, for one process. */
export async function openSqliteStore(file: string): Promise<Store> {
  const db = new Kysely<Database>({
    dialect: new ImmediateTransactionDialect({
      database: withStatementCache(openSqliteFile(file)),
    }),
  });
  return openSqlStore(db, sqliteStoreDialect, new LocalSignals());
}
