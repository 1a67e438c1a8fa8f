import { afterEach, describe, expect, it } from 'vitest';
import { auditEntry } from '../../server/jobs/audit';
import { RECLAIM_ACTOR } from '../../server/jobs/preemption';
import { FakeRuntime } from '../../server/runtime/fake/fake-runtime';
import { startDomain, until } from './harness';

/**
 * Reclaim by preemption through the real dispatcher and runner on the fake engine (no hosts: the
 * service's slots are what is full). Project t's queue `other` lends to `default` and takes back
 * at once (`reclaim: preempt`); the fake engine ends a stopped job with 143 (SIGTERM).
 */
let domain: Awaited<ReturnType<typeof startDomain>>;
afterEach(() => domain.close());

// No reconciler pass comes to the rescue within a test unless it says so.
const NO_PASS_MS = 600_000;

async function start(lenderJobs: number, maxRunning: number, reconcileIntervalMs = NO_PASS_MS) {
  domain = await startDomain(new FakeRuntime(), {
    reconcileIntervalMs,
    maxRunning,
    queues: {
      default: { max_running: 10, quota: { jobs: 2 } },
      other: { max_running: 10, quota: { jobs: lenderJobs, reclaim: 'preempt' } },
    },
  });
}

const submitTo = (queue: 'default' | 'other') => domain.submit({ job_queue: `t::${queue}` });

/** Jobs of `default` started one after the other: each younger than the one before. */
async function borrowerRunning(n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i += 1) {
    const id = await submitTo('default');
    await domain.waitFor(id, 'running', 20_000);
    ids.push(id);
    await new Promise((r) => setTimeout(r, 5));
  }
  return ids;
}

/** The note of its move from running back to runnable. */
async function requeueNote(id: string) {
  const transitions = await domain.store.transitions(id);
  return transitions.find((t) => t.from === 'running' && t.to === 'runnable')?.note;
}

const launchesOf = (id: string) => domain.engine.launches.filter((j) => j === id).length;
const REASON = 'queue t::other reclaimed 1 job it lent';
/** The audit event stored with a mark made by the test itself. */
const preemptAudit = (id: string) =>
  auditEntry({
    project: 't',
    actor: RECLAIM_ACTOR,
    address: '-',
    action: 'job.preempt',
    target: id,
  });

describe('reclaim by preemption', { timeout: 60_000 }, () => {
  it("preempts the youngest borrowed job for the lender's job, which starts; the preempted one runs again once", async () => {
    await start(2, 4);
    const borrowed = await borrowerRunning(4);
    const lender = await submitTo('other');
    await domain.waitFor(lender, 'running', 20_000);
    const youngest = borrowed[3]!;
    const requeued = await domain.waitFor(youngest, 'runnable', 20_000);
    expect(await requeueNote(youngest)).toBe(`preempted: ${REASON}; will run again`);
    expect(requeued.attempt).toBe(2);
    expect(requeued.preemptions).toBe(1);
    expect(requeued.preemption).toBeNull();
    expect(await domain.history(youngest)).toEqual([
      'submitted',
      'runnable',
      'starting',
      'running',
      'runnable',
    ]);
    // SIGTERM with the job's grace, once; the others kept running.
    expect(domain.engine.stops).toEqual([{ jobId: youngest, graceSeconds: 2 }]);
    for (const id of borrowed.slice(0, 3))
      expect((await domain.store.getJob(id))!.state).toBe('running');
    const [attempt] = await domain.store.attempts(youngest);
    expect(attempt).toMatchObject({
      attempt: 1,
      state: 'cancelled',
      exitCode: 143,
      reason: 'preempted',
      retried: true,
    });
    const audit = await domain.system.audit.list('t', { action: 'job.preempt', limit: 10 });
    expect(audit).toMatchObject([
      {
        actor: 'system:reclaim',
        target: youngest,
        detail: { reason: REASON, queue: 't::default' },
      },
    ]);
    // A slot frees: the preempted job runs again, and completes once.
    domain.engine.exit(borrowed[0]!, 0);
    await domain.waitFor(youngest, 'running', 20_000);
    domain.engine.exit(youngest, 0);
    const done = await domain.waitFor(youngest, 'completed', 20_000);
    expect(done.attempt).toBe(2);
    expect(launchesOf(youngest)).toBe(2);
    for (const id of [...borrowed.slice(0, 3), lender]) expect(launchesOf(id)).toBe(1);
  });

  it("takes back only what it lent: nothing for a job beyond the lender's own quota", async () => {
    await start(1, 3);
    const borrowed = await borrowerRunning(3);
    const first = await submitTo('other');
    await domain.waitFor(first, 'running', 20_000);
    await domain.waitFor(borrowed[2]!, 'runnable', 20_000);
    // Its quota of 1 job is used: a second job of it waits for a slot, and preempts nothing.
    const second = await submitTo('other');
    await new Promise((r) => setTimeout(r, 300));
    expect((await domain.store.getJob(second))!.state).toBe('runnable');
    expect(domain.engine.stops.map((s) => s.jobId)).toEqual([borrowed[2]]);
    for (const id of borrowed.slice(0, 2))
      expect((await domain.store.getJob(id))!.state).toBe('running');
  });

  it('keeps the outcome of a job that completes once asked to stop; any other end is the preemption', async () => {
    await start(2, 4);
    const [completes, fails] = await borrowerRunning(2);
    // Marked in the store alone (no stop sent, no pass): each container ends by itself, and the
    // runner, which followed it from before the mark, must not decide from that old copy.
    for (const id of [completes!, fails!]) {
      const marked = await domain.store.requestPreemption({
        id,
        attempt: 1,
        preemption: { at: Date.now(), reason: REASON },
        note: 'preempting',
        audit: preemptAudit(id),
      });
      expect(marked).toBe(true);
    }
    domain.engine.exit(completes!, 0);
    domain.engine.exit(fails!, 1);
    await domain.waitFor(completes!, 'completed', 20_000);
    await until(async () => (await requeueNote(fails!)) !== undefined, 'the requeue', 5000);
    expect(await requeueNote(fails!)).toBe(`preempted: ${REASON}; will run again`);
    expect(domain.engine.stops).toEqual([]);
  });

  it('finishes a preemption the service was killed in the middle of', async () => {
    await start(2, 4, 50);
    const [id] = await borrowerRunning(1);
    // Marked, then the process dies before anyone stops the container.
    await domain.store.requestPreemption({
      id: id!,
      attempt: 1,
      preemption: { at: Date.now(), reason: REASON },
      note: 'preempting',
      audit: preemptAudit(id!),
    });
    await domain.restart();
    await until(async () => (await requeueNote(id!)) !== undefined, 'the requeue', 10_000);
    expect(await requeueNote(id!)).toBe(`preempted: ${REASON}; will run again`);
    // Nothing else of default's waits: it runs again at once, as attempt 2.
    await until(async () => launchesOf(id!) === 2, 'the second launch', 10_000);
    expect((await domain.waitFor(id!, 'running', 20_000)).attempt).toBe(2);
    expect(domain.engine.stops.filter((s) => s.jobId === id)).toHaveLength(1);
  });
});
