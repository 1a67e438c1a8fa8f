import type { Job } from './model';
import { notes } from './notes';
import type { JobStore, Logger, Workload } from './ports';

/**
 * How long a workload waits for placement before its job's note says so. Most are placed sooner
 * (on the simulated cluster within 50–200 ms), and their move to running writes its own note:
 * a note written at once would be overwritten a moment later, at a transaction a job.
 */
export const PLACEMENT_NOTE_AFTER_MS = 500;

/**
 * The notes of the jobs in `starting` whose workloads the engine is still placing: each written
 * once its workload has waited PLACEMENT_NOTE_AFTER_MS, the latest message then, unless the job
 * left the wait before.
 */
export class PlacementNotes {
  /** The note each waiting job is to get, by job id; its timer is under way. */
  private readonly due = new Map<string, { job: Job; note: string; timer: NodeJS.Timeout }>();

  /** `owner`: this instance, whose jobs' notes these are (as long as it owns them). */
  constructor(
    private readonly store: JobStore,
    private readonly owner: string,
    private readonly logger: Logger,
  ) {}

  /** Called with every decision on a job: a note falls due while its workload is placed. */
  decided(job: Job, workload: Workload | null): void {
    if (job.state !== 'starting' || workload?.status !== 'pending') this.placed(job.id);
    else this.waiting(job, notes.waitingForPlacement(workload.message ?? 'placing the job'));
  }

  /** The job's workload waits for placement, for `note`'s reason. */
  private waiting(job: Job, note: string): void {
    const due = this.due.get(job.id);
    if (due) {
      Object.assign(due, { job, note });
      return;
    }
    if (note === job.systemNote) return;
    const timer = setTimeout(() => void this.write(job.id), PLACEMENT_NOTE_AFTER_MS);
    timer.unref();
    this.due.set(job.id, { job, note, timer });
  }

  /** The job no longer waits for placement (placed, ended, cancelled, left): no note is due. */
  placed(jobId: string): void {
    clearTimeout(this.due.get(jobId)?.timer);
    this.due.delete(jobId);
  }

  stop(): void {
    for (const jobId of [...this.due.keys()]) this.placed(jobId);
  }

  private async write(jobId: string): Promise<void> {
    const due = this.due.get(jobId);
    this.due.delete(jobId);
    if (!due) return;
    const { job, note } = due;
    // Conditional on the state: a job that moved on meanwhile keeps the note of its move; and
    // on the ownership, as every move of the runner's: a job taken over meanwhile is the new
    // owner's to note.
    const fence = { owner: this.owner, epoch: job.ownerEpoch };
    await this.store
      .setNote({ id: job.id, state: job.state, note, fence })
      .catch((error: unknown) => {
        this.logger.warn({ jobId, err: error }, 'could not note why a job waits for placement');
      });
  }
}
