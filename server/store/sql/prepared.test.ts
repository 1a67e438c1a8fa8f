import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../schema';
import { prepared, preparedRows, type Param } from './prepared';

const opened: Kysely<Database>[] = [];

function memoryDb(logQuery?: (sql: string) => void): Kysely<Database> {
  const connection = new SqliteDatabase(':memory:');
  connection.exec(`create table api_keys (id text, project text, key_hash text, label text,
    created_at integer, revoked_at integer)`);
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: connection }),
    log: (event) => logQuery?.(event.query.sql),
  });
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

  it('inserts any number of rows in power-of-two statements, each row bound by its own values', async () => {
    const statements: string[] = [];
    const db = memoryDb((sql) => statements.push(sql));
    const insert = preparedRows(db, (db, rows: Param<{ id: string; at: number }>[]) =>
      db
        .insertInto('api_keys')
        .values(
          rows.map((param) => ({
            id: param('id'),
            project: 'p',
            key_hash: param('id'),
            label: null,
            created_at: param('at'),
            revoked_at: null,
          })),
        )
        .returning('id'),
    );
    const rows = Array.from({ length: 100 }, (_, i) => ({ id: `k${i}`, at: i }));

    const returned = await insert(db, rows);

    expect(returned.map((r) => r.id).sort()).toEqual(rows.map((r) => r.id).sort());
    // 100 = 64 + 32 + 4: three statements, each with as many VALUES as its rows; none for no rows.
    expect(await insert(db, [])).toEqual([]);
    expect(statements.map((sql) => sql.split('), (').length)).toEqual([64, 32, 4]);
    const stored = await db
      .selectFrom('api_keys')
      .select(['id', 'key_hash', 'created_at'])
      .execute();
    expect(stored).toHaveLength(100);
    for (const row of stored) {
      expect(row.key_hash).toBe(row.id);
      expect(`k${row.created_at}`).toBe(row.id);
    }
  });
});
