import type { Kysely } from 'kysely';
import type { Store } from '../ports';
import type { Database } from '../schema';
import type { StoreDialect } from './dialect';
import { SqlJobStore } from './job-store';
import { SqlKeyStore } from './key-store';
import { SqlMetaStore } from './meta-store';
import { migrate } from './migrate';

/** Brings the schema up to date, then hands out the stores over one Kysely instance. */
export async function openSqlStore(db: Kysely<Database>, dialect: StoreDialect): Promise<Store> {
  let migrated: string[];
  try {
    migrated = await migrate(db, dialect);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  const jobs = new SqlJobStore(db, dialect);
  return {
    jobs,
    sealedEnv: jobs,
    keys: new SqlKeyStore(db),
    meta: new SqlMetaStore(db),
    migrated,
    close: () => db.destroy(),
  };
}
