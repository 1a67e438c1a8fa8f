import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuditTrail, type AuditRecord } from './audit';
import type { AuditEntry, AuditStore, Logger } from './ports';

const submitted = (target: string): AuditRecord => ({
  project: 'p',
  actor: 'key:k1',
  address: '127.0.0.1',
  action: 'job.submit',
  target,
});

/** A store that records each append, failing the first `failures` of them. */
function storeFailing(failures = 0) {
  const appends: AuditEntry[][] = [];
  const store: AuditStore = {
    append: async (entries) => {
      if (failures-- > 0) throw new Error('disk full');
      appends.push([...entries]);
    },
    list: async () => [],
    prune: async () => 0,
  };
  return { store, appends };
}

const logger = () => ({
  info: vi.fn<Logger['info']>(),
  warn: vi.fn<Logger['warn']>(),
  error: vi.fn<Logger['error']>(),
});

afterEach(() => vi.useRealTimers());

describe('the audit trail', () => {
  it('writes what was recorded within the interval in one append, in order', async () => {
    vi.useFakeTimers();
    const { store, appends } = storeFailing();
    const trail = new AuditTrail(store, logger(), { flushAfterMs: 100, flushAtCount: 500 });
    trail.record(submitted('j1'));
    trail.record(submitted('j2'));
    expect(appends).toEqual([]);
    await vi.advanceTimersByTimeAsync(100);
    expect(appends.map((batch) => batch.map((e) => e.target))).toEqual([['j1', 'j2']]);
    expect(appends[0]![0]).toMatchObject({ project: 'p', detail: {}, at: expect.any(Number) });
  });

  it('writes at once when enough are waiting', async () => {
    vi.useFakeTimers();
    const { store, appends } = storeFailing();
    const trail = new AuditTrail(store, logger(), { flushAfterMs: 100, flushAtCount: 3 });
    for (const target of ['a', 'b', 'c', 'd']) trail.record(submitted(target));
    await vi.advanceTimersByTimeAsync(0);
    expect(appends.map((batch) => batch.length)).toEqual([3]);
    await trail.stop();
    expect(appends.map((batch) => batch.length)).toEqual([3, 1]);
  });

  it('tries a failed write once more, and only logs when that fails too', async () => {
    const once = storeFailing(1);
    const log = logger();
    const trail = new AuditTrail(once.store, log);
    trail.record(submitted('j1'));
    await trail.stop();
    expect(once.appends).toHaveLength(1);
    expect(log.warn).toHaveBeenCalledTimes(1);

    const always = storeFailing(2);
    const lost = logger();
    const failing = new AuditTrail(always.store, lost);
    failing.record(submitted('j2'));
    await expect(failing.stop()).resolves.toBeUndefined();
    expect(lost.warn).toHaveBeenLastCalledWith(
      expect.objectContaining({ events: 1, attempt: 2 }),
      'audit: storing events failed again; these events are lost',
    );
  });

  it('lists what this instance recorded before the call', async () => {
    const { store, appends } = storeFailing();
    const trail = new AuditTrail(store, logger());
    trail.record(submitted('j1'));
    await trail.list('p', { limit: 10 });
    expect(appends).toHaveLength(1);
  });
});
