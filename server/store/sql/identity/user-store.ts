import type { Kysely } from 'kysely';
import type { UserRecord, UserSource, UserStore } from '../../ports';
import type { Database } from '../../schema';

export class SqlUserStore implements UserStore {
  constructor(private readonly db: Kysely<Database>) {}

  async putLocal(identity: string, name: string | null, passwordHash: string) {
    return this.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('users')
        .set({ name, source: 'local', password_hash: passwordHash })
        .where('identity', '=', identity)
        .executeTakeFirst();
      if (updated.numUpdatedRows > 0n) return 'updated' as const;
      await trx
        .insertInto('users')
        .values({
          identity,
          name,
          source: 'local',
          password_hash: passwordHash,
          created_at: Date.now(),
          last_sign_in_at: null,
        })
        .execute();
      return 'created' as const;
    });
  }

  async get(identity: string) {
    const row = await this.db
      .selectFrom('users')
      .selectAll()
      .where('identity', '=', identity)
      .executeTakeFirst();
    return row && toUser(row);
  }

  async list() {
    const rows = await this.db.selectFrom('users').selectAll().orderBy('identity').execute();
    return rows.map(toUser);
  }

  async remove(identity: string) {
    return this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('sessions').where('identity', '=', identity).execute();
      const removed = await trx
        .deleteFrom('users')
        .where('identity', '=', identity)
        .executeTakeFirst();
      return removed.numDeletedRows > 0n;
    });
  }

  async countLocal() {
    const { count } = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('source', '=', 'local')
      .executeTakeFirstOrThrow();
    return Number(count);
  }

  async noteSignIn(identity: string, name: string | null, source: UserSource, at: number) {
    await this.db
      .insertInto('users')
      .values({ identity, name, source, password_hash: null, created_at: at, last_sign_in_at: at })
      // A local user keeps its own name; a provider's name follows the provider.
      .onConflict((oc) =>
        oc.column('identity').doUpdateSet((eb) => ({
          last_sign_in_at: at,
          name: source === 'oidc' ? name : eb.ref('users.name'),
        })),
      )
      .execute();
  }

  async failures(emailHash: string, windowMs: number, now: number) {
    const row = await this.db
      .selectFrom('sign_in_failures')
      .select(['failures', 'window_start'])
      .where('email_hash', '=', emailHash)
      .executeTakeFirst();
    return row && now - Number(row.window_start) < windowMs ? Number(row.failures) : 0;
  }

  async noteFailure(emailHash: string, windowMs: number, now: number) {
    await this.db
      .insertInto('sign_in_failures')
      .values({ email_hash: emailHash, failures: 1, window_start: now })
      // A window that has passed starts again at this failure.
      .onConflict((oc) =>
        oc.column('email_hash').doUpdateSet((eb) => ({
          failures: eb
            .case()
            .when('sign_in_failures.window_start', '<=', now - windowMs)
            .then(1)
            .else(eb('sign_in_failures.failures', '+', 1))
            .end(),
          window_start: eb
            .case()
            .when('sign_in_failures.window_start', '<=', now - windowMs)
            .then(now)
            .else(eb.ref('sign_in_failures.window_start'))
            .end(),
        })),
      )
      .execute();
  }

  async clearFailures(emailHash: string) {
    await this.db.deleteFrom('sign_in_failures').where('email_hash', '=', emailHash).execute();
  }
}

const toUser = (row: {
  identity: string;
  name: string | null;
  source: string;
  password_hash: string | null;
  created_at: number;
  last_sign_in_at: number | null;
}): UserRecord => ({
  identity: row.identity,
  name: row.name,
  source: row.source as UserSource,
  passwordHash: row.password_hash,
  createdAt: Number(row.created_at),
  lastSignInAt: row.last_sign_in_at === null ? null : Number(row.last_sign_in_at),
});
