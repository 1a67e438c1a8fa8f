import { cancelEffect } from '../../contract';
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
  const effect = cancelEffect(job.state);
  // Idempotent for every kind of job, an array's parent as any other.
  if (effect === 'already-cancelling') return undefined;
  if (effect === 'refused') throw refused(job);
  if (isArrayParent(job)) {
    return { to: 'cancelling', note: notes.arrayCancelling, fields: requested };
  }
  return effect === 'cancel-now'
    ? {
        to: 'cancelled',
        note: notes.cancelledBeforeStart,
        fields: { ...requested, finishedAt: now },
      }
    : { to: 'cancelling', note: notes.cancelling(job.stopGraceSeconds), fields: requested };
}

const refused = (job: Job) =>
  conflict(`job_id: job ${job.id} is ${job.state}; a ${job.state} job cannot be cancelled`);
