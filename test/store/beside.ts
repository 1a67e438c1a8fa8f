/**
 * Reads and writes a store beside its service, on a connection of its own: what a call really
 * left, or a state a test starts from. Free of the test runner, so a by-hand figure uses it too.
 */
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import type { JobdeckConfig } from '../../server/config/schema';

export type StoreConfig = Pick<JobdeckConfig, 'store' | 'data_dir'>;

/** Reads the store's rows beside it, on its own connection: what a call really left. */
export function queryBeside<T>(config: StoreConfig, text: string): Promise<T[]> {
  return beside(config, text, 'query') as Promise<T[]>;
}

/** Runs statements on the store beside it, on its own connection: a state a test starts from. */
export async function execBeside(config: StoreConfig, statements: string): Promise<void> {
  await beside(config, statements, 'exec');
}

async function beside(config: StoreConfig, text: string, as: 'query' | 'exec') {
  if (config.store.type === 'sqlite') {
    const db = new SqliteDatabase(join(config.data_dir, config.store.path), {
      readonly: as === 'query',
    });
    try {
      return as === 'query' ? db.prepare(text).all() : db.exec(text);
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: config.store.url });
  await client.connect();
  try {
    return (await client.query(text)).rows as unknown[];
  } finally {
    await client.end();
  }
}
