import { SLOT_STATES } from '../../contract';
import { notes } from './notes';
import type { ContainerRuntime, JobStore, Logger } from './ports';
import type { Runner } from './runner';
import type { JobStateMachine } from './state-machine';

/**
 * Reconciles the store with the engine at start-up, before anything is dispatched:
 * adopts containers still running, records those that ended while the service was down,
 * requeues jobs that never got a container, and marks vanished ones `error`.
 * Nothing runs twice: a job with a container is never started again.
 */
export async function recoverJobs(
  store: JobStore,
  runtime: ContainerRuntime,
  machine: JobStateMachine,
  runner: Runner,
  logger: Logger,
): Promise<{ adopted: number; requeued: number; lost: number; orphansRemoved: number }> {
  const containers = new Map((await runtime.listManaged()).map((c) => [c.jobId, c]));
  const summary = { adopted: 0, requeued: 0, lost: 0, orphansRemoved: 0 };

  for (const job of await store.jobsInStates(SLOT_STATES)) {
    const container = containers.get(job.id);
    containers.delete(job.id);
    if (job.state === 'starting' && (!container || container.state === 'created')) {
      if (container) await runtime.remove(container.containerId);
      await machine.move(job, 'runnable', notes.requeuedAfterRestart);
      summary.requeued += 1;
    } else if (!container) {
      await machine.move(job, 'error', notes.vanishedWhileDown);
      summary.lost += 1;
    } else {
      // A job caught in `starting` whose container did start is running as far as anyone can tell.
      const followed =
        job.state === 'starting'
          ? await machine.move(job, 'running', null, {
              startedAt: Date.now(),
              containerId: container.containerId,
            })
          : job;
      if (followed) runner.adopt(followed, container.containerId);
      summary.adopted += 1;
    }
  }

  // Containers of this store whose jobs are already final: left behind by a crash mid-cleanup.
  for (const orphan of containers.values()) {
    await runtime.remove(orphan.containerId).catch(() => undefined);
    summary.orphansRemoved += 1;
  }
  logger.info(summary, 'recovered jobs from the previous run');
  return summary;
}
