import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NewJob } from '../../server/jobs/model';
import { arrayChildren, childIds, indexesUpTo } from '../../server/jobs/arrays';
import { openStore } from '../../server/store/open-store';
import type { Store } from '../../server/store/ports';
import { DRIVERS } from './drivers';
import { newJob, T0 } from './new-job';

const RUNNABLE = { to: 'runnable', note: null } as const;
const childrenOf = (parent: NewJob, indexes: number[]) =>
  arrayChildren(parent, RUNNABLE, indexes, childIds(indexes, new Map(), null));

describe.each(DRIVERS)('array jobs in the JobStore on $name', (driver) => {
  let store: Store;
  beforeEach(async () => {
    store = await openStore(await driver.fresh());
  });
  afterEach(() => store.close());

  async function insertArray(size: number, overrides: Partial<NewJob> = {}) {
    const parent = newJob({ array: { size }, ...overrides });
    const admitted = childrenOf(parent, indexesUpTo(size));
    const result = await store.jobs.insertArray(parent, RUNNABLE, admitted, 'fingerprint');
    expect(result.inserted).toBe(true);
    return { parent, children: admitted.map(({ job }) => job) };
  }

  it('stores the parent and every child in one write; a child reads back with the parent’s plan and its index', async () => {
    const { parent, children } = await insertArray(300);
    expect(await store.jobs.getJob(parent.id)).toMatchObject({
      state: 'runnable',
      array: { size: 300 },
      command: parent.command,
      env: parent.env,
    });
    const child = await store.jobs.getJob(children[299]!.id);
    expect(child).toMatchObject({
      name: `${parent.name}:299`,
      state: 'runnable',
      array: { parentId: parent.id, index: 299 },
      command: parent.command,
      retry: parent.retry,
      runOptions: parent.runOptions,
      env: [
        ...parent.env,
        { name: 'JOBDECK_ARRAY_INDEX', value: '299' },
        { name: 'JOBDECK_ARRAY_SIZE', value: '300' },
      ],
    });
    expect(await store.jobs.transitions(child!.id)).toMatchObject([
      { from: null, to: 'submitted' },
      { from: 'submitted', to: 'runnable' },
    ]);
    // One copy of the sealed values: the parent's.
    const sealed = await store.sealedEnv.unfinishedSealedEnv();
    expect(sealed.map((job) => job.id)).toEqual([parent.id]);
  });

  it('keeps a parent’s indexes (array.indexes): its children have those alone, with the array’s size', async () => {
    const parent = newJob({ array: { size: 50, indexes: [3, 17] } });
    const admitted = childrenOf(parent, [3, 17]);
    await store.jobs.insertArray(parent, RUNNABLE, admitted, 'fingerprint');
    expect((await store.jobs.getJob(parent.id))!.array).toEqual({ size: 50, indexes: [3, 17] });
    expect([...(await store.jobs.arrayChildIds(parent.id)).keys()]).toEqual([3, 17]);
    const child = await store.jobs.getJob(admitted[1]!.job.id);
    expect(child).toMatchObject({
      name: `${parent.name}:17`,
      array: { parentId: parent.id, index: 17 },
    });
    expect(child!.env.slice(-2)).toEqual([
      { name: 'JOBDECK_ARRAY_INDEX', value: '17' },
      { name: 'JOBDECK_ARRAY_SIZE', value: '50' },
    ]);
  });

  it('refuses an array whose parent’s name is held, storing none of it', async () => {
    const { parent } = await insertArray(2, { name: 'held' });
    const again = newJob({ name: 'held', array: { size: 2 } });
    const result = await store.jobs.insertArray(
      again,
      RUNNABLE,
      childrenOf(again, [0, 1]),
      'fingerprint',
    );
    expect(result).toEqual({ inserted: false, nameHeldBy: parent.id });
    expect(await store.jobs.getJob(again.id)).toBeUndefined();
    expect((await store.jobs.arrayCounts(again.id)).size).toBe(0);
  });

  it('stores more children in chunks, each index once: a chunk holding one stored before stores nothing', async () => {
    const parent = newJob({ array: { size: 6 } });
    const ids = childIds(indexesUpTo(6), new Map(), null);
    const children = (indexes: number[]) => arrayChildren(parent, RUNNABLE, indexes, ids);
    await store.jobs.insertArray(parent, RUNNABLE, children([0, 1]), 'fingerprint');
    expect(await store.jobs.insertArrayChildren(children([2, 3]))).toBe(2);
    // Another instance's ids for the same indexes: the index is what is taken once.
    const theirs = arrayChildren(
      parent,
      RUNNABLE,
      [3, 4],
      childIds(indexesUpTo(6), new Map(), null),
    );
    expect(await store.jobs.insertArrayChildren(theirs)).toBe(0);
    const stored = await store.jobs.arrayChildIds(parent.id);
    expect([...stored.entries()].sort(([a], [b]) => a - b)).toEqual(
      [0, 1, 2, 3].map((i) => [i, ids.own[i]]),
    );
  });

  it('counts, pages, releases and cancels children; the parent is never claimed and holds no slot', async () => {
    const { parent, children } = await insertArray(5, {
      queue: 'p::arrays',
    });
    const claimed = await store.jobs.claimRunnable(
      { queue: 'p::arrays', limit: 10, queueMax: 2, serviceMax: 10, owner: 'i', at: T0 + 1 },
      () => 'starting',
    );
    expect(claimed.map((job) => job.array)).toEqual([
      { parentId: parent.id, index: 0 },
      { parentId: parent.id, index: 1 },
    ]);
    expect(claimed[0]!.command).toEqual(parent.command);
    await store.jobs.moveJob({
      id: parent.id,
      from: 'runnable',
      to: 'running',
      at: T0 + 2,
      note: null,
    });
    expect(await store.jobs.activeCountsByQueue()).toEqual(new Map([['p::arrays', 2]]));
    expect(await store.jobs.takeOver({ from: null, to: 'other' })).toHaveLength(0);
    expect(Object.fromEntries(await store.jobs.arrayCounts(parent.id))).toEqual({
      starting: 2,
      runnable: 3,
    });

    const page = await store.jobs.arrayChildren({
      parentId: parent.id,
      states: ['runnable'],
      afterIndex: -1,
      limit: 2,
    });
    expect(page.items.map((job) => job.name)).toEqual([children[2]!.name, children[3]!.name]);
    expect(page.more).toBe(true);
    const rest = await store.jobs.arrayChildren({
      parentId: parent.id,
      states: ['runnable'],
      afterIndex: 3,
      limit: 2,
    });
    expect(rest).toMatchObject({ items: [{ id: children[4]!.id }], more: false });

    const cancelled = await store.jobs.moveArrayChildren(parent.id, {
      from: ['pending', 'runnable'],
      to: 'cancelled',
      at: T0 + 3,
      note: 'cancelled with its array',
    });
    expect(cancelled).toBe(3);
    expect(await store.jobs.getJob(children[4]!.id)).toMatchObject({
      state: 'cancelled',
      systemNote: 'cancelled with its array',
      cancelRequestedAt: T0 + 3,
      finishedAt: T0 + 3,
    });
    expect((await store.jobs.transitions(children[4]!.id)).at(-1)).toMatchObject({
      from: 'runnable',
      to: 'cancelled',
    });
    expect((await store.jobs.unfinishedArrayParents()).map((job) => job.id)).toEqual([parent.id]);
  });

  it('lists parents, not children, in the job list, and leaves parents out of the queue’s waiting counts', async () => {
    const { parent } = await insertArray(3);
    const listed = await store.jobs.listJobs({ project: 'p', limit: 50 });
    expect(listed.map((job) => job.id)).toEqual([parent.id]);
    expect(await store.jobs.countJobs({ project: 'p' }, 100)).toBe(1);
    const counts = await store.jobs.countByQueue({
      queues: ['p::default'],
      since: 0,
      recentSince: 0,
    });
    expect(counts).toEqual([{ queue: 'p::default', state: 'runnable', count: 3, recent: 3 }]);
  });
});
