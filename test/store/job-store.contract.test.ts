import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JobState } from '../../contract';
import { auditEntry } from '../../server/jobs/audit';
import type { Job, NewJob } from '../../server/jobs/model';
import type { JobStore } from '../../server/jobs/ports';
import { openStore } from '../../server/store/open-store';
import type { Store } from '../../server/store/ports';
import { DRIVERS, queryBeside, type StoreConfig } from './drivers';
import { keepOutput, newJob, T0 } from './new-job';

describe.each(DRIVERS)('JobStore on $name', (driver) => {
  let store: Store;
  let config: StoreConfig;
  beforeEach(async () => {
    config = await driver.fresh();
    store = await openStore(config);
  });
  afterEach(() => store.close());

  async function insert(overrides: Partial<NewJob> = {}): Promise<Job> {
    const job = newJob(overrides);
    const result = await store.jobs.insertJob(job, 'fingerprint');
    const stored = (await store.jobs.getJob(job.id))!;
    expect(result).toEqual({ inserted: true, job: stored });
    return stored;
  }

  /** The instance recorded on each of the job's transitions, oldest first (null: none). */
  async function movedBy(id: string): Promise<(string | null)[]> {
    const rows = await queryBeside<{ moved_by: string | null }>(
      config,
      `SELECT moved_by FROM job_transitions WHERE job_id = '${id}' ORDER BY seq`,
    );
    return rows.map((row) => row.moved_by);
  }

  /** Walks a job along `path` (each a legal move), as the state machine would. */
  async function walk(job: Job, ...path: JobState[]): Promise<Job> {
    let current = job;
    for (const to of path) {
      const at = (current.updatedAt ?? current.createdAt) + 1;
      current = (await store.jobs.moveJob({
        id: job.id,
        from: current.state,
        to,
        at,
        note: null,
      }))!;
      expect(current.state).toBe(to);
    }
    return current;
  }

  /** Claims a runnable job for instance-a (runnable → starting): the job and a's fence on it. */
  async function claimedByA(job: Job, note: string | null, by?: string) {
    const claimed = (await store.jobs.moveJob({
      id: job.id,
      from: 'runnable',
      to: 'starting',
      at: T0 + 2,
      note,
      fields: { owner: 'instance-a' },
      ...(by !== undefined && { by }),
    }))!;
    return { owner: 'instance-a', epoch: claimed.ownerEpoch };
  }

  it('keeps every field of a job as inserted, with 64-bit times and sizes', async () => {
    const planned = newJob({ scheduleAt: T0 + 60_000 });
    await store.jobs.insertJob(planned, 'fingerprint');
    const job = await store.jobs.getJob(planned.id);
    const { seq, ...stored } = job!;
    expect(stored).toEqual({
      ...planned,
      state: 'submitted',
      systemNote: null,
      updatedAt: T0,
      containerId: null,
      exitCode: null,
      startedAt: null,
      finishedAt: null,
      cancelRequestedAt: null,
      cancelRequestedBy: null,
      owner: null,
      ownerEpoch: 0,
      node: null,
      host: null,
      placementNote: null,
      attempt: 1,
      notBefore: null,
      preemption: null,
      preemptions: 0,
    });
    expect(typeof seq).toBe('number');
    expect(await store.jobs.transitions(planned.id)).toEqual([
      { from: null, to: 'submitted', at: T0, note: null },
    ]);
    expect(await store.jobs.getJob('no-such-job')).toBeUndefined();
  });

  it('admits a job on insert: moved on from submitted in the same write, both transitions kept', async () => {
    const job = newJob({ scheduleAt: T0 + 60_000 });
    const result = await store.jobs.insertJob(job, 'fingerprint', {
      to: 'pending',
      note: 'scheduled for later',
    });
    expect(result).toMatchObject({
      inserted: true,
      job: { id: job.id, state: 'pending', systemNote: 'scheduled for later', updatedAt: T0 },
    });
    expect(await store.jobs.getJob(job.id)).toMatchObject({ state: 'pending' });
    expect(await store.jobs.transitions(job.id)).toEqual([
      { from: null, to: 'submitted', at: T0, note: null },
      { from: 'submitted', to: 'pending', at: T0, note: 'scheduled for later' },
    ]);
    // The name rule holds for an admitted job as for any other.
    const holder = await store.jobs.insertJob(newJob({ name: 'admitted' }), 'fingerprint', {
      to: 'runnable',
      note: null,
    });
    expect(holder.inserted).toBe(true);
    expect(
      await store.jobs.insertJob(newJob({ name: 'admitted' }), 'fingerprint', {
        to: 'runnable',
        note: null,
      }),
    ).toMatchObject({ inserted: false });
  });

  it('inserts concurrent jobs together, and still refuses a name taken within the same batch', async () => {
    const jobs = ['a', 'b', 'c', 'b'].map((name) => newJob({ name: `batch-${name}` }));
    const results = await Promise.all(jobs.map((job) => store.jobs.insertJob(job, 'fingerprint')));
    expect(results.map((r) => r.inserted)).toEqual([true, true, true, false]);
    expect(results[3]).toEqual({ inserted: false, nameHeldBy: jobs[1]!.id });
    for (const job of jobs.slice(0, 3))
      expect((await store.jobs.getJob(job.id))?.name).toBe(job.name);
    expect(await store.jobs.getJob(jobs[3]!.id)).toBeUndefined();
  });

  it('stores a batch larger than one statement: every job, its number and its history in order', async () => {
    const jobs = Array.from({ length: 100 }, (_, i) => newJob({ name: `many-${i}` }));
    const results = await Promise.all(
      jobs.map((job, i) =>
        store.jobs.insertJob(
          job,
          'fingerprint',
          i % 2 ? { to: 'runnable', note: null } : undefined,
        ),
      ),
    );
    const seqs = new Set<number>();
    for (const [i, result] of results.entries()) {
      const job = jobs[i]!;
      if (!result.inserted) throw new Error(`job ${i} was refused`);
      expect(await store.jobs.getJob(job.id)).toEqual(result.job);
      seqs.add(result.job.seq);
      expect((await store.jobs.transitions(job.id)).map((t) => t.to)).toEqual(
        i % 2 ? ['submitted', 'runnable'] : ['submitted'],
      );
    }
    expect(seqs.size).toBe(100);
  });

  it('numbers jobs in insertion order', async () => {
    const first = await insert();
    const second = await insert();
    expect(second.seq).toBeGreaterThan(first.seq);
  });

  it('refuses a name held by an unfinished job of the queue, naming the holder', async () => {
    const holder = await insert({ name: 'nightly' });
    const again = newJob({ name: 'nightly' });
    expect(await store.jobs.insertJob(again, 'fingerprint')).toEqual({
      inserted: false,
      nameHeldBy: holder.id,
    });
    expect(await store.jobs.getJob(again.id)).toBeUndefined();
    // Another queue may use it; and once the holder is final, so may this one.
    await insert({ name: 'nightly', queue: 'p::other' });
    await walk(holder, 'cancelled');
    await insert({ name: 'nightly' });
  });

  it('moves a job only from the state it is in, recording each transition with its fields', async () => {
    const job = await insert();
    const change = { id: job.id, from: 'submitted' as const, to: 'runnable' as const, note: null };
    expect(await store.jobs.moveJob({ ...change, at: T0 + 1 })).toMatchObject({
      state: 'runnable',
      updatedAt: T0 + 1,
    });
    // The second of two racing moves from the same state loses and changes nothing.
    expect(await store.jobs.moveJob({ ...change, at: T0 + 2 })).toBeUndefined();
    const starting = await store.jobs.moveJob({
      id: job.id,
      from: 'runnable',
      to: 'starting',
      at: T0 + 3,
      note: 'creating the container',
      fields: { containerId: 'c0ffee', startedAt: T0 + 3, owner: 'instance-a', node: 'node-2' },
    });
    expect(starting).toMatchObject({
      state: 'starting',
      systemNote: 'creating the container',
      containerId: 'c0ffee',
      startedAt: T0 + 3,
      owner: 'instance-a',
      node: 'node-2',
      exitCode: null,
    });
    expect(await store.jobs.transitions(job.id)).toEqual([
      { from: null, to: 'submitted', at: T0, note: null },
      { from: 'submitted', to: 'runnable', at: T0 + 1, note: null },
      { from: 'runnable', to: 'starting', at: T0 + 3, note: 'creating the container' },
    ]);
  });

  it('moves a job held by an owner only under its epoch: taken over (even given back), the stale owner changes nothing', async () => {
    const job = await walk(await insert(), 'runnable');
    const fenceOfA = await claimedByA(job, null, 'instance-a');
    expect(await store.jobs.takeOver({ from: 'instance-a', to: 'instance-b' })).toEqual([job.id]);
    const running = { id: job.id, from: 'starting' as const, to: 'running' as const, note: null };
    // Refused for its owner: told apart from a state conflict (undefined), nothing written.
    await expect(
      store.jobs.moveJob({ ...running, at: T0 + 3, fence: fenceOfA, by: 'instance-a' }),
    ).rejects.toMatchObject({ jobId: job.id, ownedBy: 'instance-b' });
    expect((await store.jobs.getJob(job.id))!.state).toBe('starting');
    // Given back to the same instance by a later takeover: a move decided under the first
    // ownership is still refused, since the epoch has moved on twice.
    expect(await store.jobs.takeOver({ from: 'instance-b', to: 'instance-a' })).toEqual([job.id]);
    const regained = (await store.jobs.getJob(job.id))!;
    expect(regained.owner).toBe('instance-a');
    expect(regained.ownerEpoch).toBe(fenceOfA.epoch + 2);
    await expect(
      store.jobs.moveJob({ ...running, at: T0 + 4, fence: fenceOfA, by: 'instance-a' }),
    ).rejects.toThrow(`job ${job.id} is owned by instance-a now`);
    // A state conflict under the current ownership stays a plain refusal.
    const current = { owner: 'instance-a', epoch: regained.ownerEpoch };
    expect(
      await store.jobs.moveJob({
        ...running,
        from: 'running',
        to: 'completed',
        at: T0 + 5,
        fence: current,
      }),
    ).toBe(undefined);
    expect(
      await store.jobs.moveJob({ ...running, at: T0 + 6, fence: current, by: 'instance-a' }),
    ).toMatchObject({ state: 'running', owner: 'instance-a', ownerEpoch: regained.ownerEpoch });
    const transitions = await store.jobs.transitions(job.id);
    expect(transitions.map((t) => t.at)).toEqual([T0, T0 + 1, T0 + 2, T0 + 6]);
  });

  it('raises the epoch on every claim and takeover, and records who made each move', async () => {
    await walk(await insert(), 'runnable');
    const claim = { limit: 10, queueMax: 10, serviceMax: 10, at: T0 + 2 };
    const [claimed] = await store.jobs.claimRunnable(
      { ...claim, queue: 'p::default', owner: 'instance-a' },
      () => 'claimed',
    );
    expect(claimed).toMatchObject({ owner: 'instance-a', ownerEpoch: 1 });
    await store.jobs.takeOver({ from: 'instance-a', to: 'instance-b' });
    expect((await store.jobs.getJob(claimed!.id))!.ownerEpoch).toBe(2);
    await store.jobs.moveJob({
      id: claimed!.id,
      from: 'starting',
      to: 'running',
      at: T0 + 3,
      note: null,
      fence: { owner: 'instance-b', epoch: 2 },
      by: 'instance-b',
    });
    expect(await movedBy(claimed!.id)).toEqual([null, null, 'instance-a', 'instance-b']);
  });

  it('replaces the note of a job only while it is in the state given, recording no transition', async () => {
    const job = await walk(await insert(), 'runnable', 'starting');
    await store.jobs.setNote({
      id: job.id,
      state: 'starting',
      note: 'waiting for a node: no\0 capacity',
    });
    expect((await store.jobs.getJob(job.id))!.systemNote).toMatch(
      /^waiting for a node: no(\0|\uFFFD) capacity$/,
    );
    await store.jobs.setNote({ id: job.id, state: 'runnable', note: 'too late' });
    expect((await store.jobs.getJob(job.id))!.systemNote).not.toBe('too late');
    await store.jobs.setNote({ id: job.id, state: 'starting', note: null });
    expect((await store.jobs.getJob(job.id))!.systemNote).toBeNull();
    expect(await store.jobs.transitions(job.id)).toHaveLength(3);
  });

  it('replaces the note of a job under a fence only while that ownership holds', async () => {
    const job = await walk(await insert(), 'runnable');
    const fenceOfA = await claimedByA(job, 'creating the container');
    const note = (text: string, fence: typeof fenceOfA) =>
      store.jobs.setNote({ id: job.id, state: 'starting', note: text, fence });
    await note('waiting for a node (a)', fenceOfA);
    expect((await store.jobs.getJob(job.id))!.systemNote).toBe('waiting for a node (a)');
    await store.jobs.takeOver({ from: 'instance-a', to: 'instance-b' });
    await note('waiting for a node (a, late)', fenceOfA);
    expect((await store.jobs.getJob(job.id))!.systemNote).toBe('waiting for a node (a)');
    // Given back: the first ownership's epoch is still past.
    await store.jobs.takeOver({ from: 'instance-b', to: 'instance-a' });
    await note('waiting for a node (a, later)', fenceOfA);
    const regained = (await store.jobs.getJob(job.id))!;
    expect(regained.systemNote).toBe('waiting for a node (a)');
    await note('waiting for a node (now)', { owner: 'instance-a', epoch: regained.ownerEpoch });
    expect((await store.jobs.getJob(job.id))!.systemNote).toBe('waiting for a node (now)');
  });

  it('marks a running job as preempted once, on its attempt, with its audit event; a move clears the mark and counts it', async () => {
    const job = await walk(await insert(), 'runnable', 'starting', 'running');
    const preemption = { at: T0 + 5, reason: 'team-a reclaimed 2 CPUs it lent' };
    const ask = (attempt: number) =>
      store.jobs.requestPreemption({
        id: job.id,
        attempt,
        preemption,
        note: 'preempting',
        audit: auditEntry({
          project: job.project,
          actor: 'system:reclaim',
          address: '-',
          action: 'job.preempt',
          target: job.id,
          detail: { attempt },
        }),
      });
    expect(await ask(2)).toBe(false);
    expect(await ask(1)).toBe(true);
    expect(await ask(1)).toBe(false);
    // Stored with the mark alone, in its transaction: no audit trail to flush or lose.
    const events = await store.audit.list(job.project, { limit: 10 });
    expect(events.map((e) => [e.action, e.target, e.detail])).toEqual([
      ['job.preempt', job.id, { attempt: 1 }],
    ]);
    const marked = (await store.jobs.getJob(job.id))!;
    expect(marked).toMatchObject({ state: 'running', preemption, preemptions: 0 });
    expect(marked.systemNote).toBe('preempting');
    expect(await store.jobs.transitions(job.id)).toHaveLength(4); // no transition of its own
    const requeued = await store.jobs.moveJob({
      id: job.id,
      from: 'running',
      to: 'runnable',
      at: T0 + 6,
      note: 'preempted',
      fields: { attempt: 2, preemption: null, preemptions: 1 },
    });
    expect(requeued).toMatchObject({ attempt: 2, preemption: null, preemptions: 1 });
    // Runnable: nothing to preempt.
    expect(await ask(2)).toBe(false);
  });

  it('keeps a note holding a NUL character (as the character or a replacement)', async () => {
    const job = await insert();
    await store.jobs.moveJob({
      id: job.id,
      from: 'submitted',
      to: 'cancelled',
      at: T0 + 1,
      note: 'engine said: a\0b',
    });
    expect((await store.jobs.getJob(job.id))!.systemNote).toMatch(/^engine said: a(\0|\uFFFD)b$/);
  });

  it('finds due jobs in schedule order and the next schedule among pending ones', async () => {
    const later = await walk(await insert({ scheduleAt: T0 + 3000 }), 'pending');
    const soon = await walk(await insert({ scheduleAt: T0 + 1000 }), 'pending');
    const sooner = await walk(await insert({ scheduleAt: T0 + 500 }), 'pending');
    await insert({ scheduleAt: T0 + 100 }); // still submitted: not pending, not due
    expect(await store.jobs.nextScheduleAt(T0)).toBe(sooner.scheduleAt);
    expect((await store.jobs.dueJobs(T0 + 1000)).map((j) => j.id)).toEqual([sooner.id, soon.id]);
    await walk(sooner, 'cancelled');
    await walk(soon, 'runnable');
    expect(await store.jobs.nextScheduleAt(T0)).toBe(later.scheduleAt);
    await walk(later, 'cancelled');
    expect(await store.jobs.nextScheduleAt(T0)).toBeUndefined();
  });

  it('keeps what a job waits for, finds the pending ones that wait, and what waits for a job', async () => {
    const first = await insert();
    const second = await insert();
    const waiting = await insert({
      scheduleAt: T0 - 1,
      dependsOn: [
        { jobId: first.id, type: 'afterok' },
        { jobId: second.id, type: 'afternotok' },
      ],
    });
    const alsoWaiting = await insert({ dependsOn: [{ jobId: first.id, type: 'afterany' }] });
    expect(waiting.dependsOn).toEqual([
      { jobId: first.id, type: 'afterok' },
      { jobId: second.id, type: 'afternotok' },
    ]);
    expect(first.dependsOn).toEqual([]);
    await walk(waiting, 'pending');
    await walk(alsoWaiting, 'pending');
    // Due by its schedule, but moved on by the dependency check alone.
    expect(await store.jobs.dueJobs(T0 + 1000)).toEqual([]);
    expect((await store.jobs.jobsAwaitingDependencies()).map((j) => j.id)).toEqual([
      waiting.id,
      alsoWaiting.id,
    ]);
    await walk(first, 'runnable');
    const summaries = await store.jobs.jobSummaries([first.id, second.id, 'no-such-job']);
    expect(summaries.sort((a, b) => a.name.localeCompare(b.name))).toEqual(
      [first, second]
        .map(({ id, project, name }, i) => ({
          id,
          project,
          name,
          state: i === 0 ? 'runnable' : 'submitted',
        }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    );
    expect(await store.jobs.dependents(first.id, 1)).toEqual({
      items: [
        { id: waiting.id, project: 'p', name: waiting.name, state: 'pending', type: 'afterok' },
      ],
      total: 2,
    });
    expect(await store.jobs.dependents(waiting.id, 10)).toEqual({ items: [], total: 0 });
    await walk({ ...waiting, state: 'pending' }, 'runnable');
    expect((await store.jobs.jobsAwaitingDependencies()).map((j) => j.id)).toEqual([
      alsoWaiting.id,
    ]);
  });

  it('counts the slots held per queue and finds jobs by state', async () => {
    const a = await walk(await insert(), 'runnable', 'starting');
    const b = await walk(await insert(), 'runnable', 'starting', 'running');
    const c = await walk(await insert({ queue: 'p::other' }), 'runnable', 'starting', 'cancelling');
    await walk(await insert(), 'runnable', 'starting', 'running', 'completed');
    const waiting = await walk(await insert(), 'runnable');
    expect(await store.jobs.activeCountsByQueue()).toEqual(
      new Map([
        ['p::default', 2],
        ['p::other', 1],
      ]),
    );
    const inSlots = await store.jobs.jobsInStates(['starting', 'running', 'cancelling']);
    expect(inSlots.map((j) => j.id)).toEqual([a.id, b.id, c.id]);
    expect((await store.jobs.jobsInStates(['runnable'])).map((j) => j.id)).toEqual([waiting.id]);
  });

  it("lists a project's jobs newest first, filtered, page by page", async () => {
    const mine: Job[] = [];
    for (let i = 0; i < 5; i += 1) mine.push(await insert({ queue: i % 2 ? 'p::a' : 'p::b' }));
    await insert({ project: 'q', queue: 'q::default' });
    await walk(mine[1]!, 'cancelled');
    const ids = (jobs: Job[]) => jobs.map((j) => j.id);
    const newestFirst = ids([...mine].reverse());

    const firstPage = await store.jobs.listJobs({ project: 'p', limit: 2 });
    expect(ids(firstPage)).toEqual(newestFirst.slice(0, 2));
    const nextPage = await store.jobs.listJobs({
      project: 'p',
      limit: 10,
      beforeSeq: firstPage.at(-1)!.seq,
    });
    expect(ids(nextPage)).toEqual(newestFirst.slice(2));
    expect(ids(await store.jobs.listJobs({ project: 'p', limit: 10, queue: 'p::a' }))).toEqual([
      mine[3]!.id,
      mine[1]!.id,
    ]);
    expect(
      ids(await store.jobs.listJobs({ project: 'p', limit: 10, states: ['cancelled'] })),
    ).toEqual([mine[1]!.id]);
    expect(
      ids(
        await store.jobs.listJobs({ project: 'p', limit: 10, states: ['cancelled', 'submitted'] }),
      ),
    ).toEqual(newestFirst);
    // Counts take the same filters, every page together, and stop one past the bound.
    expect(await store.jobs.countJobs({ project: 'p' }, 100)).toBe(5);
    expect(await store.jobs.countJobs({ project: 'p', queue: 'p::a' }, 100)).toBe(2);
    expect(await store.jobs.countJobs({ project: 'p', states: ['cancelled'] }, 100)).toBe(1);
    expect(await store.jobs.countJobs({ project: 'p' }, 3)).toBe(4);
    expect(await store.jobs.countJobs({ project: 'none' }, 100)).toBe(0);
  });

  it('lists jobs by name prefix (case-sensitive, wildcards literal) and creation time', async () => {
    const nightly = await insert({ name: 'nightly-report', createdAt: T0 + 10 });
    await insert({ name: 'nightly_backup', createdAt: T0 + 5 });
    await insert({ name: 'Nightly-other', createdAt: T0 + 20 });
    await insert({ name: 'hourly', createdAt: T0 + 30 });
    const names = async (filter: Partial<Parameters<JobStore['listJobs']>[0]>) =>
      (await store.jobs.listJobs({ project: 'p', limit: 10, ...filter })).map((j) => j.name);
    expect(await names({ namePrefix: 'nightly' })).toEqual(['nightly_backup', 'nightly-report']);
    expect(await names({ namePrefix: 'nightly_' })).toEqual(['nightly_backup']);
    expect(await names({ namePrefix: 'nightly%' })).toEqual([]);
    expect(await names({ createdAfter: T0 + 5, createdBefore: T0 + 30 })).toEqual([
      'Nightly-other',
      nightly.name,
    ]); // both bounds exclusive
  });

  it('lists a name prefix that many jobs have by walking newest first, one few have by its index', async () => {
    await insert({ name: 'other-a' });
    // More than the list sorts from the name index (reads.ts): the walk checks each job instead.
    const many = Array.from({ length: 10_001 }, (_, i) => newJob({ name: `bulk-${i}` }));
    const stored = await Promise.all(many.map((job) => store.jobs.insertJob(job, 'fingerprint')));
    await insert({ name: 'other-b' });
    const newestBulk = await store.jobs.listJobs({ project: 'p', limit: 3, namePrefix: 'bulk-' });
    const bulkSeqs = stored.map((result) => (result.inserted ? result.job.seq : 0));
    expect(newestBulk.map((job) => job.seq)).toEqual(bulkSeqs.sort((a, b) => b - a).slice(0, 3));
    const others = await store.jobs.listJobs({ project: 'p', limit: 10, namePrefix: 'other-' });
    expect(others.map((job) => job.name)).toEqual(['other-b', 'other-a']);
    expect(await store.jobs.countJobs({ project: 'p', namePrefix: 'bulk-' }, 20_000)).toBe(10_001);
    expect(await store.jobs.countJobs({ project: 'p', namePrefix: 'bulk-1' }, 20_000)).toBe(1_112);
  });

  it('reads a time range from the jobs created near it, a job written a little late too', async () => {
    // Jobs created 20 s apart: twice the 10 s by which a job may be written after its time.
    const at = (ticks: number) => T0 + ticks * 20_000;
    for (let i = 0; i <= 9; i += 1) await insert({ name: `m${i}`, createdAt: at(i) });
    // Written after m9 though created 5 s before it: a slow write batch or a clock a little behind.
    await insert({ name: 'late', createdAt: at(8.75) });
    for (let i = 10; i <= 12; i += 1) await insert({ name: `m${i}`, createdAt: at(i) });
    // Written a minute and more after the jobs created beside it: past what a range allows.
    await insert({ name: 'very-late', createdAt: at(3.5) });
    const names = async (after: number, before: number) =>
      (
        await store.jobs.listJobs({
          project: 'p',
          limit: 10,
          createdAfter: at(after),
          createdBefore: at(before),
        })
      ).map((j) => j.name);
    expect(await names(8, 8.9)).toEqual(['late']);
    expect(await names(8, 9.5)).toEqual(['late', 'm9']);
    expect(await names(0.5, 2.5)).toEqual(['m2', 'm1']);
    const range = { project: 'p', createdAfter: at(7.5), createdBefore: at(11.5) };
    expect(await store.jobs.countJobs(range, 100)).toBe(5);
    // docs/guides/job-list.md: a job written that late can be missed by a range (by no other filter).
    expect(await names(3, 4)).toEqual([]);
    expect((await store.jobs.listJobs({ project: 'p', limit: 1 }))[0]!.name).toBe('very-late');
  });

  const line = (stream: 'stdout' | 'stderr', n: number, text: string) => ({
    stream,
    at: `2026-11-21T10:00:00.00000000${n}Z`,
    text,
  });

  const budget = { project: 'p', maxStoredBytes: 1024 ** 2, savedAt: T0 };

  it('keeps the last logs saved for a job, line by line with stream and time', async () => {
    const job = await insert();
    expect(await store.jobs.getLogs(job.id)).toBeUndefined();
    await keepOutput(
      store.jobs,
      job.id,
      {
        lines: [line('stdout', 1, 'partial\n')],
        truncated: false,
      },
      budget,
    );
    const lines = [line('stdout', 2, 'line 200\n'), line('stderr', 3, 'oops')];
    await keepOutput(store.jobs, job.id, { lines, truncated: true }, budget);
    expect(await store.jobs.getLogs(job.id)).toEqual({ lines, truncated: true });
  });

  it('keeps logs holding a NUL byte (as the character or a replacement)', async () => {
    const job = await insert();
    const lines = [line('stdout', 1, 'binary \0 output\n')];
    await keepOutput(store.jobs, job.id, { lines, truncated: false }, budget);
    expect((await store.jobs.getLogs(job.id))!.lines[0]!.text).toMatch(
      /^binary (\0|\uFFFD) output\n$/,
    );
  });

  it('counts the jobs of queues by state: unfinished now, final by when they finished', async () => {
    const HOUR = 3600_000;
    const now = T0 + 48 * HOUR;
    const finish = async (queue: string, to: JobState, finishedAt: number) => {
      const job = await walk(await insert({ queue }), 'runnable', 'starting', 'running');
      await store.jobs.moveJob({
        id: job.id,
        from: 'running',
        to,
        at: finishedAt,
        note: null,
        fields: { finishedAt, exitCode: 0 },
      });
    };
    await walk(await insert(), 'runnable');
    await walk(await insert(), 'runnable');
    await walk(await insert(), 'runnable', 'starting', 'running');
    await insert({ queue: 'p::other' });
    await finish('p::default', 'completed', now - 10 * 60_000); // last hour
    await finish('p::default', 'completed', now - 5 * HOUR); // last day
    await finish('p::default', 'failed', now - 2 * HOUR);
    await finish('p::default', 'completed', now - 30 * HOUR); // too old
    await finish('q::default', 'completed', now - 60_000); // not asked for
    const counts = await store.jobs.countByQueue({
      queues: ['p::default', 'p::other'],
      since: now - 24 * HOUR,
      recentSince: now - HOUR,
    });
    const byKey = Object.fromEntries(
      counts.map((c) => [`${c.queue} ${c.state}`, [c.count, c.recent]]),
    );
    expect(byKey).toEqual({
      'p::default runnable': [2, 2],
      'p::default running': [1, 1],
      'p::other submitted': [1, 1],
      'p::default completed': [2, 1],
      'p::default failed': [1, 0],
    });
    expect(await store.jobs.countByQueue({ queues: [], since: 0, recentSince: 0 })).toEqual([]);
  });

  it('counts what finished in a window exactly, on the edges of its minute buckets too, through deletes and forgetting', async () => {
    const MINUTE = 60_000;
    const HOUR = 60 * MINUTE;
    const now = T0 + 48 * HOUR + 123_456; // not on a bucket's edge
    const since = now - 24 * HOUR;
    const recentSince = now - HOUR;
    const edgeAfter = (at: number) => Math.ceil(at / MINUTE) * MINUTE;
    // Every edge a count could get wrong by one: each window's start, its first whole bucket,
    // the millisecond either side of each; and times in between.
    const times = [since, recentSince, edgeAfter(since), edgeAfter(recentSince)].flatMap((t) => [
      t - 1,
      t,
      t + 1,
    ]);
    times.push(now - 30 * HOUR, now - 5 * HOUR, now - 17 * MINUTE, now);
    const ends: JobState[] = ['completed', 'failed', 'cancelled'];
    const finished: { queue: string; state: JobState; at: number }[] = [];
    for (const [i, at] of times.sort((a, b) => a - b).entries()) {
      const queue = i % 4 === 3 ? 'p::other' : 'p::default';
      const state = ends[i % 3]!;
      const job = await walk(await insert({ queue }), 'runnable', 'starting', 'running');
      await store.jobs.moveJob({
        id: job.id,
        from: 'running',
        to: state,
        at,
        note: null,
        fields: { finishedAt: at, exitCode: 0 },
      });
      finished.push({ queue, state, at });
    }
    const expectExact = async () => {
      const want: Record<string, [number, number]> = {};
      for (const job of finished.filter((j) => j.at >= since)) {
        const [count, recent] = want[`${job.queue} ${job.state}`] ?? [0, 0];
        want[`${job.queue} ${job.state}`] = [count + 1, recent + (job.at >= recentSince ? 1 : 0)];
      }
      const counts = await store.jobs.countByQueue({
        queues: ['p::default', 'p::other'],
        since,
        recentSince,
      });
      const got = Object.fromEntries(
        counts
          .filter((c) => c.count > 0 && ends.includes(c.state))
          .map((c) => [`${c.queue} ${c.state}`, [c.count, c.recent]]),
      );
      expect(got).toEqual(want);
      expect(Object.keys(got).length).toBeGreaterThan(3);
    };
    await expectExact();
    // Retention deletes what finished before 20 hours ago: the counts go down with the jobs.
    const deleted = await store.retention.pruneFinished({
      queue: 'p::default',
      before: now - 20 * HOUR,
      limit: 100,
    });
    expect(deleted).toBeGreaterThan(3);
    finished.splice(
      0,
      finished.length,
      ...finished.filter((j) => j.queue !== 'p::default' || j.at >= now - 20 * HOUR),
    );
    await expectExact();
    // Forgetting what finished before the window changes nothing within it.
    await store.retention.forgetFinishedCounts(since);
    await expectExact();
  });

  it("reads state changes by sequence number, a project's with its jobs, within bounds", async () => {
    expect(await store.jobs.lastChangeSeq()).toBe(0);
    const mine = await walk(await insert(), 'runnable');
    const theirs = await walk(await insert({ project: 'q', queue: 'q::default' }), 'runnable');
    await walk(mine, 'cancelled');
    const seqs = (await queryBeside<{ seq: number }>(config, 'SELECT seq FROM job_transitions'))
      .map((row) => Number(row.seq))
      .sort((a, b) => a - b);
    expect(seqs).toHaveLength(5);
    expect(await store.jobs.lastChangeSeq()).toBe(seqs.at(-1));
    // Nothing under way here: every change is settled.
    expect((await store.jobs.changeHorizon()).settled).toBe(seqs.at(-1));

    const changes = await store.jobs.changesAfter({
      project: 'p',
      afterSeq: 0,
      uptoSeq: seqs.at(-1)!,
      limit: 10,
    });
    expect(changes.map((c) => [c.job.id, c.transition.to])).toEqual([
      [mine.id, 'submitted'],
      [mine.id, 'runnable'],
      [mine.id, 'cancelled'],
    ]);
    expect(changes.every((c) => c.job.state === 'cancelled')).toBe(true);
    expect(changes.map((c) => c.seq)).toEqual([seqs[0], seqs[1], seqs[4]]);
    // Bounds: after the first, up to the fourth; and the limit.
    expect(
      (
        await store.jobs.changesAfter({
          project: 'p',
          afterSeq: seqs[0]!,
          uptoSeq: seqs[3]!,
          limit: 10,
        })
      ).map((c) => c.seq),
    ).toEqual([seqs[1]]);
    expect(
      await store.jobs.changesAfter({ project: 'p', afterSeq: 0, uptoSeq: seqs.at(-1)!, limit: 1 }),
    ).toHaveLength(1);
    expect(
      (
        await store.jobs.changesAfter({
          project: 'q',
          afterSeq: 0,
          uptoSeq: seqs.at(-1)!,
          limit: 10,
        })
      ).map((c) => c.job.id),
    ).toEqual([theirs.id, theirs.id]);
  });

  describe('claiming runnable jobs', () => {
    const claimOf = (queue: string, queueMax: number, serviceMax: number, limit = 10) => ({
      queue,
      limit,
      queueMax,
      serviceMax,
      owner: 'instance-a',
      at: T0 + 10,
    });
    const noteFor = (job: Job) => `creating ${job.image}`;

    it('takes the oldest runnable jobs of the queue, moving them to starting with note and owner', async () => {
      const runnable = [];
      for (let i = 0; i < 3; i += 1) runnable.push(await walk(await insert(), 'runnable'));
      await walk(await insert({ queue: 'p::other' }), 'runnable');
      await insert(); // submitted, not runnable

      const claimed = await store.jobs.claimRunnable(claimOf('p::default', 2, 10), noteFor);
      expect(claimed.map((j) => j.id)).toEqual([runnable[0]!.id, runnable[1]!.id]);
      for (const job of claimed) {
        expect(job).toMatchObject({
          state: 'starting',
          systemNote: 'creating jobdeck/busybox:local',
          owner: 'instance-a',
          updatedAt: T0 + 10,
        });
        expect(await store.jobs.getJob(job.id)).toEqual(job);
        expect((await store.jobs.transitions(job.id)).at(-1)).toEqual({
          from: 'runnable',
          to: 'starting',
          at: T0 + 10,
          note: 'creating jobdeck/busybox:local',
        });
      }
      // The queue is full now: nothing more until a slot frees.
      expect(await store.jobs.claimRunnable(claimOf('p::default', 2, 10), noteFor)).toEqual([]);
      await walk(claimed[0]!, 'running', 'completed');
      const next = await store.jobs.claimRunnable(claimOf('p::default', 2, 10), noteFor);
      expect(next.map((j) => j.id)).toEqual([runnable[2]!.id]);
    });

    it('counts every slot state of the queue and of the whole service', async () => {
      await walk(await insert(), 'runnable', 'starting');
      await walk(await insert(), 'runnable', 'starting', 'running');
      await walk(await insert({ queue: 'p::other' }), 'runnable', 'starting', 'cancelling');
      await walk(await insert(), 'runnable', 'starting', 'running', 'failed');
      for (let i = 0; i < 4; i += 1) await walk(await insert(), 'runnable');

      // Queue: 2 of 3 held → 1 more; service: 3 of 4 held → 1 more; limit 1 → 1.
      expect(await store.jobs.claimRunnable(claimOf('p::default', 3, 10), noteFor)).toHaveLength(1);
      expect(await store.jobs.claimRunnable(claimOf('p::default', 10, 5), noteFor)).toHaveLength(1);
      expect(await store.jobs.claimRunnable(claimOf('p::default', 10, 5), noteFor)).toHaveLength(0);
      expect(
        await store.jobs.claimRunnable(claimOf('p::default', 10, 10, 1), noteFor),
      ).toHaveLength(1);
    });

    it('skips jobs that are no longer runnable', async () => {
      const cancelled = await walk(await insert(), 'runnable', 'cancelled');
      const runnable = await walk(await insert(), 'runnable');
      const claimed = await store.jobs.claimRunnable(claimOf('p::default', 4, 4), noteFor);
      expect(claimed.map((j) => j.id)).toEqual([runnable.id]);
      expect((await store.jobs.getJob(cancelled.id))!.state).toBe('cancelled');
    });
  });

  it('lists the sealed env of unfinished jobs only, for the start-up key check', async () => {
    const waiting = await insert();
    const plain = await insert({ env: [{ name: 'PLAIN', value: 'v' }] });
    const done = await walk(await insert(), 'runnable', 'starting', 'running', 'completed');
    const listed = await store.sealedEnv.unfinishedSealedEnv();
    const ids = listed.map((job) => job.id);
    expect(ids).toContain(waiting.id);
    expect(ids).not.toContain(plain.id);
    expect(ids).not.toContain(done.id);
    expect(listed.find((job) => job.id === waiting.id)?.env).toEqual(waiting.env);
  });
});
