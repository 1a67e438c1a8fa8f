import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { MetaStore } from '../ports';
import type { Database } from '../schema';

export class SqlMetaStore implements MetaStore {
  constructor(private readonly db: Kysely<Database>) {}

  async storeId() {
    // Two instances opening a new store at once both try; the first insert wins for both.
    await this.db
      .insertInto('meta')
      .values({ key: 'store_id', value: randomUUID() })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    const row = await this.db
      .selectFrom('meta')
      .select('value')
      .where('key', '=', 'store_id')
      .executeTakeFirstOrThrow();
    return row.value;
  }

  async changedDefinitions(current: ReadonlyMap<string, string>) {
    const pinned = await this.db.selectFrom('definition_fingerprints').selectAll().execute();
    return pinned
      .filter((row) => current.has(row.ref) && current.get(row.ref) !== row.fingerprint)
      .map((row) => row.ref);
  }
}
