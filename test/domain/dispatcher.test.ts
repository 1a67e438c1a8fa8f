import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeRuntime } from '../../server/runtime/fake/fake-runtime';
import { startDomain } from './harness';

let domain: Awaited<ReturnType<typeof startDomain>>;
afterEach(() => domain.close());

// No reconciler pass comes to the rescue within a test: whatever moves, the dispatcher moved.
const NO_PASS_MS = 600_000;
const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();

describe('the dispatcher, woken by events alone', () => {
  it('starts a submitted job, and a waiting one as soon as a slot frees', async () => {
    domain = await startDomain(new FakeRuntime(), { reconcileIntervalMs: NO_PASS_MS });
    const first = await Promise.all(Array.from({ length: 4 }, () => domain.submit()));
    for (const id of first) await domain.waitFor(id, 'running', 20_000);
    const waiting = await domain.submit();
    await domain.waitFor(waiting, 'runnable', 20_000);
    domain.engine.exit(first[0]!, 0);
    await domain.waitFor(waiting, 'running', 20_000);
  });

  it('starts a scheduled job at its time, even one due before the job the timer was armed for', async () => {
    domain = await startDomain(new FakeRuntime(), { reconcileIntervalMs: NO_PASS_MS });
    const later = await domain.submit({ schedule_at: inMs(60_000) });
    await domain.waitFor(later, 'pending', 20_000);
    const sooner = await domain.submit({ schedule_at: inMs(300) });
    const started = Date.now();
    await domain.waitFor(sooner, 'running', 20_000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect((await domain.system.service.detail('t', later)).state).toBe('pending');
  });

  it('does not spin on a job waiting for another past its schedule_at: the timer is armed for times to come', async () => {
    domain = await startDomain(new FakeRuntime(), { reconcileIntervalMs: NO_PASS_MS });
    const first = await domain.submit({ schedule_at: inMs(60_000) });
    await domain.waitFor(first, 'pending');
    const reads = vi.spyOn(domain.store, 'nextScheduleAt');
    const waiting = await domain.submit({
      schedule_at: inMs(100),
      depends_on: [{ job_id: first }],
    });
    await new Promise((r) => setTimeout(r, 1100));
    // A tick or three (the submit, the 100 ms timer); it was hundreds, re-armed at 0 ms.
    expect(reads.mock.calls.length).toBeLessThan(10);
    expect((await domain.waitFor(waiting, 'pending')).systemNote).toMatch(/^waiting for job /);
  });
});

describe('the dispatcher, claiming in several queues', () => {
  it('starts a burst in the one queue that has work with a few claims, not one claim a job', async () => {
    domain = await startDomain(new FakeRuntime(), {
      reconcileIntervalMs: NO_PASS_MS,
      queues: { wide: { max_running: 12 }, other: { max_running: 4 } },
    });
    const claims = vi.spyOn(domain.store, 'claimRunnable');
    // Due together (within the service's 16): one tick promotes all of them, then fills the room.
    // Far enough ahead for the twelve submits to be in before it, on a loaded machine too (300 ms
    // was not, once: the burst came due over two ticks).
    const at = inMs(3_000);
    const burst = await Promise.all(
      Array.from({ length: 12 }, () => domain.submit({ job_queue: 't::wide', schedule_at: at })),
    );
    for (const id of burst) await domain.waitFor(id, 'running', 10_000);
    const inWide = claims.mock.calls.filter(([claim]) => claim.queue === 't::wide');
    // Fair share ranks the three queues (default and other have nothing): once they claimed
    // nothing, wide's claim takes the room at once. It was 12 claims, one a job.
    expect(inWide.length).toBeLessThanOrEqual(3);
  }, 30_000);
});
