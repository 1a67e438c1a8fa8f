import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../server/store/open-store';
import type { Store } from '../../server/store/ports';
import { DRIVERS } from './drivers';
import { insertRunnable, T0 } from './new-job';

describe.each(DRIVERS)('QueueControlStore on $name', (driver) => {
  let store: Store;
  beforeEach(async () => {
    store = await openStore(await driver.fresh());
  });
  afterEach(() => store.close());

  it('registers a queue once: its configured pause is the first state, later starts change nothing', async () => {
    await store.queues.register([{ ref: 'p::default', paused: true }]);
    await store.queues.register([
      { ref: 'p::default', paused: false },
      { ref: 'p::batch', paused: false },
    ]);
    const controls = await store.queues.controls();
    expect(controls.sort((a, b) => a.ref.localeCompare(b.ref))).toEqual([
      { ref: 'p::batch', paused: false, pausedReason: null, maxRunning: null, changed: null },
      { ref: 'p::default', paused: true, pausedReason: null, maxRunning: null, changed: null },
    ]);
  });

  it('changes only the fields given, with who and when; resuming drops the reason', async () => {
    await store.queues.register([{ ref: 'p::default', paused: false }]);
    expect(
      await store.queues.change('p::default', { paused: { reason: 'bad release' } }, 'k1', T0),
    ).toBe(true);
    await store.queues.change('p::default', { maxRunning: 9 }, 'k2', T0 + 1);
    expect(await store.queues.controls()).toEqual([
      {
        ref: 'p::default',
        paused: true,
        pausedReason: 'bad release',
        maxRunning: 9,
        changed: { at: T0 + 1, by: 'k2' },
      },
    ]);
    await store.queues.change('p::default', { paused: false, maxRunning: null }, 'k1', T0 + 2);
    expect(await store.queues.controls()).toEqual([
      {
        ref: 'p::default',
        paused: false,
        pausedReason: null,
        maxRunning: null,
        changed: { at: T0 + 2, by: 'k1' },
      },
    ]);
    expect(await store.queues.change('p::missing', { paused: false }, 'k1', T0)).toBe(false);
  });

  it("counts a runnable job's place among its queue's runnable jobs, in claim order", async () => {
    const first = await insertRunnable(store.jobs);
    const second = await insertRunnable(store.jobs);
    await insertRunnable(store.jobs, { queue: 'p::other' });
    const third = await insertRunnable(store.jobs);
    const seqOf = async (id: string) => (await store.jobs.getJob(id))!.seq;
    expect(await store.jobs.placeInQueue('p::default', await seqOf(first.id))).toEqual({
      place: 1,
      waiting: 3,
    });
    expect(await store.jobs.placeInQueue('p::default', await seqOf(third.id))).toEqual({
      place: 3,
      waiting: 3,
    });
    await store.jobs.moveJob({
      id: first.id,
      from: 'runnable',
      to: 'cancelled',
      at: T0 + 2,
      note: null,
    });
    expect(await store.jobs.placeInQueue('p::default', await seqOf(second.id))).toEqual({
      place: 1,
      waiting: 2,
    });
  });
});
