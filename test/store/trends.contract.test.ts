import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JobState } from '../../contract';
import type { Logger } from '../../server/jobs/ports';
import { bucketOf } from '../../server/jobs/trend-histogram';
import { DAY_MS, HOUR_MS, TrendRoller, keptFrom, readTrends } from '../../server/jobs/trends';
import { Catalog } from '../../server/jobs/catalog';
import { openStore } from '../../server/store/open-store';
import type { Store } from '../../server/store/ports';
import { DRIVERS, type StoreConfig } from './drivers';
import { newJob, T0 } from './new-job';

const quiet: Logger = { info() {}, warn() {}, error() {} };
const catalog = new Catalog(
  [
    {
      ref: 'p::default',
      project: 'p',
      maxRunning: 1,
      maxRunningCeiling: 1,
      placement: 'binpack',
      priority: 0,
      pausedAtStart: false,
      keepFinishedMs: null,
    },
  ],
  [],
  1,
);
/** Passes are run at this time: T0 is in the last 24 hours of it. */
const NOW = T0 + 2 * HOUR_MS;

describe.each(DRIVERS)('trends on $name', (driver) => {
  let config: StoreConfig;
  let store: Store;
  beforeEach(async () => {
    config = await driver.fresh();
    store = await openStore(config);
  });
  afterEach(() => store.close());

  const roller = (on: Store = store, batchSize = 100) =>
    new TrendRoller(on.trends, quiet, { intervalMs: 60_000, batchSize });

  /** A job that waited `waitMs` after its submit, then ran `runMs` and ended `state`. */
  async function ended(
    state: JobState,
    endAt: number,
    {
      waitMs = 1000,
      runMs = 5000,
      queue = 'p::default',
    }: { waitMs?: number; runMs?: number | null; queue?: string } = {},
  ) {
    const startedAt = runMs === null ? undefined : endAt - runMs;
    const createdAt = (startedAt ?? endAt) - waitMs;
    const job = newJob({ createdAt, queue });
    await store.jobs.insertJob(job, 'fingerprint', { to: 'runnable', note: null });
    await store.jobs.moveJob({
      id: job.id,
      from: 'runnable',
      to: state,
      at: endAt,
      note: null,
      fields: { finishedAt: endAt, ...(startedAt !== undefined && { startedAt }) },
    });
    return job;
  }

  const trends = (range: '24h' | '30d' = '24h') =>
    readTrends(store.trends, catalog, 'p', 'p::default', range, NOW);
  const totals = async (range: '24h' | '30d' = '24h') => {
    const { points } = await trends(range);
    return points.reduce(
      (sum, p) => ({
        completed: sum.completed + p.completed,
        failed: sum.failed + p.failed,
        cancelled: sum.cancelled + p.cancelled,
      }),
      { completed: 0, failed: 0, cancelled: 0 },
    );
  };

  it('counts ended jobs by hour and outcome with their times, and each once', async () => {
    await ended('completed', T0 + 10, { waitMs: 2000, runMs: 60_000 });
    await ended('completed', T0 + 20, { waitMs: 2000, runMs: 60_000 });
    await ended('timeout', T0 + HOUR_MS, { waitMs: 2000, runMs: 600_000 });
    await ended('error', T0 + HOUR_MS + 5, { waitMs: 2000, runMs: 600_000 });
    await ended('cancelled', T0 + HOUR_MS + 9, { runMs: null });
    // Still running: its changes are read, nothing of it counted.
    await store.jobs.insertJob(newJob(), 'fingerprint', { to: 'runnable', note: null });

    const first = roller();
    // The store's first change is in the window: every change is read, three of each ended
    // job (submitted, runnable, its end), two of the running one.
    expect(await first.pass(NOW)).toBe(17);
    expect(await first.pass(NOW)).toBe(0);
    expect(await roller().pass(NOW)).toBe(0);

    const day = await trends();
    const byStart = new Map(day.points.map((p) => [p.start, p]));
    expect(byStart.get(T0)).toEqual({ start: T0, completed: 2, failed: 0, cancelled: 0 });
    expect(byStart.get(T0 + HOUR_MS)).toEqual({
      start: T0 + HOUR_MS,
      completed: 0,
      failed: 2,
      cancelled: 1,
    });
    expect(day.wait.jobs).toBe(4);
    expect(day.run.jobs).toBe(4);
    // Half ran a minute, half ten: the median is the lower, the 95th the upper.
    expect(bucketOf(day.run.p50Ms!)).toBe(bucketOf(60_000));
    expect(bucketOf(day.run.p95Ms!)).toBe(bucketOf(600_000));
    expect(bucketOf(day.wait.p50Ms!)).toBe(bucketOf(2000));
    expect(await totals('30d')).toEqual({ completed: 2, failed: 2, cancelled: 1 });
  });

  it('counts from the first start only what the rollups keep, and steps over deleted changes', async () => {
    await ended('completed', T0 - 40 * DAY_MS);
    await ended('completed', T0 - 3 * DAY_MS);
    await ended('failed', T0 - 2 * DAY_MS, { queue: 'p::short' });
    await ended('failed', T0 - DAY_MS);
    await ended('completed', T0);
    // Retention deleted a job of another queue with its changes: a gap of old numbers.
    expect(await store.retention.pruneFinished({ queue: 'p::short', before: T0, limit: 10 })).toBe(
      1,
    );
    // The first job's three changes are older than the rollups keep.
    expect(await store.trends.seqBefore(NOW - 31 * DAY_MS)).toBe(3);

    expect(await roller(store, 2).pass(NOW)).toBe(9);
    expect(await store.trends.cursor()).toBe(await store.jobs.lastChangeSeq());
    expect(await totals('30d')).toEqual({ completed: 2, failed: 1, cancelled: 0 });
  });

  it('prunes hourly rollups after two days and daily ones past 31 days', async () => {
    // What the retention pass does for the rollups, after the roller's pass at the same time.
    const rollAndPrune = async (now: number) => {
      await roller().pass(now);
      for (const period of ['hour', 'day'] as const) {
        await store.trends.pruneBefore(period, keptFrom(period, now));
      }
    };
    await ended('completed', T0);
    await roller().pass(NOW);
    expect(await totals('30d')).toEqual({ completed: 1, failed: 0, cancelled: 0 });
    const rows = async () =>
      Promise.all(
        (['hour', 'day'] as const).map(async (period) => [
          (await store.trends.outcomes({ queue: 'p::default', period, from: 0 })).length,
          (await store.trends.durations({ queue: 'p::default', period, from: 0 })).length,
        ]),
      );
    expect(await rows()).toEqual([
      [1, 2],
      [1, 2],
    ]);

    await rollAndPrune(NOW + 3 * DAY_MS);
    expect(await rows()).toEqual([
      [0, 0],
      [1, 2],
    ]);
    expect(await totals('30d')).toEqual({ completed: 1, failed: 0, cancelled: 0 });

    const later = NOW + 32 * DAY_MS;
    await rollAndPrune(later);
    const { points } = await readTrends(store.trends, catalog, 'p', 'p::default', '30d', later);
    expect(points.every((p) => p.completed === 0)).toBe(true);
    expect(await rows()).toEqual([
      [0, 0],
      [0, 0],
    ]);
  });

  it('counts a batch once when two instances roll at the same time', async () => {
    const jobs = 120;
    for (let i = 0; i < jobs; i++) await ended(i % 3 === 0 ? 'failed' : 'completed', T0 + i);
    // PostgreSQL: a second client of the store, as another instance has. SQLite serves one
    // instance: its rollers share the connection and still race between their reads and writes.
    const other = driver.name === 'postgres' ? await openStore(config) : store;
    try {
      const rolled = await Promise.all([
        roller(store, 25).pass(NOW),
        roller(other, 25).pass(NOW),
        roller(other, 25).pass(NOW),
      ]);
      rolled.push(await roller(store, 25).pass(NOW));
      // However the batches were split between them, each change was counted by one of them.
      expect(rolled.reduce((a, b) => a + b, 0)).toBe(jobs * 3);
    } finally {
      if (other !== store) await other.close();
    }
    expect(await totals()).toEqual({ completed: 80, failed: 40, cancelled: 0 });
    expect((await trends()).run.jobs).toBe(jobs);
    expect(await store.trends.cursor()).toBe(await store.jobs.lastChangeSeq());
  });
});
