import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { afterAll } from 'vitest';
import type { JobdeckConfig } from '../../server/config/schema';
import { createDatabase } from '../support/postgres';

export type StoreConfig = Pick<JobdeckConfig, 'store' | 'data_dir'>;

/** Every driver the contract suite runs over: each gives the configuration of a new, empty store. */
export interface StoreDriver {
  name: JobdeckConfig['store']['type'];
  fresh(): Promise<StoreConfig>;
}

const dataDirs: string[] = [];
afterAll(() => {
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'jobdeck-store-'));
  dataDirs.push(dir);
  return dir;
}

export const DRIVERS: StoreDriver[] = [
  {
    name: 'sqlite',
    fresh: async () => ({ store: { type: 'sqlite', path: 'jobdeck.sqlite' }, data_dir: dataDir() }),
  },
  {
    name: 'postgres',
    fresh: async () => ({
      store: { type: 'postgres', url: await createDatabase(), pool_size: 4 },
      data_dir: dataDir(),
    }),
  },
];

const WORKER = resolve(import.meta.dirname, 'store-worker.ts');

export interface WorkerExit {
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs store-worker.ts in a process of its own (a real second client of the store, with its own
 * connections), resolving when it exits, however it exits.
 */
export function runWorker(
  config: StoreConfig,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<WorkerExit> {
  return new Promise((resolveExit, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', WORKER, JSON.stringify(config), ...args],
      { env: { ...process.env, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        if (error && !error.killed && error.signal === null) {
          reject(new Error(`store worker failed: ${stderr}`));
          return;
        }
        resolveExit({ signal: error?.signal ?? null, stdout, stderr });
      },
    );
  });
}

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
