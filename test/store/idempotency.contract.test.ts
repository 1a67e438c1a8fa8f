import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../server/store/open-store';
import type { Store } from '../../server/store/ports';
import { DRIVERS, queryBeside as query, type StoreConfig } from './drivers';
import { newJob, T0 } from './new-job';

const RUNNABLE = { to: 'runnable', note: null } as const;
const HOUR = 3_600_000;
const keyed = (key: string, digest: string, expiresAt = T0 + HOUR) => ({
  key,
  digest,
  expiresAt,
});

const jobCount = async (config: StoreConfig) =>
  Number((await query<{ n: number }>(config, 'SELECT count(*) AS n FROM jobs'))[0]!.n);

describe.each(DRIVERS)('Idempotency-Keys on $name', (driver) => {
  let config: StoreConfig;
  let store: Store;
  beforeEach(async () => {
    config = await driver.fresh();
    store = await openStore(config);
  });
  afterEach(() => store.close());

  it('stores the key with its job; a second job with it is refused with the holder, storing nothing', async () => {
    const first = newJob();
    const stored = await store.jobs.insertJob(first, 'fp', RUNNABLE, keyed('k1', 'd1'));
    expect(stored.inserted).toBe(true);
    expect(await store.jobs.heldKey('p', 'k1', T0)).toEqual({ jobId: first.id, digest: 'd1' });

    const second = newJob();
    const refused = await store.jobs.insertJob(second, 'fp', RUNNABLE, keyed('k1', 'd2'));
    expect(refused).toEqual({ inserted: false, keyHeldBy: { jobId: first.id, digest: 'd1' } });
    expect(await store.jobs.getJob(second.id)).toBeUndefined();
    expect(await jobCount(config)).toBe(1);
  });

  it('keys are per project', async () => {
    const mine = newJob();
    const theirs = newJob({ project: 'q', queue: 'q::default', definition: 'q::echo:1' });
    await store.jobs.insertJob(mine, 'fp', RUNNABLE, keyed('same', 'd'));
    const other = await store.jobs.insertJob(theirs, 'fp', RUNNABLE, keyed('same', 'd'));
    expect(other.inserted).toBe(true);
    expect((await store.jobs.heldKey('q', 'same', T0))?.jobId).toBe(theirs.id);
    expect((await store.jobs.heldKey('p', 'same', T0))?.jobId).toBe(mine.id);
  });

  it('one key twice in one batch: one job, the other answered with it', async () => {
    const [a, b] = [newJob(), newJob()];
    // In the same turn: one batch, which the key undoes, then each alone.
    const results = await Promise.all([
      store.jobs.insertJob(a, 'fp', RUNNABLE, keyed('batch', 'd')),
      store.jobs.insertJob(b, 'fp', RUNNABLE, keyed('batch', 'd')),
      store.jobs.insertJob(newJob(), 'fp', RUNNABLE),
    ]);
    expect(results.map((r) => r.inserted)).toEqual([true, false, true]);
    expect(results[1]).toEqual({ inserted: false, keyHeldBy: { jobId: a.id, digest: 'd' } });
    expect(await jobCount(config)).toBe(2);
  });

  it('an expired key holds nothing: a new job takes it over', async () => {
    const old = newJob();
    await store.jobs.insertJob(old, 'fp', RUNNABLE, keyed('k', 'd-old', T0 + 1000));
    expect(await store.jobs.heldKey('p', 'k', T0 + 1000)).toBeUndefined();
    const later = newJob({ createdAt: T0 + 1000 });
    const taken = await store.jobs.insertJob(later, 'fp', RUNNABLE, keyed('k', 'd-new', T0 + HOUR));
    expect(taken.inserted).toBe(true);
    expect(await store.jobs.heldKey('p', 'k', T0 + 1000)).toEqual({
      jobId: later.id,
      digest: 'd-new',
    });
  });

  it('an array’s parent carries the key: a second array with it is refused, none of its children stored', async () => {
    const parent = newJob({ array: { size: 2 } });
    const child = (p: typeof parent, index: number) => ({
      job: newJob({ array: { parentId: p.id, index }, name: `${p.name}:${index}` }),
      admission: RUNNABLE,
    });
    const first = await store.jobs.insertArray(
      parent,
      RUNNABLE,
      [child(parent, 0), child(parent, 1)],
      'fp',
      keyed('arr', 'd'),
    );
    expect(first.inserted).toBe(true);
    const other = newJob({ array: { size: 2 } });
    const refused = await store.jobs.insertArray(
      other,
      RUNNABLE,
      [child(other, 0), child(other, 1)],
      'fp',
      keyed('arr', 'd'),
    );
    expect(refused).toEqual({ inserted: false, keyHeldBy: { jobId: parent.id, digest: 'd' } });
    expect(await jobCount(config)).toBe(3);
  });

  it('retention deletes the expired keys only, a batch at a time', async () => {
    for (let i = 0; i < 5; i++) {
      await store.jobs.insertJob(newJob(), 'fp', RUNNABLE, keyed(`old-${i}`, 'd', T0 + i));
    }
    await store.jobs.insertJob(newJob(), 'fp', RUNNABLE, keyed('live', 'd', T0 + HOUR));
    const batch = { before: T0 + 10, limit: 3 };
    expect(await store.retention.pruneIdempotencyKeys(batch)).toBe(3);
    expect(await store.retention.pruneIdempotencyKeys(batch)).toBe(2);
    expect(await store.retention.pruneIdempotencyKeys(batch)).toBe(0);
    const left = await query<{ idempotency_key: string }>(
      config,
      'SELECT idempotency_key FROM idempotency_keys',
    );
    expect(left.map((row) => row.idempotency_key)).toEqual(['live']);
    // The jobs are retention's business by their own rule, not the keys'.
    expect(await jobCount(config)).toBe(6);
  });
});
