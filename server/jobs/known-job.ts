import type { Job } from './model';
import type { Workload } from './ports';

/**
 * A copy of the job a settle may make its first decision from instead of reading the store: a
 * reconcile pass's listing (`listed`) for any decision; the job as this process claimed or last
 * moved it only when the workload's news is a move of it (knownMoves), and only while this
 * process still holds the job (once left, a fresh read decides).
 */
export interface KnownJob {
  job: Job;
  listed: boolean;
  /**
   * No settle of the job was skipped since this copy was taken (the launch's, or a follow's since
   * its settle): a cancel since has had a settle of its own, so a workload still being placed is
   * followed from this copy, not a read.
   */
  settledSince?: boolean;
}

/** Whether a settle's first decision may be made from `known` instead of a read of the job. */
export function knownServes(known: KnownJob, workload: Workload | null): boolean {
  if (known.listed || knownMoves(known.job, workload)) return true;
  return (
    known.settledSince === true && known.job.state === 'starting' && workload?.status === 'pending'
  );
}

/**
 * Whether the decision on `known` and its workload is a move (started, or ended): such a move is
 * conditional on the state it is made from and fenced by owner and epoch, so a stale copy of the
 * job costs one refused move and then a read, never a wrong write. Any other decision (follow,
 * stop, note) is made from a fresh read: a copy from before a cancel would miss the cancel.
 */
export function knownMoves(known: Job, workload: Workload | null): boolean {
  if (workload?.status === 'exited') return true;
  return known.state === 'starting' && workload?.status === 'running';
}
