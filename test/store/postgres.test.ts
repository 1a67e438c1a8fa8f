import { describe, expect, it } from 'vitest';
import { createPool } from '../../server/store/postgres/pool';
import { openStore } from '../../server/store/open-store';
import { createDatabase } from '../support/postgres';
import { newJob } from './new-job';

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

  it('runs a kept (named) statement again after another process added a column to its table', async () => {
    const url = await createDatabase();
    // One connection: the statement kept on it is the one the ALTER makes stale.
    const store = await openStore({
      store: { type: 'postgres', url, pool_size: 1 },
      data_dir: '.',
    });
    const other = createPool(url, 1);
    try {
      const job = newJob();
      await store.jobs.insertJob(job, 'fingerprint');
      expect((await store.jobs.getJob(job.id))?.id).toBe(job.id);
      await other.query('ALTER TABLE jobs ADD COLUMN added_by_a_later_release text');
      expect((await store.jobs.getJob(job.id))?.id).toBe(job.id);
      expect((await store.jobs.getJob(job.id))?.id).toBe(job.id);
    } finally {
      await other.end();
      await store.close();
    }
  });
});
