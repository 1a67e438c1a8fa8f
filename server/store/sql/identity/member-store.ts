import type { Kysely, Transaction } from 'kysely';
import { highestPerProject, type Role } from '../../../../contract';
import type { MemberStore } from '../../ports';
import type { Database } from '../../schema';

/** True when `identity` is the project's only admin member: it must stay one. */
async function lastAdmin(trx: Transaction<Database>, project: string, identity: string) {
  const admins = await trx
    .selectFrom('members')
    .select('identity')
    .where('project', '=', project)
    .where('role', '=', 'admin')
    .execute();
  return admins.length === 1 && admins[0]!.identity === identity;
}

export class SqlMemberStore implements MemberStore {
  constructor(private readonly db: Kysely<Database>) {}

  async list(project: string) {
    const rows = await this.db
      .selectFrom('members')
      .leftJoin('users', 'users.identity', 'members.identity')
      .select([
        'members.project',
        'members.identity',
        'members.role',
        'members.added_by',
        'members.added_at',
        'users.last_sign_in_at',
      ])
      .where('members.project', '=', project)
      .orderBy('members.identity')
      .execute();
    return rows.map((row) => ({
      project: row.project,
      identity: row.identity,
      role: row.role as Role,
      addedBy: row.added_by,
      addedAt: Number(row.added_at),
      lastSignInAt: row.last_sign_in_at === null ? null : Number(row.last_sign_in_at),
    }));
  }

  async put(project: string, identity: string, role: Role, addedBy: string | null) {
    return this.db.transaction().execute(async (trx) => {
      const current = await trx
        .selectFrom('members')
        .select('role')
        .where('project', '=', project)
        .where('identity', '=', identity)
        .executeTakeFirst();
      if (!current) {
        await trx
          .insertInto('members')
          .values({ project, identity, role, added_by: addedBy, added_at: Date.now() })
          .execute();
        return 'added' as const;
      }
      if (role !== 'admin' && (await lastAdmin(trx, project, identity))) return 'last-admin';
      await trx
        .updateTable('members')
        .set({ role })
        .where('project', '=', project)
        .where('identity', '=', identity)
        .execute();
      return 'changed' as const;
    });
  }

  async remove(project: string, identity: string) {
    return this.db.transaction().execute(async (trx) => {
      if (await lastAdmin(trx, project, identity)) return 'last-admin' as const;
      const removed = await trx
        .deleteFrom('members')
        .where('project', '=', project)
        .where('identity', '=', identity)
        .executeTakeFirst();
      return removed.numDeletedRows > 0n ? ('removed' as const) : ('absent' as const);
    });
  }

  async rolesOf(identities: readonly string[]) {
    if (identities.length === 0) return [];
    const rows = await this.db
      .selectFrom('members')
      .select(['project', 'role'])
      .where('identity', 'in', identities)
      .execute();
    return highestPerProject(rows.map((row) => ({ project: row.project, role: row.role as Role })));
  }
}
