import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../server/store/open-store';
import type { Store } from '../../server/store/ports';
import { DRIVERS } from './drivers';
import { newJob, T0 } from './new-job';

const MiB = 2 ** 20;
const sample = (peakMemoryBytes: number, cpuNanos: number, more = {}) => ({
  attempt: 1,
  peakMemoryBytes,
  peakExact: false,
  cpuNanos,
  memoryLimitBytes: 64 * MiB,
  cpus: 0.5,
  sampledAt: T0,
  ...more,
});

describe.each(DRIVERS)('job usage on $name', (driver) => {
  let store: Store;
  beforeEach(async () => {
    store = await openStore(await driver.fresh());
  });
  afterEach(() => store.close());

  it('keeps the highest peak and the latest CPU time of each attempt, counting the samples', async () => {
    const job = newJob();
    await store.jobs.insertJob(job, 'fingerprint', { to: 'runnable', note: null });
    expect(await store.jobs.usage(job.id)).toEqual([]);
    await store.jobs.recordUsage(job.id, sample(30 * MiB, 5e9));
    // A later, smaller sample: the peak stays; figures past 2^31 survive (bigint columns).
    await store.jobs.recordUsage(job.id, sample(10 * MiB, 7e9, { sampledAt: T0 + 1000 }));
    await store.jobs.recordUsage(job.id, sample(40 * MiB, 9e9, { attempt: 2, peakExact: true }));
    expect(await store.jobs.usage(job.id)).toEqual([
      {
        attempt: 1,
        peakMemoryBytes: 30 * MiB,
        peakExact: false,
        cpuNanos: 7e9,
        memoryLimitBytes: 64 * MiB,
        cpus: 0.5,
        samples: 2,
        sampledAt: T0 + 1000,
      },
      {
        attempt: 2,
        peakMemoryBytes: 40 * MiB,
        peakExact: true,
        cpuNanos: 9e9,
        memoryLimitBytes: 64 * MiB,
        cpus: 0.5,
        samples: 1,
        sampledAt: T0,
      },
    ]);
  });

  it('takes the engine’s exact peak when it is at least the sampled one', async () => {
    const job = newJob();
    await store.jobs.insertJob(job, 'fingerprint', { to: 'runnable', note: null });
    await store.jobs.recordUsage(job.id, sample(20 * MiB, 1));
    await store.jobs.recordUsage(job.id, sample(25 * MiB, 2, { peakExact: true }));
    expect((await store.jobs.usage(job.id))[0]).toMatchObject({
      peakMemoryBytes: 25 * MiB,
      peakExact: true,
    });
  });
});
