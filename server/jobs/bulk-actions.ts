import { setTimeout as sleep } from 'node:timers/promises';
import { v7 as timeOrderedUuid } from 'uuid';
import { BULK_LIMITS, cancelEffect, type JobState } from '../../contract';
import { JobRequestError, conflict, invalid } from './errors';
import type { BulkActionRecord, BulkResultRecord, Job, JobFilter } from './model';
import type { BulkActionStore, JobStore, Logger } from './ports';

/** Jobs a batch cancels before it records their results and moves the action's cursor on. */
const BATCH_SIZE = 200;
/**
 * Cancels asked for together: their moves share commits (the store's group commit) where one
 * at a time waited for a commit each.
 */
const CANCELS_AT_ONCE = 10;
/** A store that slows down does not stall the action for long between cancels. */
const IDLE_MAX_MS = 100;

export interface BulkPlan {
  matched: number;
  byState: Map<JobState, number>;
  /** The newest matching jobs. */
  sample: Job[];
}

/** What cancelling does to jobs by their state, summed (docs/api.md, "What Cancel Job does"). */
export function cancelPlanOf(byState: Map<JobState, number>) {
  const plan = { cancelled_at_once: 0, stopped: 0, already_cancelling: 0, skipped: 0 };
  for (const [state, count] of byState) {
    const effect = cancelEffect(state);
    if (effect === 'cancel-now') plan.cancelled_at_once += count;
    else if (effect === 'stop-container') plan.stopped += count;
    else if (effect === 'already-cancelling') plan.already_cancelling += count;
    else plan.skipped += count;
  }
  return plan;
}

export const notFoundBulkAction = (id: string) =>
  new JobRequestError('not-found', `id: no bulk action "${id}" in this project`);

/**
 * Cancels every job a filter matches, in the service, in batches: each batch's results and the
 * cursor after it are stored in one transaction, so a restart (or another instance, once the
 * lease runs out) carries the action on from the last batch recorded. A job reached twice is
 * cancelled twice, which Cancel Job makes harmless. Jobs submitted after the start are newer
 * than the cursor's start and left alone; a job is cancelled if it still matches at its turn.
 */
export class BulkActions {
  private working: Promise<void> | undefined;
  private stopping = false;

  constructor(
    private readonly deps: {
      store: JobStore;
      actions: BulkActionStore;
      cancel: (project: string, id: string) => Promise<void>;
      logger: Logger;
      /** This instance: the holder of the actions it carries. */
      owner: string;
      /** How long a silent holder keeps its actions before another instance takes them. */
      leaseMs: number;
    },
  ) {}

  async plan(project: string, filter: Omit<JobFilter, 'project'>): Promise<BulkPlan> {
    const scoped = { ...filter, project };
    const [byState, sample] = await Promise.all([
      this.deps.store.countJobsByState(scoped, BULK_LIMITS.maxJobs),
      this.deps.store.listJobs({ ...scoped, limit: BULK_LIMITS.sample }),
    ]);
    const matched = [...byState.values()].reduce((sum, count) => sum + count, 0);
    if (matched > BULK_LIMITS.maxJobs) {
      throw invalid(
        `filter: matches more than ${BULK_LIMITS.maxJobs} jobs; narrow it by state, queue, name, label or time`,
      );
    }
    return { matched, byState, sample };
  }

  async start(
    project: string,
    createdBy: string,
    filter: Omit<JobFilter, 'project'>,
  ): Promise<BulkActionRecord> {
    const { matched, sample } = await this.plan(project, filter);
    const newest = sample[0];
    if (!newest) throw invalid('filter: matches no job');
    const action: BulkActionRecord = {
      id: timeOrderedUuid(),
      project,
      action: 'cancel',
      filter,
      state: 'running',
      matched,
      processed: 0,
      accepted: 0,
      refused: 0,
      failed: 0,
      cursorSeq: newest.seq + 1,
      createdBy,
      createdAt: Date.now(),
      finishedAt: null,
    };
    await this.deps.actions.create(action);
    this.kick();
    return action;
  }

  async get(project: string, id: string): Promise<BulkActionRecord> {
    const action = await this.deps.actions.get(id);
    if (!action || action.project !== project) throw notFoundBulkAction(id);
    return action;
  }

  list(project: string): Promise<BulkActionRecord[]> {
    return this.deps.actions.list(project, BULK_LIMITS.listed);
  }

  /** Stops a running action after the batch in hand; the jobs it reached stay cancelled. */
  async stopAction(project: string, id: string): Promise<BulkActionRecord> {
    const action = await this.get(project, id);
    if (!(await this.deps.actions.stop(id, Date.now()))) {
      throw conflict(`id: bulk action ${id} is ${action.state}; only a running one can be stopped`);
    }
    return this.get(project, id);
  }

  /** Its results, newest job first, a page at a time. */
  async *results(project: string, id: string): AsyncGenerator<BulkResultRecord[]> {
    await this.get(project, id);
    let beforeSeq = Number.MAX_SAFE_INTEGER;
    for (;;) {
      const page = await this.deps.actions.results(id, beforeSeq, 1000);
      if (page.length === 0) return;
      yield page;
      beforeSeq = page.at(-1)!.jobSeq;
    }
  }

  /** Carries on every action no instance holds, unless this one is at it already. */
  kick(): void {
    if (this.working || this.stopping) return;
    this.working = this.work().finally(() => {
      this.working = undefined;
    });
  }

  /** Ends the batch in hand and gives up this instance's actions for another to carry on. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.working;
    await this.deps.actions.release(this.deps.owner);
  }

  private async work(): Promise<void> {
    const { actions, owner, leaseMs, logger } = this.deps;
    try {
      for (;;) {
        if (this.stopping) return;
        const now = Date.now();
        const action = await actions.claim(owner, now, now + leaseMs);
        if (!action) return;
        await this.carryOn(action);
      }
    } catch (error) {
      // The store away: the next reconcile pass kicks again, and this lease is still ours.
      logger.warn({ err: error }, 'a bulk action stopped for a while');
    }
  }

  private async carryOn(action: BulkActionRecord): Promise<void> {
    const { store, actions, owner, leaseMs, logger } = this.deps;
    let cursorSeq = action.cursorSeq;
    for (;;) {
      if (this.stopping) return;
      const jobs = await store.listJobs({
        ...action.filter,
        project: action.project,
        limit: BATCH_SIZE,
        beforeSeq: cursorSeq,
      });
      const results: BulkResultRecord[] = [];
      for (let i = 0; i < jobs.length; i += CANCELS_AT_ONCE) {
        const some = jobs.slice(i, i + CANCELS_AT_ONCE);
        const begin = performance.now();
        results.push(
          ...(await Promise.all(some.map((job) => this.cancelOne(action.project, job)))),
        );
        // Idle as long as these cancels took: the action takes at most half of the service's
        // time, and the requests that came meanwhile go first.
        await sleep(Math.min(IDLE_MAX_MS, performance.now() - begin));
      }
      const done = jobs.length < BATCH_SIZE;
      cursorSeq = jobs.at(-1)?.seq ?? cursorSeq;
      const now = Date.now();
      const state = await actions.recordBatch(action.id, owner, {
        results,
        cursorSeq,
        done,
        now,
        leaseUntil: now + leaseMs,
      });
      if (state === 'done') logger.info({ bulkAction: action.id }, 'bulk action done');
      if (state !== 'running') return;
    }
  }

  private async cancelOne(project: string, job: Job): Promise<BulkResultRecord> {
    const base = { jobSeq: job.seq, jobId: job.id, jobName: job.name, stateBefore: job.state };
    try {
      await this.deps.cancel(project, job.id);
      return { ...base, result: 'accepted', message: null };
    } catch (error) {
      if (error instanceof JobRequestError && error.kind !== 'invalid') {
        const result = error.kind === 'unavailable' ? 'failed' : 'refused';
        return { ...base, result, message: error.message };
      }
      // What went wrong inside stays in the log: the result file says only that it did.
      this.deps.logger.error({ err: error, jobId: job.id }, 'a bulk cancel of a job failed');
      return { ...base, result: 'failed', message: 'the service could not cancel it; see its log' };
    }
  }
}
