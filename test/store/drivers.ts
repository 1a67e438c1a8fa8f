import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll } from 'vitest';
import type { JobdeckConfig } from '../../server/config/schema';
import { openStore } from '../../server/store/open-store';
import { bundledScript } from '../support/bundled-script';
import { createDatabase, createMigratedDatabase } from '../support/postgres';
import type { StoreConfig } from './beside';

/** Every driver the contract suite runs over, each giving the configuration of a new store. */
export interface StoreDriver {
  name: JobdeckConfig['store']['type'];
  /** At the newest schema, with no rows: a copy of a store migrated once per test file. */
  fresh(): Promise<StoreConfig>;
  /** With no tables at all, for the tests of the migrations themselves. */
  empty(): Promise<StoreConfig>;
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

const emptySqlite = (): StoreConfig => ({
  store: { type: 'sqlite', path: 'jobdeck.sqlite' },
  data_dir: dataDir(),
});

let migratedSqlite: Promise<StoreConfig> | undefined;

/** The migrated SQLite file copied (a quarter of the CPU of migrating a new one each time). */
async function freshSqlite(): Promise<StoreConfig> {
  migratedSqlite ??= (async () => {
    const template = emptySqlite();
    await (await openStore(template)).close();
    return template;
  })();
  const template = await migratedSqlite;
  const copy = emptySqlite();
  // Closed, the file holds everything (its write-ahead log, if any, goes with it).
  for (const file of readdirSync(template.data_dir).filter((name) =>
    name.startsWith('jobdeck.sqlite'),
  ))
    copyFileSync(join(template.data_dir, file), join(copy.data_dir, file));
  return copy;
}

const postgresStore = (url: string): StoreConfig => ({
  store: { type: 'postgres', url, pool_size: 4 },
  data_dir: dataDir(),
});

export const DRIVERS: StoreDriver[] = [
  { name: 'sqlite', fresh: freshSqlite, empty: async () => emptySqlite() },
  {
    name: 'postgres',
    fresh: async () => postgresStore(await createMigratedDatabase()),
    empty: async () => postgresStore(await createDatabase()),
  },
];

const WORKER = resolve(import.meta.dirname, 'store-worker.ts');

export interface WorkerExit {
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs store-worker.ts (bundled) in a process of its own (a real second client of the store, with
 * its own connections), resolving when it exits, however it exits.
 */
export async function runWorker(
  config: StoreConfig,
  args: string[],
  env: NodeJS.ProcessEnv = {},
  /** Told the worker's process id once it is spawned (to signal it). */
  spawned?: (pid: number) => void,
): Promise<WorkerExit> {
  const worker = await bundledScript(WORKER);
  return new Promise((resolveExit, reject) => {
    const child = execFile(
      process.execPath,
      [worker, JSON.stringify(config), ...args],
      { env: { ...process.env, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        if (error && !error.killed && error.signal === null) {
          reject(new Error(`store worker failed: ${stderr}`));
          return;
        }
        resolveExit({ signal: error?.signal ?? null, stdout, stderr });
      },
    );
    if (child.pid !== undefined) spawned?.(child.pid);
  });
}

export { execBeside, queryBeside, type StoreConfig } from './beside';
