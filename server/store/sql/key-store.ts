import { hash, randomBytes } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { Role } from '../../../contract';
import type { ApiKeyInfo, KeyStore, NewApiKey, Principal } from '../ports';
import type { Database } from '../schema';
import type { ApiKeysTable } from '../schema-identity';
import type { StoreDialect } from './dialect';
import { prepared, type Param } from './prepared';

// One-shot: every request of the API hashes its key, and a Hash object costs twice as much.
export const keyHashOf = (key: string) => hash('sha256', key, 'hex');

/** A key's last use is written at most this often: not a write for every request. */
const LAST_USED_EVERY_MS = 60_000;

const toInfo = (r: Selectable<ApiKeysTable>): ApiKeyInfo => ({
  id: r.id,
  project: r.project,
  label: r.label,
  role: r.role as Role,
  createdAt: r.created_at,
  createdBy: r.created_by,
  revokedAt: r.revoked_at,
  expiresAt: r.expires_at,
  lastUsedAt: r.last_used_at,
});

/** An active key's principal, and until when it stays active (null: until revoked). */
export interface ActiveKey {
  principal: Principal;
  expiresAt: number | null;
}

/** Keys are 256 random bits, so SHA-256 is enough: a slow hash would buy nothing. */
export class SqlKeyStore implements KeyStore {
  /** Asked by every request of the API. */
  private readonly activeKeyByHash;
  private readonly lastUseWritten = new Map<string, number>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: StoreDialect,
  ) {
    this.activeKeyByHash = prepared(db, (db, param: Param<{ hash: string; now: number }>) =>
      db
        .selectFrom('api_keys')
        .select(['id', 'project', 'role', 'last_used_at', 'expires_at'])
        .where('key_hash', '=', param('hash'))
        .where('revoked_at', 'is', null)
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', param('now'))])),
    );
  }

  create(project: string, key: NewApiKey) {
    return this.insert(this.db, project, key);
  }

  createWithin(project: string, key: NewApiKey, activeAtMost: number) {
    return this.db.transaction().execute(async (trx) => {
      await this.dialect.serializeLimit(trx, `api_keys:${project}`);
      const now = Date.now();
      const { count } = await trx
        .selectFrom('api_keys')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('project', '=', project)
        .where('revoked_at', 'is', null)
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
        .executeTakeFirstOrThrow();
      return Number(count) >= activeAtMost ? undefined : this.insert(trx, project, key);
    });
  }

  private async insert(db: Kysely<Database>, project: string, key: NewApiKey) {
    const secret = `jd_${randomBytes(32).toString('base64url')}`;
    const id = `key_${randomBytes(6).toString('hex')}`;
    await db
      .insertInto('api_keys')
      .values({
        id,
        project,
        key_hash: keyHashOf(secret),
        label: key.label,
        role: key.role,
        created_at: Date.now(),
        created_by: key.createdBy,
        revoked_at: null,
        expires_at: key.expiresAt,
        last_used_at: null,
      })
      .execute();
    return { id, key: secret };
  }

  async list(project?: string) {
    let query = this.db.selectFrom('api_keys').selectAll().orderBy('created_at');
    if (project !== undefined) query = query.where('project', '=', project);
    return (await query.execute()).map(toInfo);
  }

  async revoke(id: string, project?: string) {
    let update = this.db
      .updateTable('api_keys')
      .set({ revoked_at: Date.now() })
      .where('id', '=', id)
      .where('revoked_at', 'is', null);
    if (project !== undefined) update = update.where('project', '=', project);
    const result = await update.executeTakeFirst();
    if (result.numUpdatedRows > 0n) return true;
    let existing = this.db.selectFrom('api_keys').select('id').where('id', '=', id);
    if (project !== undefined) existing = existing.where('project', '=', project);
    return (await existing.executeTakeFirst()) !== undefined;
  }

  async authenticate(key: string) {
    return (await this.activeKey(keyHashOf(key)))?.principal;
  }

  /** The active key with this hash, read from the database (CachedKeyStore keeps it a while). */
  async activeKey(keyHash: string): Promise<ActiveKey | undefined> {
    const now = Date.now();
    const [row] = await this.activeKeyByHash(this.db, { hash: keyHash, now });
    if (!row) return undefined;
    this.noteUse(row.id, row.last_used_at, now);
    const principal = {
      keyId: row.id,
      project: row.project,
      role: row.role as Role,
      actor: `key:${row.id}`,
    };
    return { principal, expiresAt: row.expires_at };
  }

  /** Off the request's path: a failed write only makes the shown time older. */
  private noteUse(id: string, stored: number | null, now: number) {
    const written = Math.max(stored ?? 0, this.lastUseWritten.get(id) ?? 0);
    if (now - written < LAST_USED_EVERY_MS) return;
    this.lastUseWritten.set(id, now);
    void this.db
      .updateTable('api_keys')
      .set({ last_used_at: now })
      .where('id', '=', id)
      .execute()
      .catch(() => this.lastUseWritten.delete(id));
  }
}
