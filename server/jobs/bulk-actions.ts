import { setTimeout as sleep } from 'node:timers/promises';
import { v7 as timeOrderedUuid } from 'uuid';
import {
  BULK_LIMITS,
  RESUBMIT_LABELS,
  cancelEffect,
  isFinalState,
  type BulkActionKind,
  type JobState,
} from '../../contract';
import { JobRequestError, conflict, invalid } from './errors';
import type { Job } from './model';
import type { BulkActionRecord, BulkResultRecord } from './bulk-action-records';
import type { JobFilter } from './list-filter';
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
/** After a failed pass, the next try: a reconcile pass may not come while the engine is away. */
const RETRY_MS = 2000;

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

/** What submitting jobs again does to them by their state, summed: only an ended job is. */
export function resubmitPlanOf(byState: Map<JobState, number>) {
  const plan = { resubmitted: 0, skipped: 0 };
  for (const [state, count] of byState) {
    if (isFinalState(state)) plan.resubmitted += count;
    else plan.skipped += count;
  }
  return plan;
}

export const notFoundBulkAction = (id: string) =>
  new JobRequestError('not-found', `id: no bulk action "${id}" in this project`);

/**
 * Cancels, or submits again, every job a filter matches, in the service, in batches: each
 * batch's results and the cursor after it are stored in one transaction, so a restart (or
 * another instance, once the lease runs out) carries the action on from the last batch recorded.
 * A job reached twice is cancelled twice, which Cancel Job makes harmless; a batch carried on
 * after its holder stopped half-way submits again only the jobs that no job of this action names
 * as its source yet (its labels), so none is submitted twice. Jobs submitted after the start
 * (those it submitted among them) are newer than the cursor's start and left alone; a job is
 * acted on if it still matches at its turn.
 */
export class BulkActions {
  private working: Promise<void> | undefined;
  private again = false;
  private retry: NodeJS.Timeout | undefined;
  private stopping = false;

  constructor(
    private readonly deps: {
      store: JobStore;
      actions: BulkActionStore;
      cancel: (project: string, id: string, by: string) => Promise<void>;
      /** Submits the job again (its secrets kept), with these labels added; the new job's id. */
      resubmit: (
        project: string,
        id: string,
        by: string,
        labels: Record<string, string>,
      ) => Promise<string>;
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
    kind: BulkActionKind,
  ): Promise<BulkActionRecord> {
    const { matched, sample } = await this.plan(project, filter);
    const newest = sample[0];
    if (!newest) throw invalid('filter: matches no job');
    const action: BulkActionRecord = {
      id: timeOrderedUuid(),
      project,
      action: kind,
      filter,
      state: 'running',
      matched,
      processed: 0,
      accepted: 0,
      refused: 0,
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

  /** Stops a running action within ten cancels; the jobs it reached stay cancelled. */
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
      const page = await this.deps.actions.results({ id, beforeSeq, limit: 1000 });
      if (page.length === 0) return;
      yield page;
      beforeSeq = page.at(-1)!.jobSeq;
    }
  }

  /** Carries on every action no instance holds, unless this one is at it already. */
  kick(): void {
    if (this.stopping) return;
    if (this.working) {
      // Asked while a pass may be ending: it looks once more before it stops.
      this.again = true;
      return;
    }
    this.working = this.work().finally(() => {
      this.working = undefined;
      if (this.again) this.kick();
    });
  }

  /** Ends the cancels in hand and gives up this instance's actions for another to carry on. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.retry);
    await this.working;
    await this.deps.actions.release(this.deps.owner);
  }

  private async work(): Promise<void> {
    const { actions, owner, leaseMs, logger } = this.deps;
    this.again = false;
    try {
      for (;;) {
        if (this.stopping) return;
        const now = Date.now();
        const action = await actions.claim({ owner, now, leaseUntil: now + leaseMs });
        if (!action) return;
        await this.carryOn(action);
      }
    } catch (error) {
      // The store away, or a cancel that could not be decided: the lease is still this
      // instance's, and the batch's jobs wait as pending results for the next try.
      logger.warn({ err: error }, 'a bulk action paused; trying again shortly');
      clearTimeout(this.retry);
      this.retry = setTimeout(() => this.kick(), RETRY_MS);
      this.retry.unref();
    }
  }

  /**
   * The batch left pending by a holder that stopped half-way first (by job, the filter not asked
   * again: those jobs matched and may be cancelled by now), then batch after batch from the
   * cursor. Each batch is stored as pending results before its first cancel.
   */
  private async carryOn(action: BulkActionRecord): Promise<void> {
    const { store, actions, owner, leaseMs } = this.deps;
    const pending = await actions.pendingResults(action.id);
    if (pending.length > 0 && !(await this.runBatch(action, pending, false, true))) return;
    let cursorSeq = action.cursorSeq;
    for (;;) {
      if (this.stopping) return;
      const jobs = await store.listJobs({
        ...action.filter,
        project: action.project,
        limit: BATCH_SIZE,
        beforeSeq: cursorSeq,
      });
      const batch = jobs.map(pendingResult);
      cursorSeq = jobs.at(-1)?.seq ?? cursorSeq;
      const leaseUntil = Date.now() + leaseMs;
      if (
        !(await actions.beginBatch({ id: action.id, owner, pending: batch, cursorSeq, leaseUntil }))
      ) {
        return;
      }
      if (!(await this.runBatch(action, batch, jobs.length < BATCH_SIZE))) return;
    }
  }

  /**
   * Cancels the batch's jobs a few at a time, renewing the lease and looking for a stop between,
   * then records what each answered; false once this instance is not to go on with the action.
   */
  private async runBatch(
    action: BulkActionRecord,
    batch: readonly BulkResultRecord[],
    last: boolean,
    carriedOn = false,
  ): Promise<boolean> {
    const { actions, owner, leaseMs, logger } = this.deps;
    const results: BulkResultRecord[] = [];
    const finish = async (done: boolean) => {
      const now = Date.now();
      const state = await actions.finishBatch({
        id: action.id,
        owner,
        results,
        done,
        now,
        leaseUntil: now + leaseMs,
      });
      if (state === 'done') logger.info({ bulkAction: action.id }, 'bulk action done');
      return state === 'running';
    };
    for (let i = 0; i < batch.length; i += CANCELS_AT_ONCE) {
      // Stopping: the rest stays pending, for this instance's next start or another.
      if (this.stopping) return false;
      const begin = performance.now();
      const some = batch.slice(i, i + CANCELS_AT_ONCE);
      results.push(
        ...(await Promise.all(some.map((job) => this.actOnOne(action, job, carriedOn)))),
      );
      const state = await actions.heartbeat({
        id: action.id,
        owner,
        leaseUntil: Date.now() + leaseMs,
      });
      if (state === 'stopped') return finish(false);
      if (state !== 'running') return false;
      // Idle as long as these cancels took: the action takes at most half of the service's
      // time, and the requests that came meanwhile go first.
      await sleep(Math.min(IDLE_MAX_MS, performance.now() - begin));
    }
    return finish(last);
  }

  /**
   * The action's answer for one job, on behalf of whoever started it; a failure worth another
   * try is thrown. `carriedOn`: the batch may have been half done by an earlier holder.
   */
  private async actOnOne(
    action: BulkActionRecord,
    job: BulkResultRecord,
    carriedOn: boolean,
  ): Promise<BulkResultRecord> {
    try {
      if (action.action === 'cancel') {
        await this.deps.cancel(action.project, job.jobId, action.createdBy);
        return { ...job, result: 'accepted', message: null };
      }
      const labels = { [RESUBMIT_LABELS.bulkAction]: action.id };
      const done = carriedOn ? await this.resubmittedAs(action, job.jobId) : undefined;
      const id =
        done ?? (await this.deps.resubmit(action.project, job.jobId, action.createdBy, labels));
      return { ...job, result: 'accepted', message: `submitted again as ${id}` };
    } catch (error) {
      if (error instanceof JobRequestError && REFUSALS[action.action].has(error.kind)) {
        return { ...job, result: 'refused', message: error.message };
      }
      throw error;
    }
  }

  /** The job this action already submitted again from `sourceId`, if any. */
  private async resubmittedAs(action: BulkActionRecord, sourceId: string) {
    const [made] = await this.deps.store.listJobs({
      project: action.project,
      labels: [
        { key: RESUBMIT_LABELS.bulkAction, value: action.id },
        { key: RESUBMIT_LABELS.source, value: sourceId },
      ],
      limit: 1,
    });
    return made?.id;
  }
}

/**
 * The answers that are the job's, not the moment's: it ended (or, to submit again, has not), it
 * is gone, or (submitting again) the job with its changes is no valid submission any more.
 */
const REFUSALS: Record<BulkActionKind, ReadonlySet<JobRequestError['kind']>> = {
  cancel: new Set(['conflict', 'not-found']),
  resubmit: new Set(['conflict', 'not-found', 'invalid']),
};

const pendingResult = (job: Job): BulkResultRecord => ({
  jobSeq: job.seq,
  jobId: job.id,
  jobName: job.name,
  stateBefore: job.state,
  result: 'pending',
  message: null,
});
