import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LeaseLostError } from '../../server/jobs/lease-fence';
import { openStore } from '../../server/store/open-store';
import type { Store } from '../../server/store/ports';
import { DRIVERS, type StoreConfig } from './drivers';
import { T0, insertRunnable } from './new-job';

const TTL = 1_000;
const take = (store: Store, holder: string, now: number) =>
  store.leases.acquire({ name: 'dispatcher', holder, now, ttlMs: TTL });

describe.each(DRIVERS)('the dispatcher lease on $name', (driver) => {
  let config: StoreConfig;
  let store: Store;
  beforeEach(async () => {
    config = await driver.fresh();
    store = await openStore(config);
  });
  afterEach(() => store.close());

  it('is taken once, renewed by its holder alone, taken over only once it lapsed (epoch raised)', async () => {
    expect(await store.leases.read('dispatcher')).toBeUndefined();
    const first = { name: 'dispatcher', holder: 'a', epoch: 1, expiresAt: T0 + TTL };
    expect(await take(store, 'a', T0)).toEqual(first);
    // Held: another's try says who holds it, and changes nothing.
    expect(await take(store, 'b', T0 + 500)).toEqual(first);
    // Renewed by its holder: the same epoch, a later lapse.
    expect(await take(store, 'a', T0 + 600)).toEqual({ ...first, expiresAt: T0 + 600 + TTL });
    expect(await take(store, 'b', T0 + 1_599)).toMatchObject({ holder: 'a', epoch: 1 });
    // Lapsed (a stopped renewing): the next try takes it under a new epoch.
    const second = { name: 'dispatcher', holder: 'b', epoch: 2, expiresAt: T0 + 1_600 + TTL };
    expect(await take(store, 'b', T0 + 1_600)).toEqual(second);
    // The old holder, back, renews nothing.
    expect(await take(store, 'a', T0 + 1_700)).toEqual(second);
    expect(await store.leases.read('dispatcher')).toEqual(second);
  });

  it('is released by its holder under its epoch only, for the next taker at once', async () => {
    await take(store, 'a', T0);
    await take(store, 'b', T0 + TTL);
    await store.leases.release({ name: 'dispatcher', holder: 'a', epoch: 1 });
    expect(await take(store, 'c', T0 + TTL + 1)).toMatchObject({ holder: 'b', epoch: 2 });
    await store.leases.release({ name: 'dispatcher', holder: 'b', epoch: 2 });
    expect(await take(store, 'c', T0 + TTL + 2)).toMatchObject({ holder: 'c', epoch: 3 });
  });

  it('goes to exactly one of many takers trying at once, from two connections', async () => {
    const other = await openStore(config);
    try {
      const tries = Array.from({ length: 8 }, (_, i) =>
        take(i % 2 ? other : store, `i${i}`, T0 + 10),
      );
      const answers = await Promise.all(tries);
      const holders = new Set(answers.map((lease) => lease.holder));
      expect(holders.size).toBe(1);
      expect(answers.every((lease) => lease.epoch === 1)).toBe(true);
      // Lapsed: again exactly one of them takes it, under the next epoch.
      const again = await Promise.all(
        Array.from({ length: 8 }, (_, i) => take(i % 2 ? other : store, `j${i}`, T0 + 5_000)),
      );
      expect(new Set(again.map((lease) => lease.holder)).size).toBe(1);
      expect(again.every((lease) => lease.epoch === 2)).toBe(true);
    } finally {
      await other.close();
    }
  });

  it("fences a claim by the lease: a lost lease claims nothing; the holder's gives jobs in turn", async () => {
    const jobs = await Promise.all([0, 1, 2].map(() => insertRunnable(store.jobs)));
    await take(store, 'a', T0);
    await take(store, 'b', T0 + TTL);
    const claim = {
      queue: 'p::default',
      limit: 3,
      queueMax: 3,
      serviceMax: 3,
      at: T0 + TTL + 1,
      owners: ['b', 'c'],
    };
    // a's lease lapsed and b took it: a, thawed, claims nothing.
    await expect(
      store.jobs.claimRunnable(
        { ...claim, owner: 'a', lease: { name: 'dispatcher', holder: 'a', epoch: 1 } },
        () => 'starting',
      ),
    ).rejects.toBeInstanceOf(LeaseLostError);
    for (const job of jobs) expect((await store.jobs.getJob(job.id))?.state).toBe('runnable');

    const claimed = await store.jobs.claimRunnable(
      { ...claim, owner: 'b', lease: { name: 'dispatcher', holder: 'b', epoch: 2 } },
      () => 'starting',
    );
    expect(claimed.map((job) => [job.id, job.state, job.owner])).toEqual([
      [jobs[0]!.id, 'starting', 'b'],
      [jobs[1]!.id, 'starting', 'c'],
      [jobs[2]!.id, 'starting', 'b'],
    ]);
    // Each assignee's ownership is fenced as a claim of its own would be.
    for (const job of claimed) expect(job.ownerEpoch).toBe(1);
  });
});
