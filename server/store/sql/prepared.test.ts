import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../schema';
import { prepared, type Param } from './prepared';

const opened: Kysely<Database>[] = [];

function memoryDb(): Kysely<Database> {
  const connection = new SqliteDatabase(':memory:');
  connection.exec(`create table api_keys (id text, project text, key_hash text, label text,
    created_at integer, revoked_at integer)`);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: connection }) });
  opened.push(db);
  return db;
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((db) => db.destroy()));
});

describe('prepared queries', () => {
  it('binds each call’s values by name, whatever their order in the SQL, and keeps constants', async () => {
    const db = memoryDb();
    const insert = prepared(db, (db, param: Param<{ id: string; project: string; at: number }>) =>
      db.insertInto('api_keys').values({
        // Values in another order than the names are declared, and one constant between them.
        created_at: param('at'),
        label: 'constant label',
        project: param('project'),
        id: param('id'),
        key_hash: param('id'),
        revoked_at: null,
      }),
    );
    await insert(db, { id: 'k1', project: 'p1', at: 1 });
    await insert(db, { id: 'k2', project: 'p2', at: 2 });
    const byProject = prepared(db, (db, param: Param<{ project: string }>) =>
      db.selectFrom('api_keys').selectAll().where('project', '=', param('project')),
    );

    expect(await byProject(db, { project: 'p2' })).toEqual([
      {
        id: 'k2',
        project: 'p2',
        key_hash: 'k2',
        label: 'constant label',
        created_at: 2,
        revoked_at: null,
      },
    ]);
    expect(await byProject(db, { project: 'nobody' })).toEqual([]);
  });

  it('runs inside a transaction, whose rollback undoes it', async () => {
    const db = memoryDb();
    const insert = prepared(db, (db, param: Param<{ id: string }>) =>
      db.insertInto('api_keys').values({
        id: param('id'),
        project: 'p',
        key_hash: param('id'),
        label: null,
        created_at: 0,
        revoked_at: null,
      }),
    );
    await expect(
      db.transaction().execute(async (trx) => {
        await insert(trx, { id: 'undone' });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await db.transaction().execute((trx) => insert(trx, { id: 'kept' }));

    const ids = await db.selectFrom('api_keys').select('id').execute();
    expect(ids).toEqual([{ id: 'kept' }]);
  });
});
