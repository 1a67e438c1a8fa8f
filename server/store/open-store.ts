import { resolve } from 'node:path';
import { DATABASE_URL_VARIABLE, type JobdeckConfig } from '../config/schema';
import { StartupError } from '../errors/startup-error';
import type { Store } from './ports';
import { backupSqliteFile } from './sqlite/backup';

type StoreConfig = Pick<JobdeckConfig, 'store' | 'data_dir'>;

/** The store as an admin would name it, without a password that the URL may hold. */
function nameOf(config: StoreConfig): string {
  if (config.store.type === 'sqlite') return resolve(config.data_dir, config.store.path);
  if (!URL.canParse(config.store.url)) return 'store.url (not a URL)';
  const url = new URL(config.store.url);
  if (url.password) url.password = '***';
  return url.toString();
}

/**
 * The one place that picks a driver: everything else sees only the Store ports. A store that
 * cannot be opened (server down, wrong password, unwritable file) is the admin's to fix, so it
 * is reported as a start-up error: what, where and what to check, no stack trace.
 */
export async function openStore(config: StoreConfig): Promise<Store> {
  try {
    return await openDriver(config);
  } catch (error) {
    throw new StartupError(
      `store: cannot open ${nameOf(config)}: ${(error as Error).message}; ${whatToCheck(config)}`,
    );
  }
}

function whatToCheck(config: StoreConfig): string {
  return config.store.type === 'sqlite'
    ? 'check that data_dir and store.path name a writable SQLite file'
    : `check that PostgreSQL runs there and accepts these credentials (store.url or ${DATABASE_URL_VARIABLE})`;
}

/** Only the configured driver's modules are loaded (the PostgreSQL client costs start-up time). */
async function openDriver(config: StoreConfig): Promise<Store> {
  switch (config.store.type) {
    case 'sqlite': {
      const { openSqliteStore } = await import('./sqlite/open');
      return openSqliteStore(resolve(config.data_dir, config.store.path));
    }
    case 'postgres': {
      const { openPostgresStore } = await import('./postgres/open');
      return openPostgresStore(config.store.url, config.store.pool_size);
    }
  }
}

/**
 * `jobdeck backup FILE`: a consistent copy of the store, taken while the service runs. SQLite's
 * file is copied with its online backup API, as it is (nothing migrated). A PostgreSQL database
 * has its own tools for that, which know its roles, its versions and its point-in-time recovery.
 */
export async function backupStore(config: StoreConfig, file: string): Promise<string> {
  if (config.store.type === 'postgres') {
    throw new StartupError(
      `backup: the store is PostgreSQL (${nameOf(config)}); back it up with pg_dump (e.g. pg_dump -Fc -f jobdeck.dump "$${DATABASE_URL_VARIABLE}")`,
    );
  }
  const source = nameOf(config);
  try {
    await backupSqliteFile(source, file);
  } catch (error) {
    throw new StartupError(`backup: ${(error as Error).message}`);
  }
  return source;
}
