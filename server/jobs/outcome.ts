import type { Job, StateChange } from './model';
import { notes } from './notes';
import type { Workload } from './ports';

export type Outcome = Pick<StateChange, 'to' | 'note'> & {
  fields: { exitCode: number | null; finishedAt: number };
};

/** When a running job must be stopped: its timeout counted from when it started. */
export function deadlineOf(job: Pick<Job, 'startedAt' | 'timeoutSeconds'>, now: number): number {
  return (job.startedAt ?? now) + job.timeoutSeconds * 1000;
}

/**
 * How a job ended, decided from what the engine reports, never from what this process happens
 * to remember: the same answer after any restart, from any instance.
 *
 * @param engineWasDown whether the engine was seen unreachable when the workload ended
 */
export function outcomeOf(
  job: Job,
  workload: Workload,
  engineWasDown: boolean,
  now: number,
): Outcome {
  const { exitCode } = workload;
  const fields = { exitCode, finishedAt: workload.finishedAt ?? now };
  if (job.state === 'cancelling') {
    const note =
      exitCode === null ? notes.cancelledContainerGone : notes.cancelledWhileRunning(exitCode);
    return { to: 'cancelled', note, fields };
  }
  // Ended by the engine (node drained or lost) or never run: the exit code says nothing of the job.
  if (exitCode === null || workload.message !== null) {
    return { to: 'error', note: workload.message ?? notes.endedWithoutExitCode, fields };
  }
  // Engine clock on both sides when it has them; a stop at the deadline lands just after it.
  const started = workload.startedAt ?? job.startedAt ?? fields.finishedAt;
  if (fields.finishedAt >= started + job.timeoutSeconds * 1000) {
    return { to: 'timeout', note: notes.timedOut(job.timeoutSeconds, exitCode), fields };
  }
  if (exitCode !== 0 && engineWasDown) {
    return { to: 'error', note: notes.engineStopped(exitCode), fields };
  }
  return exitCode === 0
    ? { to: 'completed', note: null, fields }
    : { to: 'failed', note: notes.failed(exitCode), fields };
}
