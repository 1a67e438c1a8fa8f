import { resolve } from 'node:path';
import type { JobdeckConfig } from '../config/schema';
import type { Store } from './ports';
import { openPostgresStore } from './postgres/open';
import { openSqliteStore } from './sqlite/open';

/** The one place that picks a driver: everything else sees only the Store ports. */
export async function openStore(config: Pick<JobdeckConfig, 'store' | 'data_dir'>): Promise<Store> {
  switch (config.store.type) {
    case 'sqlite':
      return openSqliteStore(resolve(config.data_dir, config.store.path));
    case 'postgres':
      return openPostgresStore(config.store.url, config.store.pool_size);
  }
}
