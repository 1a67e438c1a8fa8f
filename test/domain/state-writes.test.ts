import { afterEach, describe, expect, it } from 'vitest';
import type { JobStore } from '../../server/jobs/ports';
import { startDomain } from './harness';

let domain: Awaited<ReturnType<typeof startDomain>>;
afterEach(() => domain.close());

/** The JobStore methods that write a job's state (insert one already moved on, or move one). */
const STATE_WRITES = [
  'insertJob',
  'moveJob',
  'claimRunnable',
  'insertArray',
  'insertArrayChildren',
  'moveArrayChildren',
] as const;

/**
 * Records every state write on the store, and those whose call did not come from the state
 * machine (state-machine.ts absent from the stack at the call), with the stack that made them.
 */
function watchStateWrites(store: JobStore) {
  const seen = new Set<string>();
  const outside: string[] = [];
  const methods = store as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  for (const name of STATE_WRITES) {
    const write = methods[name]!.bind(store);
    methods[name] = (...args) => {
      seen.add(name);
      const stack = new Error().stack ?? '';
      if (!/state-machine\.ts/.test(stack)) outside.push(`${name}: ${stack}`);
      return write(...args);
    };
  }
  return { seen, outside };
}

const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();

describe('the state machine, the only writer of states', () => {
  it('stores and moves every job, an array and its children too, through the state machine', async () => {
    domain = await startDomain();
    const writes = watchStateWrites(domain.store);
    const cancel = (id: string) => domain.system.service.cancel('t', id, 'key:test');

    // A job admitted, claimed, started and cancelled.
    const single = await domain.submit();
    await domain.waitFor(single, 'running');
    await cancel(single);
    await domain.waitFor(single, 'cancelled');

    // An array larger than one chunk of children: its first children stored with it, the rest
    // after; scheduled ahead, so that all wait, then cancelled together with their parent.
    const waiting = await domain.submit({ array: { size: 300 }, schedule_at: inMs(60_000) });
    await domain.waitFor(waiting, 'pending');
    expect((await domain.store.arrayChildIds(waiting)).size).toBe(300);
    await cancel(waiting);
    await domain.waitFor(waiting, 'cancelled', 15_000);

    // An array released at once: its children moved on together once the parent is runnable.
    const released = await domain.submit({ array: { size: 2 } });
    await domain.waitFor(released, 'running', 15_000);

    expect([...writes.seen].sort()).toEqual([...STATE_WRITES].sort());
    expect(writes.outside).toEqual([]);
  }, 60_000);
});
