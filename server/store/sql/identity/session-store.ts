import type { Kysely } from 'kysely';
import type {
  PendingOidcSignIn,
  ProjectRole,
  SessionRecord,
  SessionStore,
  UserSource,
} from '../../ports';
import type { Database } from '../../schema';

export class SqlSessionStore implements SessionStore {
  constructor(private readonly db: Kysely<Database>) {}

  async create(tokenHash: string, session: SessionRecord) {
    await this.db
      .insertInto('sessions')
      .values({
        token_hash: tokenHash,
        identity: session.identity,
        subject_identity: session.subjectIdentity,
        name: session.name,
        source: session.source,
        group_roles_json: JSON.stringify(session.groupRoles),
        created_at: session.createdAt,
        last_seen_at: session.lastSeenAt,
        expires_at: session.expiresAt,
      })
      .execute();
  }

  async get(tokenHash: string) {
    const row = await this.db
      .selectFrom('sessions')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
    return (
      row && {
        identity: row.identity,
        subjectIdentity: row.subject_identity,
        name: row.name,
        source: row.source as UserSource,
        groupRoles: JSON.parse(row.group_roles_json) as ProjectRole[],
        createdAt: Number(row.created_at),
        lastSeenAt: Number(row.last_seen_at),
        expiresAt: Number(row.expires_at),
      }
    );
  }

  async touch(tokenHash: string, at: number) {
    await this.db
      .updateTable('sessions')
      .set({ last_seen_at: at })
      .where('token_hash', '=', tokenHash)
      .execute();
  }

  async end(tokenHash: string) {
    await this.db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
  }

  async endAllOf(identity: string) {
    const ended = await this.db
      .deleteFrom('sessions')
      .where('identity', '=', identity)
      .executeTakeFirst();
    return Number(ended.numDeletedRows);
  }

  async prune(now: number, idleMs: number) {
    await this.db
      .deleteFrom('sessions')
      .where((eb) => eb.or([eb('expires_at', '<=', now), eb('last_seen_at', '<=', now - idleMs)]))
      .execute();
    await this.db.deleteFrom('oidc_sign_ins').where('expires_at', '<=', now).execute();
  }

  async putPendingOidc(stateHash: string, pending: PendingOidcSignIn) {
    await this.db
      .insertInto('oidc_sign_ins')
      .values({
        state_hash: stateHash,
        nonce: pending.nonce,
        code_verifier: pending.codeVerifier,
        return_to: pending.returnTo,
        expires_at: pending.expiresAt,
      })
      .execute();
  }

  async takePendingOidc(stateHash: string, now: number) {
    const row = await this.db
      .deleteFrom('oidc_sign_ins')
      .where('state_hash', '=', stateHash)
      .returningAll()
      .executeTakeFirst();
    if (!row || Number(row.expires_at) <= now) return undefined;
    return {
      nonce: row.nonce,
      codeVerifier: row.code_verifier,
      returnTo: row.return_to,
      expiresAt: Number(row.expires_at),
    };
  }
}
