import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JobState, LabelSelector } from '../../contract';
import { openStore } from '../../server/store/open-store';
import type { Store } from '../../server/store/ports';
import { DRIVERS } from './drivers';
import { insertRunnable, newJob, T0 } from './new-job';

describe.each(DRIVERS)('job labels on $name', (driver) => {
  let store: Store;
  beforeEach(async () => {
    store = await openStore(await driver.fresh());
  });
  afterEach(() => store.close());

  /** Stores jobs with these labels, oldest first; answers their names by label. */
  async function seed(labelled: Record<string, Record<string, string>>) {
    for (const [name, labels] of Object.entries(labelled)) {
      await store.jobs.insertJob(newJob({ name, labels }), 'fingerprint');
    }
  }
  const names = async (
    labels: LabelSelector[],
    more: { limit?: number; beforeSeq?: number } = {},
  ) =>
    (await store.jobs.listJobs({ project: 'p', labels, limit: more.limit ?? 10, ...more })).map(
      (job) => job.name,
    );

  it('keeps a job’s labels and reads them back with it', async () => {
    const job = newJob({ labels: { ticket: 'OPS-42', 'data.set/name': 'a=b, c' } });
    const { job: stored } = (await store.jobs.insertJob(job, 'fingerprint')) as {
      job: { labels: unknown };
    };
    expect(stored.labels).toEqual({ ticket: 'OPS-42', 'data.set/name': 'a=b, c' });
    expect((await store.jobs.getJob(job.id))!.labels).toEqual(job.labels);
    const plain = newJob();
    await store.jobs.insertJob(plain, 'fingerprint');
    expect((await store.jobs.getJob(plain.id))!.labels).toEqual({});
  });

  it('lists the jobs with a label value, with a label of any value, and with several labels', async () => {
    await seed({
      a: { team: 'data', ticket: 'OPS-1' },
      b: { team: 'web' },
      c: { team: 'data' },
      d: {},
      e: { team: 'data', ticket: 'OPS-2' },
    });
    expect(await names([{ key: 'team', value: 'data' }])).toEqual(['e', 'c', 'a']);
    expect(await names([{ key: 'ticket' }])).toEqual(['e', 'a']);
    expect(
      await names([
        { key: 'team', value: 'data' },
        { key: 'ticket', value: 'OPS-1' },
      ]),
    ).toEqual(['a']);
    expect(await names([{ key: 'ticket' }, { key: 'team', value: 'web' }])).toEqual([]);
    expect(await names([{ key: 'team', value: 'Data' }])).toEqual([]);
    expect(await names([{ key: 'nope' }])).toEqual([]);
    // The other filters and the count apply as without labels.
    const filter = { project: 'p', labels: [{ key: 'team', value: 'data' }], namePrefix: 'c' };
    expect((await store.jobs.listJobs({ ...filter, limit: 10 })).map((j) => j.name)).toEqual(['c']);
    expect(await store.jobs.countJobs({ project: 'p', labels: [{ key: 'team' }] }, 100)).toBe(4);
    expect(await store.jobs.countJobs({ project: 'p', labels: [{ key: 'team' }] }, 2)).toBe(3);
    const both = [{ key: 'team', value: 'data' }, { key: 'ticket' }];
    expect(await store.jobs.countJobs({ project: 'p', labels: both }, 100)).toBe(2);
    expect(
      await store.jobs.countJobs({ project: 'p', labels: both, states: ['runnable'] }, 100),
    ).toBe(0);
  });

  it('counts a label’s jobs by state as they move, every count agreeing with the list', async () => {
    const [first, second, third] = [
      await insertRunnable(store.jobs, { name: 'a', labels: { team: 'data' } }),
      await insertRunnable(store.jobs, { name: 'b', labels: { team: 'data', ticket: 'OPS-1' } }),
      await insertRunnable(store.jobs, { name: 'c', labels: { team: 'web' } }),
    ];
    await store.jobs.insertJob(newJob({ name: 'd', labels: { team: 'data' } }), 'fingerprint');
    const moves: [typeof first, JobState][] = [
      [first, 'cancelled'],
      [second, 'starting'],
      [third, 'cancelled'],
    ];
    for (const [job, to] of moves) {
      await store.jobs.moveJob({ id: job.id, from: 'runnable', to, at: T0 + 2, note: null });
    }
    const filters: [LabelSelector[], JobState[]][] = [
      [[{ key: 'team', value: 'data' }], ['submitted']],
      [[{ key: 'team', value: 'data' }], ['cancelled']],
      [[{ key: 'team', value: 'data' }], ['starting', 'cancelled']],
      [[{ key: 'team' }], ['cancelled']],
      [[{ key: 'team' }, { key: 'ticket', value: 'OPS-1' }], ['starting']],
      [[{ key: 'team' }], ['runnable']],
    ];
    const counted = [];
    for (const [labels, states] of filters) {
      const listed = await store.jobs.listJobs({ project: 'p', labels, states, limit: 10 });
      const count = await store.jobs.countJobs({ project: 'p', labels, states }, 100);
      expect(count, JSON.stringify([labels, states])).toBe(listed.length);
      counted.push(count);
    }
    expect(counted).toEqual([1, 1, 2, 2, 1, 0]);
    // Bounded as every count is: one past the bound.
    expect(
      await store.jobs.countJobs(
        { project: 'p', labels: [{ key: 'team' }], states: ['cancelled'] },
        1,
      ),
    ).toBe(2);
  });

  it('pages through a label’s jobs by cursor, newest first', async () => {
    await seed({
      a: { team: 'data' },
      b: { team: 'data' },
      c: { team: 'web' },
      d: { team: 'data' },
    });
    const first = await store.jobs.listJobs({
      project: 'p',
      labels: [{ key: 'team', value: 'data' }],
      limit: 2,
    });
    expect(first.map((j) => j.name)).toEqual(['d', 'b']);
    expect(await names([{ key: 'team', value: 'data' }], { beforeSeq: first[1]!.seq })).toEqual([
      'a',
    ]);
  });

  it('finds only this project’s jobs by label', async () => {
    await store.jobs.insertJob(
      newJob({
        project: 'other',
        queue: 'other::default',
        name: 'theirs',
        labels: { team: 'data' },
      }),
      'fingerprint',
    );
    await seed({ ours: { team: 'data' } });
    expect(await names([{ key: 'team' }])).toEqual(['ours']);
  });
});
