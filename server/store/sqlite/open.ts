import { Kysely } from 'kysely';
import type { Store } from '../ports';
import type { Database } from '../schema';
import { LocalSignals } from '../local-signals';
import { openSqlStore } from '../sql/sql-store';
import { Checkpointer } from './checkpointer';
import { openSqliteFile, withStatementCache } from './connection';
import { ImmediateTransactionDialect, sqliteStoreDialect } from './dialect';

/** The embedded store: one SQLite file (WAL), one connection, for one process. */
export async function openSqliteStore(file: string): Promise<Store> {
  const db = new Kysely<Database>({
    dialect: new ImmediateTransactionDialect({
      database: withStatementCache(openSqliteFile(file)),
    }),
  });
  const store = await openSqlStore(db, sqliteStoreDialect, new LocalSignals());
  let checkpointer: Checkpointer | undefined;
  return {
    ...store,
    startUpkeep(log) {
      checkpointer ??= new Checkpointer(db, file, log);
    },
    async close() {
      await checkpointer?.close();
      await store.close();
    },
  };
}
