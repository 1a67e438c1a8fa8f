import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../server/store/open-store';
import type { Store } from '../../server/store/ports';
import { DRIVERS } from './drivers';
import { T0, insertRunnable } from './new-job';

const GIB = 1024 ** 3;
const FALLBACK = { cpus: 1, memoryBytes: GIB };
const use = (cpus: number, memoryBytes: number, gpus: number, jobs: number) => ({
  cpus,
  memoryBytes,
  gpus,
  jobs,
});

describe.each(DRIVERS)('fair share figures on $name', (driver) => {
  let store: Store;
  beforeEach(async () => {
    store = await openStore(await driver.fresh());
  });
  afterEach(() => store.close());

  it('sums what the jobs holding a slot ask for, per queue, a slot each', async () => {
    const resources = { cpus: 2, memoryBytes: 3 * GIB, gpus: 1 };
    await insertRunnable(store.jobs, { queue: 'p::a', resources });
    await insertRunnable(store.jobs, { queue: 'p::a', resources });
    await insertRunnable(store.jobs, {
      queue: 'p::b',
      resources: null,
      cpus: null,
      memoryBytes: null,
    });
    await insertRunnable(store.jobs, { queue: 'p::b', resources });
    for (const queue of ['p::a', 'p::b']) {
      await store.jobs.claimRunnable(
        {
          queue,
          limit: 2,
          queueMax: queue === 'p::a' ? 2 : 1,
          serviceMax: 10,
          owner: 'i',
          at: T0 + 1,
        },
        () => 'starting',
      );
    }
    const { held } = await store.jobs.shareUse({ since: 0, fallback: FALLBACK });
    expect(Object.fromEntries(held)).toEqual({
      'p::a': use(4, 6 * GIB, 2, 2),
      // A job stored before requests were kept asks for the fallback.
      'p::b': use(1, GIB, 0, 1),
    });
  });

  it('adds ended use to its bucket, from instances at once, and forgets old buckets', async () => {
    const entry = (queue: string, bucketStart: number, cpus: number) => ({
      queue,
      bucketStart,
      use: use(cpus, cpus * 1e12, 0, cpus),
    });
    await Promise.all([
      store.jobs.addShareUse([entry('p::a', T0, 10), entry('p::b', T0, 1)], 0),
      store.jobs.addShareUse([entry('p::a', T0, 5)], 0),
    ]);
    await store.jobs.addShareUse([entry('p::a', T0 + 60_000, 7)], T0 + 1);
    const { buckets } = await store.jobs.shareUse({ since: 0, fallback: FALLBACK });
    // The T0 buckets were forgotten by the last write; byte-seconds past 2^53 / 1000 survive.
    expect(buckets).toEqual([entry('p::a', T0 + 60_000, 7)]);
    await store.jobs.addShareUse([entry('p::a', T0 + 60_000, 1)], 0);
    const again = await store.jobs.shareUse({ since: T0 + 60_000, fallback: FALLBACK });
    expect(again.buckets).toEqual([entry('p::a', T0 + 60_000, 8)]);
  });
});

describe.each(DRIVERS)('waiting jobs by reason on $name', (driver) => {
  let store: Store;
  beforeEach(async () => {
    store = await openStore(await driver.fresh());
  });
  afterEach(() => store.close());

  it('counts runnable jobs by queue: no room, backoff, or a slot', async () => {
    const big = { cpus: 64, memoryBytes: GIB, gpus: 0 };
    await insertRunnable(store.jobs, { queue: 'p::a', resources: big });
    await insertRunnable(store.jobs, { queue: 'p::a' });
    await insertRunnable(store.jobs, { queue: 'p::b' });
    // Placed on a host of 2 CPUs: the big one gets its note, the other starts.
    await store.jobs.claimRunnable(
      {
        queue: 'p::a',
        limit: 10,
        queueMax: 10,
        serviceMax: 10,
        owner: 'i',
        at: T0 + 1,
        placement: {
          hosts: [{ id: 'h', name: 'h', cpus: 2, memoryBytes: 8 * GIB, gpus: 0, state: 'ready' }],
          policy: 'binpack',
          fallback: FALLBACK,
        },
      },
      () => 'starting',
    );
    const rows = await store.jobs.waitingByReason(T0 + 2, FALLBACK);
    expect(rows.sort((x, y) => (x.queue < y.queue ? -1 : 1))).toEqual([
      { queue: 'p::a', reason: 'room', count: 1, need: use(64, GIB, 0, 1) },
      { queue: 'p::b', reason: 'slot', count: 1, need: use(0.5, 4 * GIB, 0, 1) },
    ]);
  });
});
