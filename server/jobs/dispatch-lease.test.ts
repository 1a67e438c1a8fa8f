import { afterEach, describe, expect, it, vi } from 'vitest';
import { DispatchLease } from './dispatch-lease';
import type { AcquireLeaseParams, LeaseRecord, LeaseStore } from './ports';

const logger = { info: () => {}, warn: () => {}, error: () => {} };

/** A store whose answers the test sets: whoever holds the lease, or a failure. */
function storeAnswering(answer: (params: AcquireLeaseParams) => Promise<LeaseRecord>) {
  const released: unknown[] = [];
  const leases: LeaseStore = {
    acquire: (params) => answer(params),
    release: async (fence) => {
      released.push(fence);
    },
    read: async () => undefined,
  };
  return { leases, released };
}

const held = (holder: string, epoch: number) => async (params: AcquireLeaseParams) => ({
  name: params.name,
  holder,
  epoch,
  expiresAt: params.now + params.ttlMs,
});

afterEach(() => {
  vi.useRealTimers();
});

describe('DispatchLease', () => {
  it('dispatches while it holds the lease, under its epoch, and says when it starts and stops', async () => {
    const changes: boolean[] = [];
    let answer = held('me', 3);
    const { leases, released } = storeAnswering((p) => answer(p));
    const lease = new DispatchLease({
      leases,
      holder: 'me',
      logger,
      onChange: (h) => changes.push(h),
    });
    await lease.start();
    expect(lease.fence).toEqual({ name: 'dispatcher', holder: 'me', epoch: 3 });
    answer = held('other', 4);
    await vi.waitFor(() => expect(changes).toEqual([true, false]), { timeout: 2_000 });
    expect(lease.fence).toBeUndefined();
    await lease.stop();
    expect(released).toEqual([]);
  });

  it('stops at once when its lease has lapsed on its own clock (a renewal never answered)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const changes: boolean[] = [];
    let hang = false;
    const { leases } = storeAnswering((p) =>
      hang ? new Promise<LeaseRecord>(() => {}) : held('me', 1)(p),
    );
    const lease = new DispatchLease({
      leases,
      holder: 'me',
      logger,
      onChange: (h) => changes.push(h),
    });
    await lease.start();
    hang = true;
    vi.setSystemTime(Date.now() + 999);
    expect(lease.fence?.epoch).toBe(1);
    vi.setSystemTime(Date.now() + 1);
    expect(lease.fence).toBeUndefined();
    expect(changes).toEqual([true, false]);
    await lease.stop();
  });

  it('stops when a renewal fails, and lets the lease go when it stops', async () => {
    const changes: boolean[] = [];
    let fail = false;
    const { leases, released } = storeAnswering((p) =>
      fail ? Promise.reject(new Error('store unreachable')) : held('me', 2)(p),
    );
    const lease = new DispatchLease({
      leases,
      holder: 'me',
      logger,
      onChange: (h) => changes.push(h),
    });
    await lease.start();
    fail = true;
    await vi.waitFor(() => expect(changes).toEqual([true, false]), { timeout: 2_000 });
    fail = false;
    await vi.waitFor(() => expect(changes).toEqual([true, false, true]), { timeout: 2_000 });
    await lease.stop();
    expect(released).toEqual([{ name: 'dispatcher', holder: 'me', epoch: 2 }]);
    expect(changes).toEqual([true, false, true, false]);
  });
});
