import { describe, expect, it } from 'vitest';
import { createPool } from '../../server/store/postgres/pool';
import { createDatabase } from '../support/postgres';

describe('the PostgreSQL driver', () => {
  it('reads bigint as a number, and refuses one a number cannot hold exactly', async () => {
    const pool = createPool(await createDatabase(), 1);
    try {
      const { rows } = await pool.query<{ ms: unknown; count: unknown }>(
        'SELECT 1795303462130::bigint AS ms, count(*) AS count FROM (VALUES (1), (2)) v',
      );
      expect(rows[0]).toEqual({ ms: 1795303462130, count: 2 });
      await expect(pool.query('SELECT 9007199254740993::bigint')).rejects.toThrow(
        /beyond the integers a JS number holds exactly/,
      );
    } finally {
      await pool.end();
    }
  });
});
