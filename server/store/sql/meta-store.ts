import { randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { MetaStore } from '../ports';
import type { Database } from '../schema';

export class SqlMetaStore implements MetaStore {
  constructor(private readonly db: Kysely<Database>) {}

  storeId() {
    return this.createdOnce('store_id', randomUUID);
  }

  async positionKey() {
    return Buffer.from(
      await this.createdOnce('position_key', () => randomBytes(32).toString('hex')),
      'hex',
    );
  }

  /** The value under `key`, made by `make` the first time anyone asks. */
  private async createdOnce(key: string, make: () => string): Promise<string> {
    // Two instances opening a new store at once both try; the first insert wins for both.
    await this.db
      .insertInto('meta')
      .values({ key, value: make() })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    const row = await this.db
      .selectFrom('meta')
      .select('value')
      .where('key', '=', key)
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
