import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll } from 'vitest';
import type { JobdeckConfig } from '../../server/config/schema';
import type { StoreConfig } from './beside';
import { createDatabase } from '../support/postgres';

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

export { execBeside, queryBeside, type StoreConfig } from './beside';
