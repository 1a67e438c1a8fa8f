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
 * When the job was asked to stop, its grace running from then: a cancel, a preemption
 * (preemption.ts), or its deadline passed; undefined: it runs on.
 */
export function stopAskedAt(job: Job, now: number): number | undefined {
  if (job.state === 'cancelling') return job.cancelRequestedAt ?? now;
  const deadline = deadlineOf(job, now);
  if (job.state === 'running' && job.preemption) return Math.min(job.preemption.at, deadline);
  return now >= deadline ? deadline : undefined;
}

/** What a failed job's note may say of its memory. */
export interface MemoryAtEnd {
  limitBytes: number;
  /** The most it was seen to use; null when it was not sampled. */
  peakBytes: number | null;
  /** Whether the engine reports every out-of-memory kill: then a SIGKILL without one was not. */
  engineReportsOom: boolean;
}

/**
 * How a job ended, decided from what the engine reports, never from what this process happens
 * to remember: the same answer after any restart, from any instance.
 *
 * @param engineWasDown whether the engine was seen unreachable when the workload ended: an exit
 *   then is the engine's only when what the engine reports could be its kill (see below)
 * @param memory for the note of a job killed (out of memory, or not)
 */
export function outcomeOf(
  job: Job,
  workload: Workload,
  engineWasDown: boolean,
  now: number,
  memory?: MemoryAtEnd,
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
  if (engineWasDown && mayBeTheEngines(workload, exitCode)) {
    return { to: 'error', note: notes.engineStopped(exitCode), fields };
  }
  return exitCode === 0
    ? { to: 'completed', note: null, fields }
    : { to: 'failed', note: failedNote(workload, exitCode, memory), fields };
}

const SIGKILL_EXIT = 128 + 9;

/** Out of memory in words, told apart from a SIGKILL for another reason where the engine can. */
function failedNote(workload: Workload, exitCode: number, memory?: MemoryAtEnd): string {
  if (workload.cause === 'oom_killed' && memory) {
    return notes.outOfMemory(memory.limitBytes, memory.peakBytes);
  }
  if (exitCode === SIGKILL_EXIT && workload.cause === undefined && memory?.engineReportsOom) {
    return notes.killedNotOutOfMemory(exitCode);
  }
  return notes.failed(exitCode);
}

// Signal numbers go up to 64 (SIGRTMAX) on Linux: a process ended by signal n exits 128 + n.
const HIGHEST_SIGNAL = 64;

/**
 * Whether an exit may be the engine's own doing rather than the job's. An engine that stops, or
 * restarts without live-restore, ends its containers with a signal (their stop signal, then
 * SIGKILL), so their exit code reads 128 + the signal's number. Any other code is one the
 * container's process chose itself, and an out-of-memory kill is the job's, as the engine says:
 * those stand whatever the engine's health was then, as a slow or briefly unreachable engine
 * loses no exit code.
 */
function mayBeTheEngines(workload: Workload, exitCode: number): boolean {
  return workload.cause !== 'oom_killed' && exitCode > 128 && exitCode <= 128 + HIGHEST_SIGNAL;
}
