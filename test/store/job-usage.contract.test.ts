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

describe.each(DRIVERS)('a definition’s recent runs on $name', (driver) => {
  let store: Store;
  beforeEach(async () => {
    store = await openStore(await driver.fresh());
  });
  afterEach(() => store.close());

  /** A job of `definition` that ran from T0 + `at` for 10 s, with one sample of `peakMiB`. */
  async function ended(definition: string, at: number, peakMiB: number, retried = false) {
    const job = newJob({ definition, ...(retried && { retry: { attempts: 2 } }) });
    await store.jobs.insertJob(job, 'fingerprint', { to: 'runnable', note: null });
    const [startedAt, finishedAt] = [T0 + at, T0 + at + 10_000];
    await store.jobs.moveJob({
      id: job.id,
      from: 'runnable',
      to: 'completed',
      at: finishedAt,
      note: null,
      fields: retried ? { finishedAt, exitCode: 0 } : { startedAt, finishedAt, exitCode: 0 },
      // A job with retries keeps each attempt's times on its record.
      ...(retried && {
        endedAttempt: {
          attempt: 1,
          state: 'completed',
          exitCode: 0,
          reason: 'completed',
          note: null,
          node: null,
          startedAt,
          finishedAt,
          retried: false,
          memoryBytes: 64 * MiB,
        },
      }),
    });
    await store.jobs.recordUsage(job.id, sample(peakMiB * MiB, 2e9, { sampledAt: finishedAt }));
    return job;
  }

  it('reads the ended attempts with figures of that definition only, newest first, within the limit', async () => {
    await ended('p::echo:1', 0, 10);
    await ended('p::echo:1', 20_000, 20, true);
    await ended('p::other:1', 40_000, 99);
    await ended('p::echo:1', 60_000, 30);
    // Running: no end yet, so no run to size by.
    const running = newJob();
    await store.jobs.insertJob(running, 'fingerprint', { to: 'runnable', note: null });
    await store.jobs.recordUsage(running.id, sample(50 * MiB, 1e9));
    // Ended, but never sampled: no figures.
    const unsampled = newJob();
    await store.jobs.insertJob(unsampled, 'fingerprint', { to: 'runnable', note: null });

    const run = (peakMiB: number) => ({
      peakMemoryBytes: peakMiB * MiB,
      memoryLimitBytes: 64 * MiB,
      cpuNanos: 2e9,
      cpus: 0.5,
      wallMs: 10_000,
    });
    expect(await store.jobs.recentRuns('p::echo:1', 50, 500)).toEqual([run(30), run(20), run(10)]);
    expect(await store.jobs.recentRuns('p::echo:1', 2, 500)).toEqual([run(30), run(20)]);
    // Only the newest `scan` jobs are looked at: the unsampled, the running and the 60 s one here.
    expect(await store.jobs.recentRuns('p::echo:1', 50, 3)).toEqual([run(30)]);
    expect(await store.jobs.recentRuns('p::none:1', 50, 500)).toEqual([]);
  });
});
