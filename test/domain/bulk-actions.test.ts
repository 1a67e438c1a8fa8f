import { afterEach, describe, expect, it } from 'vitest';
import { FakeRuntime } from '../../server/runtime/fake/fake-runtime';
import { INSTANCE_TIMEOUT_MS, startDomain } from './harness';

let domain: Awaited<ReturnType<typeof startDomain>>;
afterEach(() => domain.close());

const JOBS = 600;

/** `JOBS` jobs waiting in the paused queue, labelled `batch`. */
async function waitingJobs(batch: string) {
  await domain.system.controls.change('t', 't::default', { paused: { reason: 'held' } }, 'key-1');
  const ids: string[] = [];
  for (let i = 0; i < JOBS; i += 50) {
    const some = Array.from({ length: 50 }, () => domain.submit({ labels: { batch } }));
    ids.push(...(await Promise.all(some)));
  }
  return ids;
}

// A loaded machine (CI's 2 cores) takes several times as long as the seconds these need alone.
const SLOW = { timeout: 60_000 };

async function untilFinished(id: string, timeoutMs = 45_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const action = (await domain.bulkActions.get(id))!;
    if (action.state !== 'running') return action;
    if (Date.now() > deadline) throw new Error(`still running: ${JSON.stringify(action)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The jobs a bulk resubmit made, by their label. */
const madeBy = (actionId: string) =>
  domain.system.reads.list({
    project: 't',
    labels: [{ key: 'jobdeck/bulk-action', value: actionId }],
    limit: 2 * JOBS,
  });

/** Every result the action recorded, newest job first. */
async function resultsOf(id: string) {
  const all = [];
  for await (const page of domain.system.bulk.results('t', id)) all.push(...page);
  return all;
}

describe('bulk actions across instances', () => {
  it(
    'an instance killed mid-action leaves it to another once its lease runs out, each job reached once',
    SLOW,
    async () => {
      domain = await startDomain(new FakeRuntime());
      const ids = await waitingJobs('crash');
      const other = await domain.join('host-b');
      const filter = { labels: [{ key: 'batch', value: 'crash' }] };
      const action = await domain.system.bulk.start('t', 'key-1', filter, 'cancel');
      await new Promise((r) => setTimeout(r, 50));
      await domain.system.crash();
      const left = (await domain.bulkActions.get(action.id))!;
      expect(left.processed).toBeLessThan(JOBS);

      const done = await untilFinished(action.id);
      expect(done).toMatchObject({ state: 'done', processed: JOBS, accepted: JOBS });
      expect(done.finishedAt! - left.createdAt).toBeGreaterThan(INSTANCE_TIMEOUT_MS);
      const results = await resultsOf(action.id);
      expect(new Set(results.map((r) => r.jobId))).toEqual(new Set(ids));
      expect(results).toHaveLength(JOBS);
      for (const id of ids) expect((await other.service.detail('t', id)).state).toBe('cancelled');
    },
  );

  it(
    'resubmit: an instance killed mid-action leaves it to another, and each job is submitted again once',
    SLOW,
    async () => {
      domain = await startDomain(new FakeRuntime());
      const ids = await waitingJobs('again');
      for (let i = 0; i < ids.length; i += 50) {
        await Promise.all(
          ids.slice(i, i + 50).map((id) => domain.system.service.cancel('t', id, 'k')),
        );
      }
      await domain.join('host-b');
      const filter = { states: ['cancelled' as const], labels: [{ key: 'batch', value: 'again' }] };
      const action = await domain.system.bulk.start('t', 'key-1', filter, 'resubmit');
      // Killed once it has submitted some of its first batch, not all of it.
      while ((await madeBy(action.id)).length < 20) await new Promise((r) => setTimeout(r, 5));
      await domain.system.crash();
      expect((await domain.bulkActions.get(action.id))!.processed).toBeLessThan(JOBS);

      const done = await untilFinished(action.id);
      expect(done).toMatchObject({ state: 'done', processed: JOBS, accepted: JOBS, refused: 0 });
      const made = await madeBy(action.id);
      const sources = made.map((job) => job.labels['jobdeck/resubmitted-from']);
      expect(sources.sort()).toEqual([...ids].sort());
      expect(made.every((job) => job.state === 'runnable' && job.labels.batch === 'again')).toBe(
        true,
      );
      const results = await resultsOf(action.id);
      const madeIds = new Set(made.map((job) => job.id));
      for (const result of results) {
        expect(madeIds.has(result.message!.replace('submitted again as ', ''))).toBe(true);
      }
    },
  );

  it(
    'two instances kicking at once: one carries it, and no job has two results',
    SLOW,
    async () => {
      domain = await startDomain(new FakeRuntime());
      const ids = await waitingJobs('both');
      const other = await domain.join('host-b');
      const action = await domain.system.bulk.start(
        't',
        'key-1',
        {
          labels: [{ key: 'batch', value: 'both' }],
        },
        'cancel',
      );
      other.bulk.kick();
      const done = await untilFinished(action.id);
      expect(done).toMatchObject({ state: 'done', processed: JOBS, accepted: JOBS });
      expect(await resultsOf(action.id)).toHaveLength(JOBS);
      expect(new Set((await resultsOf(action.id)).map((r) => r.jobId))).toEqual(new Set(ids));
    },
  );

  it(
    'jobs submitted after the start, and jobs that stopped matching, are left alone',
    SLOW,
    async () => {
      domain = await startDomain(new FakeRuntime());
      const ids = await waitingJobs('moving');
      const action = await domain.system.bulk.start(
        't',
        'key-1',
        {
          states: ['runnable'],
          labels: [{ key: 'batch', value: 'moving' }],
        },
        'cancel',
      );
      const later = await domain.submit({ labels: { batch: 'moving' } });
      // The oldest job starts before its turn (the action goes newest first): it matches no more.
      await domain.system.controls.change('t', 't::default', { paused: false, maxRunning: 1 }, 'k');
      await domain.waitFor(ids[0]!, 'running');
      const done = await untilFinished(action.id);
      expect(done).toMatchObject({ state: 'done', processed: JOBS - 1, accepted: JOBS - 1 });
      expect((await domain.system.service.detail('t', later)).state).toBe('runnable');
      expect((await domain.system.service.detail('t', ids[0]!)).state).toBe('running');
      const reached = new Set((await resultsOf(action.id)).map((r) => r.jobId));
      expect(reached.has(ids[0]!) || reached.has(later)).toBe(false);
    },
  );
  it(
    'stops when asked: the jobs reached are cancelled, each with its result; the rest wait',
    SLOW,
    async () => {
      domain = await startDomain(new FakeRuntime());
      await waitingJobs('stopped');
      const action = await domain.system.bulk.start(
        't',
        'key-1',
        {
          labels: [{ key: 'batch', value: 'stopped' }],
        },
        'cancel',
      );
      expect((await domain.system.bulk.stopAction('t', action.id)).state).toBe('stopped');
      // The batch in hand when the stop came is recorded a moment later: wait until it holds.
      let processed = -1;
      for (let still = 0; still < 3;) {
        await new Promise((r) => setTimeout(r, 100));
        const now = (await domain.bulkActions.get(action.id))!.processed;
        still = now === processed ? still + 1 : 0;
        processed = now;
      }
      expect(processed).toBeLessThan(JOBS);
      const results = await resultsOf(action.id);
      expect(results).toHaveLength(processed);
      const jobs = await domain.system.reads.list({
        project: 't',
        labels: [{ key: 'batch', value: 'stopped' }],
        limit: JOBS,
      });
      const cancelled = jobs.filter((job) => job.state === 'cancelled').map((job) => job.id);
      expect(cancelled.sort()).toEqual(results.map((r) => r.jobId).sort());
      expect(jobs.filter((job) => job.state === 'runnable')).toHaveLength(JOBS - processed);
    },
  );
});
