import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../server/store/open-store';
import type { Store } from '../../server/store/ports';
import { DRIVERS } from './drivers';
import { T0 } from './new-job';

describe.each(DRIVERS)('IncidentStore on $name', (driver) => {
  let store: Store;
  beforeEach(async () => {
    store = await openStore(await driver.fresh());
  });
  afterEach(() => store.close());

  const engine = { kind: 'engine_unreachable' as const, queue: null };
  const paused = { kind: 'queue_paused' as const, queue: 'p::default' };

  it('opens one window per kind and queue while one is open, and closes it', async () => {
    await store.incidents.open({ ...engine, startedAt: T0, note: null });
    await store.incidents.open({ ...engine, startedAt: T0 + 5, note: null }); // another instance's
    await store.incidents.open({ ...paused, startedAt: T0 + 10, note: 'disk full' });
    await store.incidents.close({ ...engine, at: T0 + 100 });
    expect(
      await store.incidents.overlapping({ queue: 'p::default', from: T0, to: T0 + 1000 }),
    ).toEqual([
      { ...engine, startedAt: T0, endedAt: T0 + 100, note: null },
      { ...paused, startedAt: T0 + 10, endedAt: null, note: 'disk full' },
    ]);
    // A second outage is a new window; another queue's pause is not this queue's.
    await store.incidents.open({ ...engine, startedAt: T0 + 200, note: null });
    await store.incidents.open({
      kind: 'queue_paused',
      queue: 'p::other',
      startedAt: T0,
      note: null,
    });
    const windows = await store.incidents.overlapping({
      queue: 'p::default',
      from: T0,
      to: T0 + 1000,
    });
    expect(windows.map((w) => [w.kind, w.queue, w.startedAt, w.endedAt])).toEqual([
      ['engine_unreachable', null, T0, T0 + 100],
      ['queue_paused', 'p::default', T0 + 10, null],
      ['engine_unreachable', null, T0 + 200, null],
    ]);
  });

  it('reads only windows overlapping the range, and prunes only ended ones older than asked', async () => {
    await store.incidents.open({ ...engine, startedAt: T0, note: null });
    await store.incidents.close({ ...engine, at: T0 + 10 });
    await store.incidents.open({ ...paused, startedAt: T0 + 50, note: null });
    const range = (from: number, to: number) =>
      store.incidents
        .overlapping({ queue: 'p::default', from, to })
        .then((ws) => ws.map((w) => w.kind));
    expect(await range(T0 + 20, T0 + 40)).toEqual([]);
    expect(await range(T0 + 10, T0 + 40)).toEqual(['engine_unreachable']);
    expect(await range(T0 + 60, T0 + 70)).toEqual(['queue_paused']); // open: lasts until now
    expect(await store.incidents.pruneEnded({ before: T0 + 11, limit: 10 })).toBe(1);
    expect(await range(T0, T0 + 100)).toEqual(['queue_paused']);
    expect(await store.incidents.pruneEnded({ before: T0 + 1000, limit: 10 })).toBe(0);
  });
});
