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

  it('registers a queue once: later starts with the same configuration change nothing', async () => {
    await store.queues.register([{ ref: 'p::default', paused: true, maxRunning: 4 }], T0);
    await store.queues.change({
      ref: 'p::default',
      change: { paused: false, maxRunning: 6 },
      by: 'k1',
      now: T0 + 1,
    });
    await store.queues.register(
      [
        { ref: 'p::default', paused: true, maxRunning: 4 },
        { ref: 'p::batch', paused: false, maxRunning: 2 },
      ],
      T0 + 2,
    );
    const controls = await store.queues.controls();
    expect(controls.sort((a, b) => a.ref.localeCompare(b.ref))).toEqual([
      { ref: 'p::batch', paused: false, pausedReason: null, maxRunning: null, changed: null },
      {
        ref: 'p::default',
        paused: false,
        pausedReason: null,
        maxRunning: 6,
        changed: { at: T0 + 1, by: 'k1' },
      },
    ]);
  });

  it('an edited configuration wins over what the API set before it', async () => {
    await store.queues.register([{ ref: 'p::default', paused: false, maxRunning: 4 }], T0);
    await store.queues.change({
      ref: 'p::default',
      change: { paused: { reason: 'r' }, maxRunning: 6 },
      by: 'k1',
      now: T0,
    });
    await store.queues.register([{ ref: 'p::default', paused: false, maxRunning: 8 }], T0 + 5);
    expect(await store.queues.controls()).toEqual([
      {
        ref: 'p::default',
        paused: false,
        pausedReason: null,
        maxRunning: null,
        changed: { at: T0 + 5, by: 'configuration' },
      },
    ]);
    await store.queues.register([{ ref: 'p::default', paused: true, maxRunning: 8 }], T0 + 6);
    expect((await store.queues.controls())[0]).toMatchObject({ paused: true, maxRunning: null });
  });

  it('changes only the fields given, with who and when; resuming drops the reason', async () => {
    await store.queues.register([{ ref: 'p::default', paused: false, maxRunning: 4 }], T0);
    expect(
      await store.queues.change({
        ref: 'p::default',
        change: { paused: { reason: 'bad release' } },
        by: 'k1',
        now: T0,
      }),
    ).toBe(true);
    await store.queues.change({
      ref: 'p::default',
      change: { maxRunning: 9 },
      by: 'k2',
      now: T0 + 1,
    });
    expect(await store.queues.controls()).toEqual([
      {
        ref: 'p::default',
        paused: true,
        pausedReason: 'bad release',
        maxRunning: 9,
        changed: { at: T0 + 1, by: 'k2' },
      },
    ]);
    await store.queues.change({
      ref: 'p::default',
      change: { paused: false, maxRunning: null },
      by: 'k1',
      now: T0 + 2,
    });
    expect(await store.queues.controls()).toEqual([
      {
        ref: 'p::default',
        paused: false,
        pausedReason: null,
        maxRunning: null,
        changed: { at: T0 + 2, by: 'k1' },
      },
    ]);
    expect(
      await store.queues.change({
        ref: 'p::missing',
        change: { paused: false },
        by: 'k1',
        now: T0,
      }),
    ).toBe(false);
  });

  it("counts a runnable job's place among its queue's runnable jobs, in claim order", async () => {
    const first = await insertRunnable(store.jobs);
    const second = await insertRunnable(store.jobs);
    await insertRunnable(store.jobs, { queue: 'p::other' });
    const third = await insertRunnable(store.jobs);
    const seqOf = async (id: string) => (await store.jobs.getJob(id))!.seq;
    expect(
      await store.jobs.placeInQueue({
        queue: 'p::default',
        seq: await seqOf(first.id),
        now: T0 + 10,
        atMost: 1000,
      }),
    ).toEqual({
      place: 1,
      waiting: 3,
    });
    expect(
      await store.jobs.placeInQueue({
        queue: 'p::default',
        seq: await seqOf(third.id),
        now: T0 + 10,
        atMost: 1000,
      }),
    ).toEqual({
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
    expect(
      await store.jobs.placeInQueue({
        queue: 'p::default',
        seq: await seqOf(second.id),
        now: T0 + 10,
        atMost: 1000,
      }),
    ).toEqual({
      place: 1,
      waiting: 2,
    });
    // Counted this far and no further; a job waiting out a backoff is not in line.
    expect(
      await store.jobs.placeInQueue({
        queue: 'p::default',
        seq: await seqOf(third.id),
        now: T0 + 10,
        atMost: 1,
      }),
    ).toEqual({
      place: 2,
      waiting: 2,
    });
    await store.jobs.moveJob({
      id: second.id,
      from: 'runnable',
      to: 'runnable',
      at: T0 + 3,
      note: null,
      fields: { notBefore: T0 + 60_000 },
    });
    expect(
      await store.jobs.placeInQueue({
        queue: 'p::default',
        seq: await seqOf(third.id),
        now: T0 + 10,
        atMost: 1000,
      }),
    ).toEqual({
      place: 1,
      waiting: 1,
    });
  });
});
