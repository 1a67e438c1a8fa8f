import type { Workload } from '../jobs/ports';

interface Waiter {
  /** The job and attempt: a later attempt's workload is not this one's. */
  key: string;
  status: Workload['status'];
  resolve: () => void;
  reject: (error: unknown) => void;
}

const keyOf = (workload: Workload) => `${workload.jobId}/${workload.attempt}`;

/**
 * A swarm manager sends no task events, nor does Slurm's controller, so changes are found by
 * looking: one loop lists every workload of the store each interval while anyone waits, and
 * wakes each waiter whose workload changed status or went away (a later attempt's workload in
 * its place is its going away). However many jobs run, that is one listing per interval.
 */
export class ChangePoller {
  private readonly waiters = new Set<Waiter>();
  private looping = false;

  constructor(
    private readonly list: () => Promise<Workload[]>,
    private readonly intervalMs: number,
  ) {}

  /** Resolves once the workload's status is no longer `workload.status`; rejects when a listing fails. */
  wait(workload: Workload): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiters.add({ key: keyOf(workload), status: workload.status, resolve, reject });
      if (!this.looping) void this.loop();
    });
  }

  private async loop(): Promise<void> {
    this.looping = true;
    while (this.waiters.size > 0) {
      // Unref'd: a wait left behind by a stopped service does not keep the process alive.
      await new Promise((resolve) => setTimeout(resolve, this.intervalMs).unref());
      const waiting = [...this.waiters];
      try {
        const now = new Map((await this.list()).map((w) => [keyOf(w), w.status]));
        for (const waiter of waiting) {
          if (now.get(waiter.key) === waiter.status) continue;
          this.waiters.delete(waiter);
          waiter.resolve();
        }
      } catch (error) {
        // As a dropped connection would: every wait fails, the reconciler settles the jobs.
        for (const waiter of waiting) {
          this.waiters.delete(waiter);
          waiter.reject(error);
        }
      }
    }
    this.looping = false;
  }
}
