import { hash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { KeyStore } from '../ports';
import type { Database } from '../schema';
import { prepared, type Param } from './prepared';

// One-shot: every request of the API hashes its key, and a Hash object costs twice as much.
const hashOf = (key: string) => hash('sha256', key, 'hex');

/** Keys are 256 random bits, so SHA-256 is enough: a slow hash would buy nothing. */
export class SqlKeyStore implements KeyStore {
  /** Asked by every request of the API. */
  private readonly activeKeyByHash;

  constructor(private readonly db: Kysely<Database>) {
    this.activeKeyByHash = prepared(db, (db, param: Param<{ hash: string }>) =>
      db
        .selectFrom('api_keys')
        .select(['id', 'project'])
        .where('key_hash', '=', param('hash'))
        .where('revoked_at', 'is', null),
    );
  }

  async create(project: string, label: string | null) {
    const key = `jd_${randomBytes(32).toString('base64url')}`;
    const id = `key_${randomBytes(6).toString('hex')}`;
    await this.db
      .insertInto('api_keys')
      .values({
        id,
        project,
        key_hash: hashOf(key),
        label,
        created_at: Date.now(),
        revoked_at: null,
      })
      .execute();
    return { id, key };
  }

  async list() {
    const rows = await this.db.selectFrom('api_keys').selectAll().orderBy('created_at').execute();
    return rows.map((r) => ({
      id: r.id,
      project: r.project,
      label: r.label,
      createdAt: r.created_at,
      revokedAt: r.revoked_at,
    }));
  }

  async revoke(id: string) {
    const result = await this.db
      .updateTable('api_keys')
      .set({ revoked_at: Date.now() })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (result.numUpdatedRows > 0n) return true;
    return (
      (await this.db
        .selectFrom('api_keys')
        .select('id')
        .where('id', '=', id)
        .executeTakeFirst()) !== undefined
    );
  }

  async authenticate(key: string) {
    const [row] = await this.activeKeyByHash(this.db, { hash: hashOf(key) });
    return row && { keyId: row.id, project: row.project };
  }
}
