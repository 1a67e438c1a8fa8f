import { cancelEffect, isFinalState } from '../../contract';
import { conflict } from './errors';
import { isArrayParent, type Job } from './model';
import { notes } from './notes';
import type { Move } from './state-machine';

/**
 * What Cancel Job does to a job as it is now (docs/api.md, "What Cancel Job does"): waiting jobs
 * are cancelled at once, starting and running ones go through `cancelling` while the container is
 * stopped, a retried cancel changes nothing (undefined), a finished job is a conflict. An array's
 * parent goes to `cancelling` until its children have ended (arrays.ts cancels them).
 */
export function cancelMove(job: Job, now: number, by: string | null): Move | undefined {
  const requested = { cancelRequestedAt: now, cancelRequestedBy: by };
  if (isArrayParent(job)) {
    if (job.state === 'cancelling') return undefined;
    if (isFinalState(job.state)) throw refused(job);
    return { to: 'cancelling', note: notes.arrayCancelling, fields: requested };
  }
  switch (cancelEffect(job.state)) {
    case 'already-cancelling':
      return undefined;
    case 'cancel-now':
      return {
        to: 'cancelled',
        note: notes.cancelledBeforeStart,
        fields: { ...requested, finishedAt: now },
      };
    case 'stop-container':
      return {
        to: 'cancelling',
        note: notes.cancelling(job.stopGraceSeconds),
        fields: requested,
      };
    case 'refused':
      throw refused(job);
  }
}

const refused = (job: Job) =>
  conflict(`job_id: job ${job.id} is ${job.state}; a ${job.state} job cannot be cancelled`);
