import type { Kysely } from 'kysely';
import type { SavedViewRecord, ViewStore } from '../ports';
import type { Database } from '../schema';
import type { StoreDialect } from './dialect';

export class SqlViewStore implements ViewStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: StoreDialect,
  ) {}

  async list(project: string) {
    const rows = await this.db
      .selectFrom('saved_views')
      .selectAll()
      .where('project', '=', project)
      .orderBy('name')
      .execute();
    return rows.map((row) => ({
      name: row.name,
      search: row.search,
      createdBy: row.created_by,
      savedAt: Number(row.saved_at),
    }));
  }

  async save(project: string, view: SavedViewRecord, atMost: number) {
    const row = {
      project,
      name: view.name,
      search: view.search,
      created_by: view.createdBy,
      saved_at: view.savedAt,
    };
    return this.db.transaction().execute(async (trx) => {
      await this.dialect.serializeLimit(trx, `saved_views:${project}`);
      const { count } = await trx
        .selectFrom('saved_views')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('project', '=', project)
        .where('name', '<>', view.name)
        .executeTakeFirstOrThrow();
      if (Number(count) >= atMost) return { saved: false };
      await trx
        .insertInto('saved_views')
        .values(row)
        .onConflict((oc) =>
          oc.columns(['project', 'name']).doUpdateSet({
            search: row.search,
            created_by: row.created_by,
            saved_at: row.saved_at,
          }),
        )
        .execute();
      return { saved: true };
    });
  }

  async remove(project: string, name: string) {
    const result = await this.db
      .deleteFrom('saved_views')
      .where('project', '=', project)
      .where('name', '=', name)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
