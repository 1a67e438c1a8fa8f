import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from './schema';

export interface ApiKeyInfo {
  id: string;
  project: string;
  label: string | null;
  createdAt: number;
  revokedAt: number | null;
}

export interface Principal {
  keyId: string;
  project: string;
}

const hashOf = (key: string) => createHash('sha256').update(key).digest('hex');

/** API keys are shown once at creation and stored only as a hash. */
export class KeyStore {
  constructor(private readonly db: Kysely<Database>) {}

  async create(project: string, label: string | null): Promise<{ id: string; key: string }> {
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

  async list(): Promise<ApiKeyInfo[]> {
    const rows = await this.db.selectFrom('api_keys').selectAll().orderBy('created_at').execute();
    return rows.map((r) => ({
      id: r.id,
      project: r.project,
      label: r.label,
      createdAt: r.created_at,
      revokedAt: r.revoked_at,
    }));
  }

  /** Returns false when no such key exists (revoking twice is fine). */
  async revoke(id: string): Promise<boolean> {
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

  async authenticate(key: string): Promise<Principal | undefined> {
    const row = await this.db
      .selectFrom('api_keys')
      .select(['id', 'project'])
      .where('key_hash', '=', hashOf(key))
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return row && { keyId: row.id, project: row.project };
  }
}
