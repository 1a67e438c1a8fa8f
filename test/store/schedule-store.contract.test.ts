import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../server/store/open-store';
import type { Store } from '../../server/store/ports';
import { DRIVERS } from './drivers';
import { newJob, T0 } from './new-job';

describe.each(DRIVERS)('ScheduleStore on $name', (driver) => {
  let store: Store;
  beforeEach(async () => {
    store = await openStore(await driver.fresh());
  });
  afterEach(() => store.close());

  const firing = (fireAt: number, withJob = true) => {
    const job = newJob({ name: `nightly-${fireAt}` });
    return {
      schedule: 'p::nightly',
      fireAt,
      note: withJob ? null : 'skipped',
      ...(withJob && {
        submit: {
          job,
          definitionFingerprint: 'fingerprint',
          admission: { to: 'runnable' as const, note: null },
        },
      }),
    };
  };

  it('registers a schedule once: its first state is kept, later registrations change nothing', async () => {
    await store.schedules.register([{ ref: 'p::nightly', paused: true }], T0);
    await store.schedules.register([{ ref: 'p::nightly', paused: false }], T0 + 1000);
    expect(await store.schedules.states()).toEqual([
      { ref: 'p::nightly', paused: true, pausedReason: null, lastFiredAt: T0 },
    ]);
  });

  it('records each firing once with its job, in one transaction; the second try of a time stores nothing', async () => {
    await store.schedules.register([{ ref: 'p::nightly', paused: false }], T0);
    const first = firing(T0 + 1000);
    const fired = await store.schedules.fire(first);
    expect(fired).toEqual({ fired: true, job: expect.objectContaining({ state: 'runnable' }) });
    const again = firing(T0 + 1000);
    expect(await store.schedules.fire(again)).toEqual({ fired: false });
    expect(await store.jobs.getJob(again.submit!.job.id)).toBeUndefined();
    await store.schedules.fire(firing(T0 + 2000, false));
    expect((await store.schedules.states())[0]!.lastFiredAt).toBe(T0 + 2000);
    expect(await store.schedules.recentFirings('p::nightly', 10)).toEqual([
      { fireAt: T0 + 2000, job: null, note: 'skipped' },
      {
        fireAt: T0 + 1000,
        note: null,
        job: {
          id: first.submit!.job.id,
          project: 'p',
          name: first.submit!.job.name,
          state: 'runnable',
        },
      },
    ]);
    // The latest firing that submitted a job, past the skipped one.
    expect((await store.schedules.lastJob('p::nightly', T0 + 3000))?.id).toBe(first.submit!.job.id);
    // Never the job of the firing asked about: another instance may have just stored it.
    expect(await store.schedules.lastJob('p::nightly', T0 + 1000)).toBeUndefined();
    expect(await store.schedules.lastJob('p::other', T0 + 3000)).toBeUndefined();
  });

  it('pauses with a reason and resumes as of now: what came due while paused is passed', async () => {
    await store.schedules.register([{ ref: 'p::nightly', paused: false }], T0);
    expect(
      await store.schedules.setPaused({
        ref: 'p::nightly',
        paused: true,
        reason: 'maintenance',
        now: T0 + 1000,
      }),
    ).toBe(true);
    expect((await store.schedules.states())[0]).toMatchObject({
      paused: true,
      pausedReason: 'maintenance',
      lastFiredAt: T0,
    });
    await store.schedules.setPaused({
      ref: 'p::nightly',
      paused: false,
      reason: null,
      now: T0 + 5000,
    });
    expect((await store.schedules.states())[0]).toEqual({
      ref: 'p::nightly',
      paused: false,
      pausedReason: null,
      lastFiredAt: T0 + 5000,
    });
    expect(
      await store.schedules.setPaused({ ref: 'p::nope', paused: true, reason: null, now: T0 }),
    ).toBe(false);
  });
});
