import { describe, expect, it } from 'vitest';
import type { JobState } from '../../contract';
import { MIGRATION_NAMES } from '../../server/store/migrations/names';
import { openStore } from '../../server/store/open-store';
import { DRIVERS, execBeside, runWorker } from './drivers';
import { insertRunnable, T0 } from './new-job';

// One list for every dialect; server/store/migrations/migrations.test.ts checks each folder holds it.
const NAMES = [...MIGRATION_NAMES];

const migratedBy = (stdout: string) => (JSON.parse(stdout) as { migrated: string[] }).migrated;

describe.each(DRIVERS)('migrations on $name', (driver) => {
  it('migrate a new store once, then find nothing to do', async () => {
    const config = await driver.empty();
    const first = await openStore(config);
    expect(first.migrated).toEqual(NAMES);
    await first.close();
    const again = await openStore(config);
    expect(again.migrated).toEqual([]);
    await again.close();
  });

  it('run exactly once when several processes open a new store at the same time', async () => {
    const config = await driver.empty();
    const exits = await Promise.all([1, 2, 3].map(() => runWorker(config, ['open'])));
    const migrated = exits.map((exit) => migratedBy(exit.stdout));
    expect(migrated.flat().sort()).toEqual(NAMES);
  });

  it('complete on the next start when the process is killed inside one', async () => {
    const config = await driver.empty();
    // The middle one: what came before must stay, the killed one and what follows must run.
    const [, killedIn, ...after] = NAMES;
    const killed = await runWorker(config, ['open'], {
      JOBDECK_FAILPOINT: `migration:${killedIn}`,
    });
    expect(killed.signal).toBe('SIGKILL');
    const restarted = await runWorker(config, ['open']);
    expect(migratedBy(restarted.stdout)).toEqual([killedIn, ...after]);

    const store = await openStore(config);
    try {
      expect(store.migrated).toEqual([]);
      // The whole schema is there: a job goes through a claim (the newest column, owner).
      const job = await insertRunnable(store.jobs);
      const claim = { queue: job.queue, limit: 1, queueMax: 1, serviceMax: 1, owner: 'o', at: 2 };
      expect(await store.jobs.claimRunnable(claim, () => 'n')).toMatchObject([{ owner: 'o' }]);
      expect(await store.keys.list()).toEqual([]);
    } finally {
      await store.close();
    }
  });
});

describe.each(DRIVERS)('migration 031 on $name', (driver) => {
  it('gives the labels of the jobs already stored their jobs’ states, then keeps them', async () => {
    const config = await driver.fresh();
    const store = await openStore(config);
    const [left, cancelled] = [
      await insertRunnable(store.jobs, { labels: { team: 'data' } }),
      await insertRunnable(store.jobs, { labels: { team: 'data' } }),
    ];
    await store.jobs.moveJob({
      id: cancelled.id,
      from: 'runnable',
      to: 'cancelled',
      at: T0 + 2,
      note: null,
    });
    await store.close();
    // 031 undone, as in a store written before it (SQLite drops no column an index holds).
    await execBeside(
      config,
      `DROP INDEX job_labels_by_value_state; DROP INDEX job_labels_by_key_state;
      ${driver.name === 'postgres' ? 'DROP TRIGGER jobs_label_states ON jobs; DROP FUNCTION jobdeck_label_states;' : 'DROP TRIGGER jobs_label_states;'}
      ALTER TABLE job_labels DROP COLUMN state;
      DELETE FROM schema_migrations WHERE name = '031-label-states';`,
    );
    const migrated = await openStore(config);
    try {
      expect(migrated.migrated).toEqual(['031-label-states']);
      const count = (state: JobState) =>
        migrated.jobs.countJobs({ project: 'p', labels: [{ key: 'team' }], states: [state] }, 10);
      expect([await count('runnable'), await count('cancelled')]).toEqual([1, 1]);
      await migrated.jobs.moveJob({
        id: left.id,
        from: 'runnable',
        to: 'cancelled',
        at: T0 + 3,
        note: null,
      });
      expect([await count('runnable'), await count('cancelled')]).toEqual([0, 2]);
    } finally {
      await migrated.close();
    }
  });
});
