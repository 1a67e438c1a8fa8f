import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Job, StateChange } from '../../server/jobs/model';
import { openStore } from '../../server/store/open-store';
import type { Store } from '../../server/store/ports';
import { DRIVERS, queryBeside, runWorker, type StoreConfig } from './drivers';
import { newJob, T0 } from './new-job';

/**
 * Moves asked for together are committed together (the store's group commit), and each is
 * still answered for itself: moved, refused by its state, or refused by its fence.
 */
describe.each(DRIVERS)('a batch of moves on $name', (driver) => {
  let store: Store;
  let config: StoreConfig;
  beforeEach(async () => {
    config = await driver.fresh();
    store = await openStore(config);
  });
  afterEach(() => store.close());

  /** A runnable job claimed by `owner`: in `starting`, owned under the claim's epoch. */
  async function claimedBy(owner: string): Promise<Job> {
    const job = newJob();
    await store.jobs.insertJob(job, 'fingerprint', { to: 'runnable', note: null });
    return (await store.jobs.moveJob({
      id: job.id,
      from: 'runnable',
      to: 'starting',
      at: T0 + 1,
      note: null,
      fields: { owner },
      by: owner,
    }))!;
  }

  const fenceOf = (job: Job) => ({ owner: job.owner!, epoch: job.ownerEpoch });

  async function transitionsOf(id: string): Promise<string[]> {
    return (await store.jobs.transitions(id)).map((t) => `${t.from ?? ''}→${t.to}`);
  }

  it('answers each move of one batch for itself: moved, refused by state, refused by fence', async () => {
    // Taken over by instance-b before the others are claimed: only this one is lost to instance-a.
    const lost = await claimedBy('instance-a');
    await store.jobs.takeOver({ from: 'instance-a', to: 'instance-b' });
    const starting = await claimedBy('instance-a');
    const conflicting = await claimedBy('instance-a');
    const running = (await store.jobs.moveJob({
      id: (await claimedBy('instance-a')).id,
      from: 'starting',
      to: 'running',
      at: T0 + 2,
      note: null,
    }))!;
    const at = T0 + 10;
    const batch: StateChange[] = [
      // Moved, fenced by its current ownership.
      {
        id: starting.id,
        from: 'starting',
        to: 'running',
        at,
        note: null,
        fence: fenceOf(starting),
      },
      // Refused by its state: it is starting, not running.
      {
        id: conflicting.id,
        from: 'running',
        to: 'completed',
        at,
        note: null,
        fence: fenceOf(conflicting),
      },
      // Refused by its fence: instance-b owns it now.
      { id: lost.id, from: 'starting', to: 'running', at, note: null, fence: fenceOf(lost) },
      // Moved, with its ended attempt and its output.
      {
        id: running.id,
        from: 'running',
        to: 'completed',
        at,
        note: 'done',
        fields: { finishedAt: at, exitCode: 0 },
        fence: fenceOf(running),
        endedAttempt: {
          attempt: 1,
          state: 'completed',
          exitCode: 0,
          reason: 'exit',
          note: null,
          node: null,
          startedAt: T0 + 2,
          finishedAt: at,
          retried: false,
          memoryBytes: 64 * 1024 ** 2,
        },
        keptOutput: {
          logs: {
            lines: [{ stream: 'stdout', at: '2026-11-21T10:00:00.010Z', text: 'ok\n' }],
            truncated: false,
          },
          budget: { project: 'p', maxStoredBytes: 1024 ** 2, savedAt: at },
        },
      },
    ];
    const answers = await Promise.allSettled(batch.map((change) => store.jobs.moveJob(change)));

    expect(answers[0]).toMatchObject({ status: 'fulfilled', value: { state: 'running' } });
    expect(answers[1]).toEqual({ status: 'fulfilled', value: undefined });
    expect(answers[2]).toMatchObject({
      status: 'rejected',
      reason: { jobId: lost.id, ownedBy: 'instance-b' },
    });
    expect(answers[3]).toMatchObject({
      status: 'fulfilled',
      value: { state: 'completed', exitCode: 0, systemNote: 'done' },
    });
    // Each move that was refused wrote nothing; each that moved wrote its transition.
    expect((await store.jobs.getJob(lost.id))!.state).toBe('starting');
    expect(await transitionsOf(lost.id)).toEqual([
      '→submitted',
      'submitted→runnable',
      'runnable→starting',
    ]);
    expect((await store.jobs.getJob(conflicting.id))!.state).toBe('starting');
    expect(await transitionsOf(conflicting.id)).toHaveLength(3);
    expect((await transitionsOf(starting.id)).at(-1)).toBe('starting→running');
    expect((await transitionsOf(running.id)).at(-1)).toBe('running→completed');
    expect(await store.jobs.attempts(running.id)).toMatchObject([
      { attempt: 1, state: 'completed' },
    ]);
    expect((await store.jobs.getLogs(running.id))!.lines.map((l) => l.text)).toEqual(['ok\n']);
    if (driver.name === 'postgres') {
      // One transaction wrote both moves: their transitions carry one transaction id.
      const writers = await queryBeside<{ xmin: string }>(
        config,
        `SELECT DISTINCT xmin::text FROM job_transitions
          WHERE job_id IN ('${starting.id}', '${running.id}') AND at = ${at}`,
      );
      expect(writers).toHaveLength(1);
    }
  });

  it('lets one of two moves of the same job in one batch win: the other is refused by state', async () => {
    const job = await claimedBy('instance-a');
    const from = { id: job.id, from: 'starting' as const, at: T0 + 5, note: null };
    const [running, cancelling] = await Promise.all([
      store.jobs.moveJob({ ...from, to: 'running', fence: fenceOf(job) }),
      store.jobs.moveJob({ ...from, to: 'cancelling', fields: { cancelRequestedAt: T0 + 5 } }),
    ]);
    expect(running).toMatchObject({ state: 'running' });
    expect(cancelling).toBe(undefined);
    expect((await transitionsOf(job.id)).slice(3)).toEqual(['starting→running']);
  });

  it('keeps every output a batch ends with, even over the budget, and drops older ones for it', async () => {
    const ended = async (at: number, maxStoredBytes: number) => {
      const job = await claimedBy('instance-a');
      await store.jobs.moveJob({ id: job.id, from: 'starting', to: 'running', at, note: null });
      return (change: Partial<StateChange> = {}): StateChange => ({
        id: job.id,
        from: 'running',
        to: 'completed',
        at,
        note: null,
        keptOutput: {
          logs: {
            lines: [{ stream: 'stdout', at: '2026-11-21T10:00:00.010Z', text: `${job.id}\n` }],
            truncated: false,
          },
          budget: { project: 'p', maxStoredBytes, savedAt: at },
        },
        ...change,
      });
    };
    const older = await ended(T0 + 20, 1024 ** 2);
    const oldId = older().id;
    await store.jobs.moveJob(older());
    // A budget smaller than either output: the batch's own are kept, the older one dropped.
    const batch = [await ended(T0 + 30, 1), await ended(T0 + 30, 1)].map((change) => change());
    await Promise.all(batch.map((change) => store.jobs.moveJob(change)));
    for (const { id } of batch) {
      expect((await store.jobs.getLogs(id))!.lines.map((l) => l.text)).toEqual([`${id}\n`]);
    }
    expect((await store.jobs.getLogs(oldId))!.lines).toEqual([]);
  });

  it('commits a batch whole or not at all: killed before its commit, no job moved, no transition', async () => {
    const jobs = [
      await claimedBy('instance-a'),
      await claimedBy('instance-a'),
      await claimedBy('instance-a'),
    ];
    const toRunning = jobs.map((job): StateChange => ({
      id: job.id,
      from: 'starting',
      to: 'running',
      at: T0 + 7,
      note: null,
      fence: fenceOf(job),
    }));
    await store.close();
    const killed = await runWorker(config, ['move', '-', JSON.stringify(toRunning)], {
      JOBDECK_FAILPOINT: 'in-move-batch',
    });
    expect(killed.signal).toBe('SIGKILL');
    store = await openStore(config);
    for (const job of jobs) {
      expect((await store.jobs.getJob(job.id))!.state).toBe('starting');
      expect(await transitionsOf(job.id)).toHaveLength(3);
    }
    // The same batch again, not killed: every job moved, each with its one transition.
    await store.close();
    const done = await runWorker(config, ['move', '-', JSON.stringify(toRunning)]);
    expect(JSON.parse(done.stdout)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
    store = await openStore(config);
    for (const job of jobs) {
      expect((await store.jobs.getJob(job.id))!.state).toBe('running');
      expect((await transitionsOf(job.id)).slice(3)).toEqual(['starting→running']);
    }
  });
});
