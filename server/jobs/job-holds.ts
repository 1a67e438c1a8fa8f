import { SLOT_STATES } from '../../contract';
import type { Job } from './model';
import type { JobStore, Logger } from './ports';

/** What JobHolds checks ownership with. */
export interface JobHoldsParts {
  store: JobStore;
  /** This instance. */
  owner: string;
  /** Whether other instances may have taken this one's jobs over (Membership.ownershipInDoubt). */
  ownershipInDoubt: () => boolean;
  /** How long a launch may be with the engine before the job is settled anyway. */
  launchNoticedAfterMs: number;
  logger: Logger;
}

/** A launch with the engine: since when, and whether a settle of its job was skipped meanwhile. */
export interface Launch {
  since: number;
  settleSkipped?: boolean;
}

// A stop that has not ended the container this long after its grace period is asked again.
const STOP_RETRY_AFTER_GRACE_MS = 10_000;

/**
 * What the runner holds of the jobs it acts on in this process (launches with the engine and since
 * when, waits on workloads, stops asked), and the fencing of it: once the instance learns it lost
 * a job (a fenced move refused, the store naming another owner) it drops all of it at once.
 */
export class JobHolds {
  readonly launching = new Map<string, Launch>();
  /** Jobs whose end this process is waiting for (the fast path). */
  readonly followed = new Set<string>();
  readonly stopsIssued = new Map<string, number>();

  constructor(private readonly parts: JobHoldsParts) {}

  /**
   * Whether to ask the engine to stop the job's workload now (recording that it was asked): not
   * while an earlier stop may still be within its grace.
   */
  stopDue(job: Job, now: number): boolean {
    const issued = this.stopsIssued.get(job.id);
    if (
      issued !== undefined &&
      now < issued + job.stopGraceSeconds * 1000 + STOP_RETRY_AFTER_GRACE_MS
    ) {
      return false;
    }
    this.stopsIssued.set(job.id, now);
    return true;
  }

  /**
   * Whether the job's launch is with the engine, for less than the bound: every engine call has a
   * timeout, so a launch still there past it is stuck, and the job is settled from what the engine
   * reports instead (made but not started: launched again; not made: waits again), never left in
   * `starting`. A settle that finds its launch under way is skipped, and the launch notes it: its
   * own settle then reads the job afresh (a cancel may have come meanwhile).
   */
  launchUnderWay(jobId: string): boolean {
    const launch = this.launching.get(jobId);
    if (!launch) return false;
    const waited = Date.now() - launch.since;
    if (waited < this.parts.launchNoticedAfterMs) {
      launch.settleSkipped = true;
      return true;
    }
    this.launching.delete(jobId);
    this.parts.logger.warn(
      { jobId, waitedMs: waited },
      'a launch has been with the engine past its bound; settling the job from what the engine reports',
    );
    return false;
  }

  /** Whether this process is launching, following or stopping the job. */
  actsOn(jobId: string): boolean {
    return this.launching.has(jobId) || this.followed.has(jobId) || this.stopsIssued.has(jobId);
  }

  /**
   * This instance lost the job to another (taken for lost while it was alive, then taken over):
   * it stops acting on it at once and for good, and leaves its workload running for the new owner
   * to adopt. A wait on the workload may still be open; it ends in a settle that finds the job
   * not this instance's and does nothing.
   */
  leave(jobId: string, ownedBy: string | null): void {
    this.launching.delete(jobId);
    this.followed.delete(jobId);
    this.stopsIssued.delete(jobId);
    this.parts.logger.warn(
      { jobId, ownedBy },
      'this instance lost a job to another (taken over while it was late); leaving it, and its container, to that one',
    );
  }

  /**
   * Before a launch while this instance may have been taken for lost: whether the store still
   * says the job is this instance's, under the epoch it was claimed (or read) with; left if not.
   * A launch past this check is fenced by the engine (only the launch that made a container
   * starts it).
   */
  async stillHeld(job: Job): Promise<boolean> {
    if (!this.parts.ownershipInDoubt()) return true;
    const now = await this.parts.store.getJob(job.id);
    if (
      now?.owner === this.parts.owner &&
      now.ownerEpoch === job.ownerEpoch &&
      SLOT_STATES.includes(now.state)
    ) {
      return true;
    }
    this.leave(job.id, now?.owner ?? null);
    return false;
  }
}
