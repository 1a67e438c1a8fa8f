import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from './schema';

/**
 * A random id for this store, put on every container it creates: several Jobdeck stores
 * (tests, staging) can share one engine without adopting each other's containers.
 */
export async function storeId(db: Kysely<Database>): Promise<string> {
  await db
    .insertInto('meta')
    .values({ key: 'store_id', value: randomUUID() })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db
    .selectFrom('meta')
    .select('value')
    .where('key', '=', 'store_id')
    .executeTakeFirstOrThrow();
  return row.value;
}

/** Definition versions are immutable once used: the refs whose content changed since first use. */
export async function changedDefinitions(
  db: Kysely<Database>,
  current: ReadonlyMap<string, string>,
): Promise<string[]> {
  const pinned = await db.selectFrom('definition_fingerprints').selectAll().execute();
  return pinned
    .filter((row) => current.has(row.ref) && current.get(row.ref) !== row.fingerprint)
    .map((row) => row.ref);
}
