import { afterEach, describe, expect, it } from 'vitest';
import { FakeRuntime } from '../../server/runtime/fake/fake-runtime';
import { startDomain } from './harness';

let domain: Awaited<ReturnType<typeof startDomain>>;
afterEach(() => domain.close());

// No reconciler pass comes to the rescue within a test: whatever moves, the dispatcher moved.
const NO_PASS_MS = 600_000;
const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();

describe('the dispatcher, woken by events alone', () => {
  it('starts a submitted job, and a waiting one as soon as a slot frees', async () => {
    domain = await startDomain(new FakeRuntime(), undefined, NO_PASS_MS);
    const first = await Promise.all(Array.from({ length: 4 }, () => domain.submit()));
    for (const id of first) await domain.waitFor(id, 'running', 1000);
    const waiting = await domain.submit();
    await domain.waitFor(waiting, 'runnable', 1000);
    domain.engine.exit(first[0]!, 0);
    await domain.waitFor(waiting, 'running', 1000);
  });

  it('starts a scheduled job at its time, even one due before the job the timer was armed for', async () => {
    domain = await startDomain(new FakeRuntime(), undefined, NO_PASS_MS);
    const later = await domain.submit({ schedule_at: inMs(60_000) });
    await domain.waitFor(later, 'pending', 1000);
    const sooner = await domain.submit({ schedule_at: inMs(300) });
    const started = Date.now();
    await domain.waitFor(sooner, 'running', 2000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect((await domain.system.service.detail('t', later)).state).toBe('pending');
  });
});
