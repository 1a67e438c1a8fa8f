import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Signal } from '../../server/jobs/ports';
import { openStore } from '../../server/store/open-store';
import type { Store } from '../../server/store/ports';
import { DRIVERS, type StoreConfig } from './drivers';
import { T0, insertRunnable } from './new-job';

describe.each(DRIVERS)('instances, takeover and signals on $name', (driver) => {
  let config: StoreConfig;
  let store: Store;
  beforeEach(async () => {
    config = await driver.fresh();
    store = await openStore(config);
  });
  afterEach(() => store.close());

  it('registers instances, beats, records a clean stop, forgets the long silent', async () => {
    const base = { host: 'h', pid: 7, startedAt: T0, heartbeatAt: T0, stoppedAt: null };
    await store.instances.register({ id: 'a', ...base });
    await store.instances.register({ id: 'b', ...base });
    await store.instances.heartbeat('a', T0 + 5_000);
    await store.instances.leave('b', T0 + 6_000);
    const byId = new Map((await store.instances.list()).map((i) => [i.id, i]));
    expect(byId.get('a')).toEqual({ id: 'a', ...base, heartbeatAt: T0 + 5_000 });
    expect(byId.get('b')).toEqual({ id: 'b', ...base, stoppedAt: T0 + 6_000 });
    await store.instances.forget(T0 + 1);
    expect((await store.instances.list()).map((i) => i.id)).toEqual(['a']);
  });

  it('hands each job holding a slot of a lost owner to exactly one taker', async () => {
    const jobs = await Promise.all([0, 1, 2].map(() => insertRunnable(store.jobs)));
    const claimed = await store.jobs.claimRunnable(
      { queue: 'p::default', limit: 3, queueMax: 3, serviceMax: 3, owner: 'lost', at: T0 + 2 },
      () => 'starting',
    );
    expect(claimed).toHaveLength(3);
    const unowned = await insertRunnable(store.jobs);
    await store.jobs.moveJob({
      id: unowned.id,
      from: 'runnable',
      to: 'starting',
      at: T0 + 3,
      note: null,
    });

    // Two survivors at once: the second finds nothing left.
    const [first, second] = await Promise.all([
      store.jobs.takeOver({ from: 'lost', to: 'x' }),
      store.jobs.takeOver({ from: 'lost', to: 'y' }),
    ]);
    expect([...first, ...second].sort()).toEqual(jobs.map((j) => j.id).sort());
    expect(first.length === 0 || second.length === 0).toBe(true);
    expect(await store.jobs.takeOver({ from: null, to: 'x' })).toEqual([unowned.id]);
    expect(await store.jobs.takeOver({ from: 'lost', to: 'x' })).toEqual([]);
  });

  it('delivers a signal to every subscriber of the store, this one included', async () => {
    const other = await openStore(config); // another instance's connection to the same store
    try {
      const heard: Signal[] = [];
      const got = (count: number) =>
        new Promise<void>((resolve) => {
          const check = setInterval(() => {
            if (heard.length >= count) {
              clearInterval(check);
              resolve();
            }
          }, 5);
        });
      store.signals.subscribe((signal) => heard.push(signal));
      await store.signals.publish({ kind: 'job', jobId: 'j-1' });
      await got(1);
      expect(heard).toEqual([{ kind: 'job', jobId: 'j-1' }]);
      if (driver.name === 'postgres') {
        // Across processes only where the store is shared: PostgreSQL's LISTEN/NOTIFY.
        await other.signals.publish({ kind: 'dispatch', from: 'other' });
        await other.signals.publish({ kind: 'changes' });
        // One signal naming every instance a claim gave jobs to.
        const to = ['host-a-12-0f0f0f', 'host.b-7-a1b2c3'];
        await other.signals.publish({ kind: 'assigned', to });
        await got(4);
        expect(heard.slice(1)).toEqual([
          { kind: 'dispatch', from: 'other' },
          { kind: 'changes' },
          { kind: 'assigned', to },
        ]);
      }
    } finally {
      await other.close();
    }
  });
});
