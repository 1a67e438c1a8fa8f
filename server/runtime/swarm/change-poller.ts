import type { Workload } from '../../jobs/ports';

interface Waiter {
  jobId: string;
  status: Workload['status'];
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * A swarm manager sends no task events, so changes are found by looking: one loop lists every
 * workload of the store each interval while anyone waits, and wakes each waiter whose workload
 * changed status or went away. However many jobs run, that is one listing per interval.
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
      this.waiters.add({ jobId: workload.jobId, status: workload.status, resolve, reject });
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
        const now = new Map((await this.list()).map((w) => [w.jobId, w.status]));
        for (const waiter of waiting) {
          if (now.get(waiter.jobId) === waiter.status) continue;
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
