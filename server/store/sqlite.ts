import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { migrate } from './migrate';
import type { Database } from './schema';

/** Opens (creating if needed) the SQLite file in WAL mode and brings its schema up to date. */
export async function openSqlite(file: string): Promise<Kysely<Database>> {
  mkdirSync(dirname(file), { recursive: true });
  const connection = new SqliteDatabase(file);
  connection.pragma('journal_mode = WAL');
  // NORMAL is durable across application crashes in WAL mode; only an OS crash can lose the last commit.
  connection.pragma('synchronous = NORMAL');
  connection.pragma('foreign_keys = ON');
  connection.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: connection }) });
  await migrate(db as unknown as Kysely<unknown>);
  return db;
}
