import { statSync } from 'node:fs';
import { Kysely, sql } from 'kysely';
import type { Store } from '../ports';
import type { Database } from '../schema';
import { LocalSignals } from '../local-signals';
import { openSqlStore } from '../sql/sql-store';
import { Checkpointer } from './checkpointer';
import { openSqliteFile, withStatementCache } from './connection';
import {
  ImmediateTransactionDialect,
  INCREMENTAL_AUTO_VACUUM,
  sqliteStoreDialect,
} from './dialect';

/** How often a vacuum asks for the checkpoint that gives the space back (20 ms apart). */
const CHECKPOINT_TRIES = 250;

/** The embedded store: one SQLite file (WAL), one connection, for one process. */
export async function openSqliteStore(file: string): Promise<Store> {
  const db = new Kysely<Database>({
    dialect: new ImmediateTransactionDialect({
      database: withStatementCache(openSqliteFile(file)),
    }),
  });
  const store = await openSqlStore(db, sqliteStoreDialect, new LocalSignals());
  let checkpointer: Checkpointer | undefined;
  const autoVacuum = async () =>
    (await sql<{ auto_vacuum: number }>`PRAGMA auto_vacuum`.execute(db)).rows[0]?.auto_vacuum;
  return {
    ...store,
    startUpkeep(log) {
      checkpointer ??= new Checkpointer(db, file, log);
      void autoVacuum().then((mode) => {
        if (mode !== INCREMENTAL_AUTO_VACUUM) {
          log.info(
            'store: this SQLite file predates incremental vacuum: space that retention frees is reused for new jobs but not given back to the file system until `jobdeck prune --vacuum` (once, with the service stopped)',
          );
        }
      });
    },
    async vacuum() {
      const beforeBytes = statSync(file).size;
      // The mode of an existing file changes only when VACUUM rewrites it.
      await sql`PRAGMA auto_vacuum = INCREMENTAL`.execute(db);
      await sql`VACUUM`.execute(db);
      // The rewrite sits in the WAL until a checkpoint copies it back and truncates the file;
      // the checkpointer's own connection may hold the WAL a moment (busy): try again.
      for (let tries = 0; tries < CHECKPOINT_TRIES; tries += 1) {
        const checkpoint = await sql<{ busy: number }>`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db);
        if (!checkpoint.rows[0]?.busy) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return { beforeBytes, afterBytes: statSync(file).size };
    },
    async close() {
      await checkpointer?.close();
      await store.close();
    },
  };
}
