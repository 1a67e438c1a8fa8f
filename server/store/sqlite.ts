import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect, type SqliteDatabase as KyselySqliteDatabase } from 'kysely';
import { migrate } from './migrate';
import type { Database } from './schema';

const STATEMENT_CACHE_SIZE = 256;

/**
 * Kysely's SQLite driver prepares every query anew. Under 64 concurrent submits, prepare was
 * 15% of the service's CPU (profiled with --cpu-prof), so statements are kept by their SQL text.
 * A statement busy iterating (streaming) is never handed out twice.
 */
function withStatementCache(connection: SqliteDatabase.Database): KyselySqliteDatabase {
  const cache = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => connection.close(),
    prepare(sql) {
      const cached = cache.get(sql);
      if (cached && !cached.busy) return cached;
      const statement = connection.prepare(sql);
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      cache.set(sql, statement);
      return statement;
    },
  };
}

/** Opens (creating if needed) the SQLite file in WAL mode and brings its schema up to date. */
export async function openSqlite(file: string): Promise<Kysely<Database>> {
  mkdirSync(dirname(file), { recursive: true });
  const connection = new SqliteDatabase(file);
  connection.pragma('journal_mode = WAL');
  // NORMAL is durable across application crashes in WAL mode; only an OS crash can lose the last commit.
  connection.pragma('synchronous = NORMAL');
  connection.pragma('foreign_keys = ON');
  connection.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(connection) }),
  });
  await migrate(db as unknown as Kysely<unknown>);
  return db;
}
