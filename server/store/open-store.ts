import { resolve } from 'node:path';
import { ConfigError } from '../config/load';
import type { JobdeckConfig } from '../config/schema';
import type { Store } from './ports';
import { openPostgresStore } from './postgres/open';
import { openSqliteStore } from './sqlite/open';

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
 * is reported like a configuration mistake: what and where, no stack trace.
 */
export async function openStore(config: StoreConfig): Promise<Store> {
  try {
    return await openDriver(config);
  } catch (error) {
    throw new ConfigError(`store: cannot open ${nameOf(config)}: ${(error as Error).message}`);
  }
}

function openDriver(config: StoreConfig): Promise<Store> {
  switch (config.store.type) {
    case 'sqlite':
      return openSqliteStore(resolve(config.data_dir, config.store.path));
    case 'postgres':
      return openPostgresStore(config.store.url, config.store.pool_size);
  }
}
