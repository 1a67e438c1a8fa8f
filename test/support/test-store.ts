import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createMigratedDatabase, postgresFilesAtRest } from './postgres';

const sqliteFilesIn = (dataDir: string) =>
  readdirSync(dataDir)
    .filter((file) => file.startsWith('jobdeck.sqlite'))
    .map((file) => join(dataDir, file));

/**
 * The store a test service runs on: `JOBDECK_TEST_STORE=postgres` gives each service a fresh
 * database in the run's throw-away cluster; unset (or `sqlite`), the embedded default.
 */
export interface TestStore {
  /** Configuration keys to add to the service's file. */
  settings: Record<string, unknown>;
  /** The files that hold the service's data at rest, for checks that nothing leaks into them. */
  filesAtRest(dataDir: string): Promise<string[]>;
}

export async function testStore(): Promise<TestStore> {
  const type = process.env.JOBDECK_TEST_STORE ?? 'sqlite';
  if (type === 'postgres') {
    const url = await createMigratedDatabase();
    return {
      settings: { store: { type: 'postgres', url } },
      async filesAtRest(dataDir) {
        // A service that fell back to the default store would pass every check on the wrong one.
        if (sqliteFilesIn(dataDir).length > 0) throw new Error(`a SQLite file in ${dataDir}`);
        return postgresFilesAtRest(url);
      },
    };
  }
  if (type !== 'sqlite')
    throw new Error(`JOBDECK_TEST_STORE: "${type}" is neither sqlite nor postgres`);
  return {
    settings: {},
    filesAtRest: async (dataDir) => sqliteFilesIn(dataDir),
  };
}
