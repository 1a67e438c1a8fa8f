import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import type { SqliteDatabase as KyselySqliteDatabase } from 'kysely';

const STATEMENT_CACHE_SIZE = 256;

/**
 * The file holds sealed secrets and key hashes: readable by the service's user only, like the
 * key files. SQLite creates -wal and -shm with the main file's mode; files that an older version
 * created 0644 are tightened here.
 */
function createPrivately(file: string): void {
  mkdirSync(dirname(file), { recursive: true });
  closeSync(openSync(file, 'a', 0o600));
  for (const path of [file, `${file}-wal`, `${file}-shm`]) {
    if (existsSync(path)) chmodSync(path, 0o600);
  }
}

/** Opens (creating if needed) the SQLite file in WAL mode. */
export function openSqliteFile(file: string): SqliteDatabase.Database {
  createPrivately(file);
  const connection = new SqliteDatabase(file);
  // Takes effect only on a file with no table yet: pages that retention frees can then be given
  // back to the file system while the service runs (PRAGMA incremental_vacuum), where a file in
  // the default mode only reuses them. An older file keeps its mode until `jobdeck prune
  // --vacuum` rewrites it (VACUUM: the whole file copied, writers held off meanwhile).
  connection.pragma('auto_vacuum = INCREMENTAL');
  connection.pragma('journal_mode = WAL');
  // NORMAL is durable across application crashes in WAL mode; only an OS crash can lose the last commit.
  connection.pragma('synchronous = NORMAL');
  connection.pragma('foreign_keys = ON');
  connection.pragma('busy_timeout = 5000');
  connection.pragma('cache_size = -32768');
  return connection;
}

/**
 * Kysely's SQLite driver prepares every query anew. Under concurrent submits, prepare was a large
 * share of the service's CPU (profiled with --cpu-prof), so statements are kept by their SQL text.
 * A statement busy iterating (streaming) is never handed out twice.
 */
export function withStatementCache(connection: SqliteDatabase.Database): KyselySqliteDatabase {
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
