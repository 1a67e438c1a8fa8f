import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JobState } from '../../contract';
import { arrayChildren, childIds, indexesUpTo } from '../../server/jobs/arrays';
import { newDelivery } from '../../server/jobs/webhooks';
import type { NewJob } from '../../server/jobs/model';
import { openStore } from '../../server/store/open-store';
import type { Store } from '../../server/store/ports';
import { DRIVERS, execBeside, queryBeside as query, type StoreConfig } from './drivers';
import { insertRunnable, newJob, T0 } from './new-job';

/** Every table that holds rows of a job. */
const JOB_TABLES = [
  'jobs',
  'job_transitions',
  'job_attempts',
  'job_usage',
  'job_logs',
  'job_labels',
  'job_dependencies',
  'schedule_firings',
] as const;

const USED = {
  attempt: 1,
  peakMemoryBytes: 1,
  peakExact: true,
  cpuNanos: 1,
  memoryLimitBytes: 2,
  cpus: 1,
  sampledAt: T0,
};

async function rowCounts(config: StoreConfig): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of JOB_TABLES) {
    const [row] = await query<{ n: number }>(config, `SELECT count(*) AS n FROM ${table}`);
    counts[table] = Number(row!.n);
  }
  return counts;
}

const projectOutput = async (config: StoreConfig) =>
  Object.fromEntries(
    (
      await query<{ project: string; stored_bytes: number }>(
        config,
        // A project's total is the sum of its shards (migration 049).
        'SELECT project, sum(stored_bytes) AS stored_bytes FROM project_output GROUP BY project',
      )
    ).map((row) => [row.project, Number(row.stored_bytes)]),
  );

const DAY = 86_400_000;
const RUNNABLE = { to: 'runnable', note: null } as const;
const output = (text: string) => ({
  lines: [{ stream: 'stdout' as const, at: '2026-11-21T10:00:00.000000000Z', text }],
  truncated: false,
});

describe.each(DRIVERS)('retention on $name', (driver) => {
  let config: StoreConfig;
  let store: Store;
  beforeEach(async () => {
    config = await driver.fresh();
    store = await openStore(config);
  });
  afterEach(() => store.close());

  /** A job that ended `state` at `finishedAt`, with an attempt, output and labels. */
  async function finished(
    finishedAt: number,
    overrides: Partial<NewJob> = {},
    state: JobState = 'completed',
  ) {
    const job = newJob({ labels: { ticket: 'OPS-1' }, ...overrides });
    await store.jobs.insertJob(job, 'fingerprint', { to: 'runnable', note: null });
    await store.jobs.moveJob({
      id: job.id,
      from: 'runnable',
      to: state,
      at: finishedAt,
      note: null,
      fields: { finishedAt, exitCode: 0 },
      endedAttempt: {
        attempt: 1,
        state,
        exitCode: 0,
        reason: 'exit',
        note: null,
        node: null,
        startedAt: finishedAt - 10,
        finishedAt,
        retried: false,
        memoryBytes: null,
      },
      keptOutput: {
        logs: output(`output of ${job.name}`),
        budget: { project: job.project, maxStoredBytes: 1024 ** 2, savedAt: finishedAt },
      },
    });
    await store.jobs.recordUsage(job.id, { ...USED, sampledAt: finishedAt - 5 });
    return job;
  }

  /**
   * An array whose children were all cancelled at `childrenAt`, and its parent at `parentAt`
   * (null: it has not ended); the parent first, then its children.
   */
  async function cancelledArray(
    size: number,
    childrenAt: number,
    parentAt: number | null,
    { overrides = {}, note = null }: { overrides?: Partial<NewJob>; note?: string | null } = {},
  ) {
    const parent = newJob({ array: { size }, ...overrides });
    const indexes = indexesUpTo(size);
    const children = arrayChildren(parent, RUNNABLE, indexes, childIds(indexes, new Map(), null));
    await store.jobs.insertArray(parent, RUNNABLE, children, 'fingerprint');
    await store.jobs.moveArrayChildren(parent.id, {
      from: ['runnable'],
      to: 'cancelled',
      at: childrenAt,
      note,
    });
    if (parentAt !== null) {
      await store.jobs.moveJob({
        id: parent.id,
        from: 'runnable',
        to: 'cancelled',
        at: parentAt,
        note: null,
        fields: { finishedAt: parentAt },
      });
    }
    return [parent, ...children.map((child) => child.job)];
  }

  /** A job holding the newest state change, so that the jobs before it may all go. */
  const newestChange = () => store.jobs.insertJob(newJob({ name: 'newest' }), 'fingerprint');
  /** Another such job, while the first is there. */
  const anotherChange = () => store.jobs.insertJob(newJob(), 'fingerprint');

  it('deletes the finished jobs past their time with every row of theirs, and keeps the rest', async () => {
    const old = [];
    for (const state of ['completed', 'failed', 'timeout', 'cancelled', 'error'] as const) {
      old.push(await finished(T0 - 20 * DAY, {}, state));
    }
    const recent = await finished(T0 - DAY);
    const otherQueue = await finished(T0 - 20 * DAY, { queue: 'p::other' });
    const waiting = newJob({
      createdAt: T0 - 30 * DAY,
      dependsOn: [{ jobId: old[0]!.id, type: 'afterok' }],
    });
    await store.jobs.insertJob(waiting, 'fingerprint', { to: 'runnable', note: null });
    await store.jobs.moveJob({
      id: waiting.id,
      from: 'runnable',
      to: 'running',
      at: T0 - 30 * DAY,
      note: null,
    });
    await store.schedules.register([{ ref: 'p::nightly', paused: false }], T0 - 30 * DAY);
    const fired = newJob({ name: 'fired' });
    await store.schedules.fire({
      schedule: 'p::nightly',
      fireAt: T0 - 21 * DAY,
      note: null,
      submit: {
        job: fired,
        definitionFingerprint: 'fingerprint',
        admission: { to: 'runnable', note: null },
      },
    });
    await store.jobs.moveJob({
      id: fired.id,
      from: 'runnable',
      to: 'completed',
      at: T0 - 20 * DAY,
      note: null,
      fields: { finishedAt: T0 - 20 * DAY },
    });
    await newestChange();
    const before = await rowCounts(config);
    const outputBefore = (await projectOutput(config)).p!;

    expect(await store.retention.prunable('p::default', T0 - 14 * DAY)).toEqual({
      jobs: 6,
      oldestFinishedAt: T0 - 20 * DAY,
    });
    expect(await rowCounts(config)).toEqual(before); // a dry run deletes nothing
    expect(
      await store.retention.pruneFinished({
        queue: 'p::default',
        before: T0 - 14 * DAY,
        limit: 100,
      }),
    ).toBe(6);

    for (const job of [...old, fired]) {
      expect(await store.jobs.getJob(job.id)).toBeUndefined();
      expect(await store.jobs.transitions(job.id)).toEqual([]);
      expect(await store.jobs.attempts(job.id)).toEqual([]);
      expect(await store.jobs.getLogs(job.id)).toBeUndefined();
    }
    for (const job of [recent, otherQueue, waiting]) {
      expect(await store.jobs.getJob(job.id)).toBeDefined();
    }
    expect(await store.jobs.getLogs(recent.id)).toBeDefined();
    const after = await rowCounts(config);
    expect(after).toEqual({
      jobs: before.jobs! - 6,
      // submitted, runnable and its end: three each
      job_transitions: before.job_transitions! - 18,
      job_attempts: before.job_attempts! - 5,
      job_usage: before.job_usage! - 5,
      job_logs: before.job_logs! - 5,
      job_labels: before.job_labels! - 5,
      // The running job's edge to a deleted one stays with it, the end it holds recorded.
      job_dependencies: before.job_dependencies!,
      schedule_firings: 0,
    });
    expect((await store.jobs.getJob(waiting.id))!.dependsOn).toEqual([
      { jobId: old[0]!.id, type: 'afterok' },
    ]);
    expect(await store.jobs.dependencyEnds([waiting.id])).toEqual([
      { jobId: waiting.id, dependsOn: old[0]!.id, state: 'completed' },
    ]);
    // The project's output total is what its kept outputs still take.
    const [{ sum }] = (await query<{ sum: number }>(
      config,
      "SELECT sum(stored_bytes) AS sum FROM job_logs WHERE project = 'p'",
    )) as [{ sum: number }];
    expect((await projectOutput(config)).p).toBe(Number(sum));
    expect(Number(sum)).toBeLessThan(outputBefore);
    expect(
      await store.retention.pruneFinished({
        queue: 'p::default',
        before: T0 - 14 * DAY,
        limit: 100,
      }),
    ).toBe(0);
  });

  it('deletes a schedule’s firings that submitted nothing before a time, a batch at a time', async () => {
    await store.schedules.register([{ ref: 'p::nightly', paused: false }], T0 - 30 * DAY);
    const skipped = (fireAt: number) =>
      store.schedules.fire({ schedule: 'p::nightly', fireAt, note: 'skipped: still running' });
    for (let day = 30; day > 0; day--) await skipped(T0 - day * DAY);
    const withJob = newJob({ name: 'fired' });
    await store.schedules.fire({
      schedule: 'p::nightly',
      fireAt: T0 - 40 * DAY,
      note: null,
      submit: { job: withJob, definitionFingerprint: 'fingerprint', admission: RUNNABLE },
    });
    expect(
      await store.retention.pruneFirings({
        schedule: 'p::nightly',
        before: T0 - 14 * DAY,
        limit: 10,
      }),
    ).toBe(10);
    expect(
      await store.retention.pruneFirings({
        schedule: 'p::nightly',
        before: T0 - 14 * DAY,
        limit: 10,
      }),
    ).toBe(6);
    expect(
      await store.retention.pruneFirings({
        schedule: 'p::nightly',
        before: T0 - 14 * DAY,
        limit: 10,
      }),
    ).toBe(0);
    const left = await store.schedules.recentFirings('p::nightly', 100);
    expect(left).toHaveLength(14 + 1);
    expect(left.at(-1)).toMatchObject({ fireAt: T0 - 40 * DAY, job: { id: withJob.id } });
    expect(Math.min(...left.slice(0, -1).map((f) => f.fireAt))).toBe(T0 - 14 * DAY);
  });

  it('deletes the bulk actions that ended before a time with their results, a batch at a time', async () => {
    const action = (id: string, project: string, finishedAt: number | null) => ({
      id,
      project,
      action: 'cancel' as const,
      filter: {},
      state: finishedAt === null ? ('running' as const) : ('done' as const),
      matched: 450,
      processed: 450,
      accepted: 450,
      refused: 0,
      cursorSeq: 1,
      createdBy: 'key-1',
      createdAt: T0,
      finishedAt,
    });
    const withResults = async (id: string, count: number) => {
      const pending = Array.from({ length: count }, (_, i) => ({
        jobSeq: i + 1,
        jobId: `job-${i}`,
        jobName: `job-${i}`,
        stateBefore: 'runnable' as const,
        result: 'pending' as const,
        message: null,
      }));
      await store.bulkActions.claim({
        owner: 'owner',
        now: T0 + 20 * DAY,
        leaseUntil: T0 + 21 * DAY,
      });
      await store.bulkActions.beginBatch({
        id,
        owner: 'owner',
        pending,
        cursorSeq: 1,
        leaseUntil: 0,
      });
    };
    // Results are written while an action runs: the old one's, then it is ended.
    await store.bulkActions.create(action('old', 't', null));
    await withResults('old', 450);
    await store.bulkActions.stop('old', T0);
    await store.bulkActions.create(action('recent', 't', T0 + 9 * DAY));
    await store.bulkActions.create(action('other', 'u', T0));
    await store.bulkActions.create(action('running', 't', null));

    const before = T0 + DAY;
    const calls: number[] = [];
    for (let step = -1; step !== 0;) {
      step = await store.retention.pruneBulkActions({ project: 't', before, limit: 200 });
      calls.push(step);
    }
    // 200, 200, then the last 50 with the action; then nothing left.
    expect(calls).toEqual([200, 200, 200, 0]);
    expect(await store.bulkActions.get('old')).toBeUndefined();
    const [left] = await query<{ n: number }>(
      config,
      'SELECT count(*) AS n FROM bulk_action_results',
    );
    expect(Number(left!.n)).toBe(0);
    for (const id of ['recent', 'other', 'running']) {
      expect(await store.bulkActions.get(id), id).toBeDefined();
    }
  });

  it('deletes a batch at a time, the longest finished first', async () => {
    const jobs = [];
    for (let i = 0; i < 7; i++) jobs.push(await finished(T0 - (30 - i) * DAY));
    await newestChange();
    expect(await store.retention.pruneFinished({ queue: 'p::default', before: T0, limit: 3 })).toBe(
      3,
    );
    const left = await Promise.all(jobs.map((job) => store.jobs.getJob(job.id)));
    expect(left.map((job) => job !== undefined)).toEqual([
      false,
      false,
      false,
      true,
      true,
      true,
      true,
    ]);
    expect(await store.retention.pruneFinished({ queue: 'p::default', before: T0, limit: 3 })).toBe(
      3,
    );
    expect(await store.retention.pruneFinished({ queue: 'p::default', before: T0, limit: 3 })).toBe(
      1,
    );
    expect(await store.retention.pruneFinished({ queue: 'p::default', before: T0, limit: 3 })).toBe(
      0,
    );
  });

  it('keeps the job holding the newest state change: event streams start there', async () => {
    const last = await finished(T0 - 20 * DAY);
    expect(await store.retention.prunable('p::default', T0)).toEqual({
      jobs: 0,
      oldestFinishedAt: null,
    });
    expect(
      await store.retention.pruneFinished({ queue: 'p::default', before: T0, limit: 10 }),
    ).toBe(0);
    expect(await store.jobs.getJob(last.id)).toBeDefined();
    await newestChange();
    expect(
      await store.retention.pruneFinished({ queue: 'p::default', before: T0, limit: 10 }),
    ).toBe(1);
  });

  it('deletes an array with its children only once its parent is final, the children a batch at a time', async () => {
    const unfinished = await cancelledArray(5, T0 - 30 * DAY, null);
    const done = await cancelledArray(5, T0 - 30 * DAY, T0 - 20 * DAY);
    await newestChange();
    expect(await store.retention.prunable('p::default', T0)).toEqual({
      jobs: 6,
      oldestFinishedAt: T0 - 30 * DAY,
    });
    // Four children first, then the last child with its parent.
    expect(await store.retention.pruneFinished({ queue: 'p::default', before: T0, limit: 4 })).toBe(
      4,
    );
    expect(await store.jobs.getJob(done[0]!.id)).toBeDefined();
    expect(await store.retention.pruneFinished({ queue: 'p::default', before: T0, limit: 4 })).toBe(
      2,
    );
    for (const job of done) expect(await store.jobs.getJob(job.id)).toBeUndefined();
    // The unfinished array's children ended long ago but stay with their parent.
    for (const job of unfinished) expect(await store.jobs.getJob(job.id)).toBeDefined();
  });

  /** Ends a job `from` a state, twenty days ago. */
  const endLongAgo = (id: string, from: JobState, to: JobState) =>
    store.jobs.moveJob({
      id,
      from,
      to,
      at: T0 - 20 * DAY,
      note: null,
      fields: { finishedAt: T0 - 20 * DAY },
    });

  /** A job pending on others, as the submission rules admit it. */
  async function waitingOn(...dependsOn: { jobId: string; type?: 'afterok' | 'afterany' }[]) {
    const job = newJob({
      dependsOn: dependsOn.map(({ jobId, type }) => ({ jobId, type: type ?? 'afterok' })),
    });
    await store.jobs.insertJob(job, 'fingerprint', { to: 'pending', note: 'waiting' });
    return job;
  }

  it('keeps on a waiting job’s dependency the end of the job it names, recorded as that job ends, once that job is deleted', async () => {
    const before = await insertRunnable(store.jobs);
    const during = await insertRunnable(store.jobs);
    const running = await insertRunnable(store.jobs);
    const waiting = await waitingOn({ jobId: during.id }, { jobId: running.id });
    // An edge stored after its job ended takes the end in the same transaction.
    await endLongAgo(before.id, 'runnable', 'failed');
    const late = await waitingOn({ jobId: before.id, type: 'afterany' });
    await endLongAgo(during.id, 'runnable', 'completed');
    await newestChange();
    expect(
      await store.retention.pruneFinished({
        queue: 'p::default',
        before: T0 - 14 * DAY,
        limit: 100,
      }),
    ).toBe(2);
    expect(await store.jobs.jobSummaries([before.id, during.id])).toEqual([]);
    expect(await store.jobs.dependencyEnds([waiting.id, late.id])).toEqual(
      expect.arrayContaining([
        { jobId: waiting.id, dependsOn: during.id, state: 'completed' },
        { jobId: late.id, dependsOn: before.id, state: 'failed' },
      ]),
    );
    // Only ended jobs' edges hold an end.
    expect(await store.jobs.dependencyEnds([waiting.id])).toHaveLength(1);
    // An edge goes with the job that waits.
    await endLongAgo(late.id, 'pending', 'cancelled');
    await anotherChange();
    expect(
      await store.retention.pruneFinished({
        queue: 'p::default',
        before: T0 - 14 * DAY,
        limit: 100,
      }),
    ).toBe(1);
    expect(await store.jobs.dependencyEnds([late.id])).toEqual([]);
  });

  /** Prunes the jobs that ended long ago (endLongAgo): those a submit's insert races. */
  const pruneLongEnded = () =>
    store.retention.pruneFinished({ queue: 'p::default', before: T0 - 14 * DAY, limit: 100 });

  it('stores on a new dependency the end its submit read, though retention deleted that job before the insert', async () => {
    const ended = await insertRunnable(store.jobs);
    await endLongAgo(ended.id, 'runnable', 'completed');
    // Not ended as the submit checked it; ended since, still stored.
    const endedSince = await insertRunnable(store.jobs);
    await newestChange();
    expect(await pruneLongEnded()).toBe(1);
    await store.jobs.moveJob({
      id: endedSince.id,
      from: 'runnable',
      to: 'failed',
      at: T0,
      note: null,
    });
    const waiting = newJob({
      dependsOn: [
        { jobId: ended.id, type: 'afterok' },
        { jobId: endedSince.id, type: 'afterany' },
      ],
    });
    const admission = {
      to: 'pending' as const,
      note: 'waiting',
      dependencyEnds: new Map([[ended.id, 'completed' as const]]),
    };
    expect(await store.jobs.insertJob(waiting, 'fingerprint', admission)).toMatchObject({
      inserted: true,
    });
    expect(await store.jobs.dependencyEnds([waiting.id])).toEqual(
      expect.arrayContaining([
        { jobId: waiting.id, dependsOn: ended.id, state: 'completed' },
        { jobId: waiting.id, dependsOn: endedSince.id, state: 'failed' },
      ]),
    );
  });

  it('refuses, storing nothing, a new job whose dependency not ended as its submit checked it is gone; stores the others of its batch', async () => {
    const gone = await insertRunnable(store.jobs);
    await endLongAgo(gone.id, 'runnable', 'completed');
    await newestChange();
    expect(await pruneLongEnded()).toBe(1);
    expect(await store.jobs.getJob(gone.id)).toBeUndefined();
    const stays = await insertRunnable(store.jobs);
    const refused = newJob({
      dependsOn: [
        { jobId: stays.id, type: 'afterok' },
        { jobId: gone.id, type: 'afterok' },
      ],
    });
    const accepted = newJob({ dependsOn: [{ jobId: stays.id, type: 'afterok' }] });
    const waiting = { to: 'pending' as const, note: 'waiting', dependencyEnds: new Map() };
    const before = await rowCounts(config);
    // Asked for together: one commit, unless one of them undoes it.
    const [refusal, insert] = await Promise.all([
      store.jobs.insertJob(refused, 'fingerprint', waiting),
      store.jobs.insertJob(accepted, 'fingerprint', waiting),
    ]);
    expect(refusal).toEqual({ inserted: false, dependencyGone: gone.id });
    expect(insert).toMatchObject({ inserted: true });
    expect(await store.jobs.getJob(refused.id)).toBeUndefined();
    const after = await rowCounts(config);
    expect(after).toEqual({
      ...before,
      jobs: before.jobs! + 1,
      job_transitions: before.job_transitions! + 2,
      job_dependencies: before.job_dependencies! + 1,
    });
  });

  it('records the ends of an array’s children cancelled together, for the jobs waiting on them', async () => {
    const [parent, first] = await cancelledArray(3, T0 - 30 * DAY, T0 - 20 * DAY);
    const waiting = await waitingOn({ jobId: first!.id, type: 'afterany' });
    await newestChange();
    expect(
      await store.retention.pruneFinished({
        queue: 'p::default',
        before: T0 - 14 * DAY,
        limit: 100,
      }),
    ).toBe(4);
    expect(await store.jobs.getJob(parent!.id)).toBeUndefined();
    expect(await store.jobs.dependencyEnds([waiting.id])).toEqual([
      { jobId: waiting.id, dependsOn: first!.id, state: 'cancelled' },
    ]);
  });

  it('keeps a job that a waiting job names on an edge holding no end, until that job moves on', async () => {
    const named = await insertRunnable(store.jobs);
    const child = await cancelledArray(2, T0 - 30 * DAY, T0 - 20 * DAY);
    const waiting = await waitingOn({ jobId: named.id }, { jobId: child[1]!.id });
    await endLongAgo(named.id, 'runnable', 'completed');
    // As an edge stored in the moment its job ended (two transactions apart), or before 032.
    await execBeside(config, 'UPDATE job_dependencies SET ended_state = NULL');
    await newestChange();
    // The array's other child goes; its parent stays with the child that is waited for.
    expect(
      await store.retention.pruneFinished({
        queue: 'p::default',
        before: T0 - 14 * DAY,
        limit: 100,
      }),
    ).toBe(1);
    expect(await store.jobs.jobSummaries([named.id, child[0]!.id, child[1]!.id])).toHaveLength(3);
    // The dry run counts what a pass deletes: neither of them, nor the parent.
    expect(await store.retention.prunable('p::default', T0 - 14 * DAY)).toMatchObject({ jobs: 0 });
    expect(
      await store.retention.pruneFinished({
        queue: 'p::default',
        before: T0 - 14 * DAY,
        limit: 100,
      }),
    ).toBe(0);
    await store.jobs.moveJob({
      id: waiting.id,
      from: 'pending',
      to: 'runnable',
      at: T0,
      note: null,
    });
    await newestChange();
    expect(await store.retention.prunable('p::default', T0 - 14 * DAY)).toMatchObject({ jobs: 3 });
    expect(
      await store.retention.pruneFinished({
        queue: 'p::default',
        before: T0 - 14 * DAY,
        limit: 100,
      }),
    ).toBe(3);
  });

  it('leaves a webhook’s pending delivery for a deleted job whole: it is still sent', async () => {
    const job = await finished(T0 - 20 * DAY);
    await store.webhooks.create(
      {
        id: 'w1',
        project: 'p',
        url: 'https://hooks.example.com/w1',
        description: '',
        states: ['completed'],
        queues: [],
        labels: [],
        sealedSecret: 'sealed-w1',
        fromSeq: 0,
        createdBy: 'k1',
        createdAt: T0 - 30 * DAY,
      },
      20,
    );
    const payload = JSON.stringify({ type: 'job.completed', data: { id: job.id } });
    const pending = newDelivery('w1', { type: 'job.completed', jobId: job.id, payload }, T0);
    await store.webhooks.enqueue(pending);
    await newestChange();
    expect(
      await store.retention.pruneFinished({
        queue: 'p::default',
        before: T0 - 14 * DAY,
        limit: 100,
      }),
    ).toBe(1);
    expect(await store.jobs.getJob(job.id)).toBeUndefined();
    const claimed = await store.webhooks.claimDue({
      now: T0,
      leaseUntil: T0 + 1000,
      limit: 5,
      perWebhook: 4,
    });
    expect(claimed.map((d) => [d.id, d.jobId, d.payload])).toEqual([[pending.id, job.id, payload]]);
  });

  // One SQLite file has one process: several instances share a PostgreSQL database only.
  it.runIf(driver.name === 'postgres')(
    'two instances pruning one database at once delete each job once, the output total right',
    async () => {
      for (let i = 0; i < 40; i++) await finished(T0 - 20 * DAY);
      const kept = await finished(T0);
      await newestChange();
      const second = await openStore(config);
      try {
        const prune = async (s: Store) => {
          let deleted = 0;
          for (let n = -1; n !== 0;) {
            n = await s.retention.pruneFinished({
              queue: 'p::default',
              before: T0 - DAY,
              limit: 7,
            });
            deleted += n;
          }
          return deleted;
        };
        const [a, b] = await Promise.all([prune(store), prune(second)]);
        expect(a + b).toBe(40);
      } finally {
        await second.close();
      }
      expect((await rowCounts(config)).jobs).toBe(2);
      const [{ bytes }] = (await query<{ bytes: number }>(
        config,
        'SELECT stored_bytes AS bytes FROM job_logs',
      )) as [{ bytes: number }];
      expect(await store.jobs.getLogs(kept.id)).toBeDefined();
      expect((await projectOutput(config)).p).toBe(Number(bytes));
    },
  );

  it.runIf(driver.name === 'sqlite')('gives the space back to the file system', async () => {
    const file = join(config.data_dir, 'jobdeck.sqlite');
    const [mode] = await query<{ auto_vacuum: number }>(config, 'PRAGMA auto_vacuum');
    expect(mode?.auto_vacuum).toBe(2); // incremental
    const bulky = 'x'.repeat(2000);
    for (let i = 0; i < 20; i++) {
      await cancelledArray(100, T0 - 2 * DAY, T0 - DAY, {
        overrides: { command: ['echo', bulky] },
        note: bulky,
      });
    }
    await newestChange();
    const pages = async () =>
      Number((await query<{ page_count: number }>(config, 'PRAGMA page_count'))[0]!.page_count);
    const full = await pages();
    while (
      (await store.retention.pruneFinished({ queue: 'p::default', before: T0, limit: 500 })) > 0
    );
    let given = 0;
    for (
      let step = await store.retention.reclaimSpace();
      step > 0;
      step = await store.retention.reclaimSpace()
    ) {
      given += step;
    }
    const [free] = await query<{ freelist_count: number }>(config, 'PRAGMA freelist_count');
    expect(free?.freelist_count).toBe(0);
    expect(given).toBeGreaterThan(0);
    expect(await pages()).toBeLessThan(full / 4);
    // The file itself shrinks once the log is copied back into it (at the last close here).
    await store.close();
    expect(statSync(file).size).toBeLessThan((full / 4) * 4096);
    store = await openStore(config);
  });
});
