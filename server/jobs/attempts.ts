import { UNSUCCESSFUL_STATES } from '../../contract';
import type { AttemptRecord, ContainerLogs, Job, StateChange, TransitionFields } from './model';
import { notes } from './notes';
import type { Outcome } from './outcome';
import type { Workload } from './ports';
import { decideRetry, endingInWords, endingOf, type Ending, type RetryDecision } from './retry';

/** The newest output an earlier attempt keeps: enough to see why it failed, bounded per job. */
export const EARLIER_ATTEMPT_OUTPUT_BYTES = 64 * 1024;

/** What ends an attempt: the job's next state, and the attempt's record (for jobs with retries). */
export type AttemptEnd = Pick<StateChange, 'to' | 'note' | 'fields' | 'endedAttempt'> & {
  /** Another attempt follows: the job waits as runnable, its output kept with the attempt. */
  retried: boolean;
};

/** What the attempt ran with: its container's output, and its memory limit (null: never ran). */
export interface AttemptRun {
  workload: Workload | null;
  output: ContainerLogs | undefined;
  memoryBytes: number | null;
}

/**
 * How an attempt's end moves the job: on to its final state, or back to runnable for another
 * attempt after its backoff (the decision is retry.ts's), with more memory after an
 * out-of-memory kill where the strategy says so. Jobs without a strategy move as they always
 * did, with nothing recorded beyond their transitions.
 */
export function attemptEnd(
  job: Job,
  outcome: Outcome,
  { workload, output, memoryBytes }: AttemptRun,
  now: number,
  random: number = Math.random(),
): AttemptEnd {
  const preempted = preemptedEnd(job, outcome, { workload, output, memoryBytes });
  if (preempted) return preempted;
  const final = { to: outcome.to, note: outcome.note, fields: outcome.fields, retried: false };
  if (job.retry === null) return final;
  const ending: Ending = endingOf(outcome, workload);
  const decision =
    job.state !== 'cancelling' && UNSUCCESSFUL_STATES.includes(outcome.to)
      ? decideRetry(job, ending, random, memoryBytes)
      : ({ retry: false } satisfies RetryDecision);
  const record: AttemptRecord = {
    attempt: job.attempt,
    state: outcome.to,
    exitCode: outcome.fields.exitCode,
    reason: UNSUCCESSFUL_STATES.includes(outcome.to) ? ending.reason : outcome.to,
    note: outcome.note,
    node: workload?.node ?? job.node,
    startedAt: workload?.startedAt ?? job.startedAt,
    finishedAt: outcome.fields.finishedAt,
    retried: decision.retry,
    memoryBytes,
  };
  if (!decision.retry) {
    if (!decision.because) return { ...final, endedAttempt: record };
    const note = `${outcome.note ?? ''}; ${decision.because}`;
    return { ...final, note, endedAttempt: { ...record, note } };
  }
  const next = job.attempt + 1;
  const notBefore = now + decision.delayMs;
  const raised = decision.memoryBytes;
  return {
    to: 'runnable',
    note: notes.retryingAt(
      next,
      job.retry.attempts + job.preemptions,
      notBefore,
      endingInWords(ending),
      raised,
    ),
    fields: {
      ...NEXT_ATTEMPT_CLEARS,
      attempt: next,
      notBefore,
      ...(raised !== undefined && memoryFields(job, raised)),
    },
    endedAttempt: { ...record, ...(output && { output: newestOf(output) }) },
    retried: true,
  };
}

/**
 * The end of an attempt stopped by a preemption (preemption.ts): another attempt follows at once,
 * counted against none of its retries, its exit no failure. A job that completed keeps its
 * outcome, as does one whose container ended before the preemption was asked.
 */
function preemptedEnd(job: Job, outcome: Outcome, run: AttemptRun): AttemptEnd | undefined {
  const { preemption } = job;
  if (job.state !== 'running' || !preemption || outcome.to === 'completed') return undefined;
  if (outcome.fields.finishedAt < preemption.at) return undefined;
  const note = notes.preempted(preemption.reason);
  return {
    to: 'runnable',
    note,
    fields: {
      ...NEXT_ATTEMPT_CLEARS,
      attempt: job.attempt + 1,
      preemptions: job.preemptions + 1,
      preemption: null,
      notBefore: null,
    },
    endedAttempt: {
      attempt: job.attempt,
      state: 'cancelled',
      exitCode: outcome.fields.exitCode,
      reason: PREEMPTED,
      note,
      node: run.workload?.node ?? job.node,
      startedAt: run.workload?.startedAt ?? job.startedAt,
      finishedAt: outcome.fields.finishedAt,
      retried: true,
      memoryBytes: run.memoryBytes,
      ...(run.output && { output: newestOf(run.output) }),
    },
    retried: true,
  };
}

/** An attempt's end reason when a lender took back its quota (beside retry.ts's reasons). */
export const PREEMPTED = 'preempted';

/** What a job waiting for its next attempt no longer has of the last one. */
const NEXT_ATTEMPT_CLEARS = {
  containerId: null,
  exitCode: null,
  startedAt: null,
  finishedAt: null,
  node: null,
} as const;

/**
 * The next attempt's memory limit, and its request where it asked for less: placement counts
 * the request, and a host must have room for the memory the attempt may now use.
 */
function memoryFields(job: Job, memoryBytes: number): TransitionFields {
  const { resources } = job;
  return {
    memoryBytes,
    ...(resources &&
      resources.memoryBytes < memoryBytes && { resources: { ...resources, memoryBytes } }),
  };
}

/** The newest EARLIER_ATTEMPT_OUTPUT_BYTES of an attempt's output, whole lines. */
function newestOf(output: ContainerLogs): ContainerLogs {
  let bytes = 0;
  let from = output.lines.length;
  while (from > 0) {
    const size = Buffer.byteLength(output.lines[from - 1]!.text);
    if (bytes + size > EARLIER_ATTEMPT_OUTPUT_BYTES && from < output.lines.length) break;
    bytes += size;
    from -= 1;
  }
  return { lines: output.lines.slice(from), truncated: output.truncated || from > 0 };
}
