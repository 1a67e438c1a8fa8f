import { afterEach, describe, expect, it } from 'vitest';
import { JOB_STATES } from '../../contract';
import type { Job } from '../../server/jobs/model';
import { arrayChildren, childIds } from '../../server/jobs/arrays';
import { newJob } from '../store/new-job';
import { startDomain, until } from './harness';

/**
 * The rules of retries, dependencies and arrays on the fake engine, in milliseconds: the service
 * tier (test/service/retries, dependencies, arrays) keeps what only HTTP shows (the answers, the
 * refusals at their fields, a kill -9 of the real process).
 */
let domain: Awaited<ReturnType<typeof startDomain>>;
afterEach(() => domain.close());

const quick = { initial_seconds: 0.3, jitter: 0 };

/** The workload of the job's `attempt`, once it runs. */
const runningAttempt = (id: string, attempt: number) =>
  until(() => {
    const workload = domain.engine.workload(id);
    return workload?.attempt === attempt && workload.status === 'running';
  }, `attempt ${attempt} of ${id} running`);

async function childrenOf(parent: string): Promise<Job[]> {
  const page = { afterIndex: -1, limit: 100 };
  return (await domain.system.reads.array('t', parent, page)).children.items;
}

// The file's first test opens and migrates the store: seconds on a loaded machine.
describe('retries', { timeout: 15_000 }, () => {
  it('tries again on a fresh workload until an exit rule says stop, and ends as that attempt ended', async () => {
    domain = await startDomain();
    const id = await domain.submit({
      retry: { attempts: 5, backoff: quick, on_exit: [{ exit_codes: [4], action: 'exit' }] },
    });
    await runningAttempt(id, 1);
    domain.engine.exit(id, 3);
    await runningAttempt(id, 2);
    domain.engine.exit(id, 4);
    const job = await domain.waitFor(id, 'failed');
    expect([job.systemNote, job.exitCode]).toEqual(['exited with code 4', 4]);
    const attempts = await domain.store.attempts(id);
    expect(attempts.map((a) => [a.attempt, a.exitCode, a.retried])).toEqual([
      [1, 3, true],
      [2, 4, false],
    ]);
    expect(domain.engine.launches.filter((launched) => launched === id)).toHaveLength(2);
  });

  it('ends as its last attempt ended once the attempts are used', async () => {
    domain = await startDomain();
    const id = await domain.submit({ retry: { attempts: 2, backoff: quick } });
    await runningAttempt(id, 1);
    domain.engine.exit(id, 4);
    await runningAttempt(id, 2);
    domain.engine.exit(id, 5);
    expect((await domain.waitFor(id, 'failed')).systemNote).toBe('exited with code 5');
    expect(domain.engine.launches.filter((launched) => launched === id)).toHaveLength(2);
  });
});

// The file's first test opens and migrates the store: seconds on a loaded machine.
describe('dependencies', { timeout: 90_000 }, () => {
  it('cancels an afterok dependent of a job that failed, and what waits for it; runs afternotok and afterany ones', async () => {
    domain = await startDomain();
    const failing = await domain.submit();
    const onSuccess = await domain.submit({ depends_on: [{ job_id: failing }] });
    const chained = await domain.submit({ depends_on: [{ job_id: onSuccess }] });
    const onFailure = await domain.submit({
      depends_on: [{ job_id: failing, type: 'afternotok' }],
    });
    const onAny = await domain.submit({ depends_on: [{ job_id: failing, type: 'afterany' }] });
    for (const id of [onSuccess, chained, onFailure, onAny]) await domain.waitFor(id, 'pending');
    await domain.waitFor(failing, 'running');
    domain.engine.exit(failing, 3);

    const name = (await domain.system.service.detail('t', failing)).name;
    expect((await domain.waitFor(onSuccess, 'cancelled')).systemNote).toBe(
      `cancelled: it was to start after job ${name} (${failing}) to complete (afterok), which ended failed`,
    );
    expect((await domain.waitFor(chained, 'cancelled')).systemNote).toMatch(
      new RegExp(
        `^cancelled: it was to start after job \\S+ \\(${onSuccess}\\) .*ended cancelled$`,
      ),
    );
    for (const id of [onFailure, onAny]) {
      await domain.waitFor(id, 'running');
      domain.engine.exit(id, 0);
      await domain.waitFor(id, 'completed');
    }
    expect(domain.engine.launches).not.toContain(onSuccess);
    expect(domain.engine.launches).not.toContain(chained);
  });

  it('names the refused entry by its own index when an array’s link comes before it', async () => {
    domain = await startDomain();
    const failed = await domain.submit();
    await domain.waitFor(failed, 'running', 60_000);
    domain.engine.exit(failed, 3);
    await domain.waitFor(failed, 'failed', 60_000);
    await expect(
      domain.submit({
        array: { size: 2 },
        depends_on: [{ type: 'sequential' }, { job_id: failed }],
      }),
    ).rejects.toThrow(
      new RegExp(`^depends_on\\[1\\]\\.job_id: job \\S+ \\(${failed}\\) ended failed`),
    );
  });

  /** Runs `meanwhile` once, as the next job is about to be stored: after its submit's checks. */
  function beforeNextInsert(meanwhile: () => Promise<unknown>): void {
    const { store } = domain;
    const insertJob = store.insertJob.bind(store);
    store.insertJob = async (...args) => {
      store.insertJob = insertJob;
      await meanwhile();
      return insertJob(...args);
    };
  }

  /** Retention deletes every finished job (but the newest change's), as if their time ran out. */
  const pruneAllFinished = () =>
    domain.retention.pruneFinished({ queue: 't::default', before: Date.now() + 1, limit: 100 });

  /** A job that ran and completed. */
  async function completed(): Promise<string> {
    const id = await domain.submit();
    await domain.waitFor(id, 'running', 60_000);
    domain.engine.exit(id, 0);
    await domain.waitFor(id, 'completed', 60_000);
    return id;
  }

  it('judges a dependency by the end its submit read, though retention deleted that job before the insert', async () => {
    domain = await startDomain();
    const done = await completed();
    // Still running as the dependent is submitted: it waits (pending) and is judged again later.
    const other = await domain.submit();
    await domain.waitFor(other, 'running', 60_000);
    beforeNextInsert(async () => expect(await pruneAllFinished()).toBe(1));
    const waiting = await domain.submit({ depends_on: [{ job_id: done }, { job_id: other }] });
    expect(await domain.store.getJob(done)).toBeUndefined();
    domain.engine.exit(other, 0);
    // Not cancelled as waiting for a job that is gone: met by the end the submit read.
    expect(await domain.waitFor(waiting, ['running', 'cancelled'], 60_000)).toMatchObject({
      state: 'running',
    });
  });

  it('refuses a submit, storing nothing, when a job it names ends and is deleted between its check and its insert', async () => {
    domain = await startDomain();
    const running = await domain.submit();
    await domain.waitFor(running, 'running', 60_000);
    beforeNextInsert(async () => {
      domain.engine.exit(running, 0);
      await domain.waitFor(running, 'completed', 60_000);
      await domain.submit(); // a later change: retention keeps the newest one's job
      expect(await pruneAllFinished()).toBe(1);
    });
    const stored = async () => (await domain.store.jobsInStates(JOB_STATES)).length;
    await expect(
      domain.submit({ depends_on: [{ job_id: running, type: 'afterany' }] }),
    ).rejects.toThrow(
      `depends_on[0].job_id: job ${running} ended and was deleted (its retention ran out) while this job was being submitted; nothing was stored`,
    );
    expect(await stored()).toBe(1); // the later one alone
  });
});

describe('arrays', () => {
  it('fails the parent when a child fails, with the counts in its note', async () => {
    domain = await startDomain();
    const parent = await domain.submit({ array: { size: 3 } });
    await domain.waitFor(parent, 'running');
    const children = await childrenOf(parent);
    for (const child of children) await domain.waitFor(child.id, 'running');
    children.forEach((child, index) => domain.engine.exit(child.id, index === 1 ? 3 : 0));
    const done = await domain.waitFor(parent, ['completed', 'failed', 'cancelled']);
    expect([done.state, done.systemNote]).toEqual(['failed', '2 of 3 completed, 1 failed']);
  });

  it('runs only the indexes given (array.indexes), each with its own index and the array’s size', async () => {
    domain = await startDomain();
    const parent = await domain.submit({ name: 'again', array: { size: 6, indexes: [4, 1] } });
    await domain.waitFor(parent, 'running');
    const children = await childrenOf(parent);
    expect(children.map((child) => [child.name, child.array])).toEqual([
      ['again:1', { parentId: parent, index: 1 }],
      ['again:4', { parentId: parent, index: 4 }],
    ]);
    for (const child of children) {
      await domain.waitFor(child.id, 'running');
      const env = domain.engine.workload(child.id)!.spec.env;
      const index = (child.array as { index: number }).index;
      expect(env).toEqual(
        expect.arrayContaining([`JOBDECK_ARRAY_INDEX=${index}`, 'JOBDECK_ARRAY_SIZE=6']),
      );
      domain.engine.exit(child.id, 0);
    }
    const done = await domain.waitFor(parent, ['completed', 'failed', 'cancelled']);
    expect([done.state, done.systemNote]).toEqual(['completed', '2 of 2 completed']);
    expect(domain.engine.launches.filter((id) => id !== parent)).toHaveLength(2);
  });

  it('stores the children an interrupted admission left out: its indexes alone', async () => {
    domain = await startDomain();
    const parent = newJob({
      project: 't',
      queue: 't::default',
      definition: 't::run:1',
      image: 'fake:job',
      env: [],
      createdAt: Date.now(),
      array: { size: 8, indexes: [2, 5, 7] },
    });
    const runnable = { to: 'runnable', note: null } as const;
    const [first] = arrayChildren(parent, runnable, [2], childIds([2, 5, 7], new Map(), null));
    // Stopped after the first chunk: one child of three stored.
    await domain.store.insertArray(parent, runnable, [first!], 'fingerprint');
    await domain.restart();
    await until(async () => (await childrenOf(parent.id)).length === 3, 'three children stored');
    const children = await childrenOf(parent.id);
    expect(children.map((child) => (child.array as { index: number }).index)).toEqual([2, 5, 7]);
    for (const child of children) {
      await domain.waitFor(child.id, 'running');
      domain.engine.exit(child.id, 0);
    }
    const done = await domain.waitFor(parent.id, ['completed', 'failed', 'cancelled']);
    expect([done.state, done.systemNote]).toEqual(['completed', '3 of 3 completed']);
  });

  it('cancels the rest of a sequential array when a child fails, and the parent ends failed', async () => {
    domain = await startDomain();
    const parent = await domain.submit({
      array: { size: 4 },
      depends_on: [{ type: 'sequential' }],
    });
    const [first, second] = await childrenOf(parent);
    await domain.waitFor(first!.id, 'running');
    expect((await domain.system.service.detail('t', second!.id)).state).toBe('pending');
    domain.engine.exit(first!.id, 0);
    await domain.waitFor(second!.id, 'running');
    domain.engine.exit(second!.id, 4);
    const done = await domain.waitFor(parent, ['completed', 'failed', 'cancelled']);
    expect([done.state, done.systemNote]).toEqual([
      'failed',
      '1 of 4 completed, 1 failed, 2 cancelled',
    ]);
    const states = (await childrenOf(parent)).map((child) => child.state);
    expect(states).toEqual(['completed', 'failed', 'cancelled', 'cancelled']);
    expect(domain.engine.launches).toHaveLength(2);
  });

  it('cancels every child not yet ended when the parent is cancelled, running or waiting for a slot', async () => {
    domain = await startDomain();
    const parent = await domain.submit({ array: { size: 6 } });
    await domain.waitFor(parent, 'running');
    // Four slots in the queue: four run, two wait.
    await until(
      async () => (await childrenOf(parent)).filter((c) => c.state === 'running').length === 4,
      'four children running',
    );
    await domain.system.service.cancel('t', parent, 'key:test');
    const done = await domain.waitFor(parent, ['cancelled', 'failed', 'completed']);
    expect(done.state).toBe('cancelled');
    const children = await childrenOf(parent);
    expect(children.map((child) => child.state)).toEqual(Array(6).fill('cancelled'));
    expect(domain.engine.launches).toHaveLength(4);
  });
});
