import { cancelEffect, isFinalState, type JobState } from '../../contract';

/** What a bulk cancel needs of each job: a row of the jobs table, or an array's child. */
export interface CancelTarget {
  id: string;
  name: string;
  state: JobState;
}

/** What a cancel would do to each selected job, by the contract's table (docs/api.md). */
export interface BulkCancelPlan {
  /** Waiting jobs: cancelled at once. */
  immediate: CancelTarget[];
  /** Starting or running jobs: cancelling until the container stops. */
  stopping: CancelTarget[];
  /** Already cancelling: the request would change nothing. */
  alreadyCancelling: CancelTarget[];
  /** Ended (cancelled included): nothing to cancel. */
  final: CancelTarget[];
}

/** How each group of a plan is headed, for a selection or a whole filter alike. */
export const PLAN_TITLES: Record<keyof BulkCancelPlan, string> = {
  immediate: 'Cancelled at once',
  stopping:
    "Stopped: cancelling until the container exits (SIGKILL after its definition's grace period)",
  alreadyCancelling: 'Already cancelling: nothing to do',
  final: 'Already ended: skipped',
};

export function planBulkCancel(jobs: readonly CancelTarget[]): BulkCancelPlan {
  const plan: BulkCancelPlan = { immediate: [], stopping: [], alreadyCancelling: [], final: [] };
  for (const job of jobs) {
    if (isFinalState(job.state)) plan.final.push(job);
    else if (cancelEffect(job.state) === 'cancel-now') plan.immediate.push(job);
    else if (cancelEffect(job.state) === 'stop-container') plan.stopping.push(job);
    else plan.alreadyCancelling.push(job);
  }
  return plan;
}

/** The jobs a bulk cancel sends Cancel Job for. */
export const jobsToCancel = (plan: BulkCancelPlan) => [...plan.immediate, ...plan.stopping];
