import { attemptEnd } from './attempts';
import { limitsOf } from './container-limits';
import { JobSecrets } from './job-secrets';
import type { Job } from './model';
import { outcomeOf } from './outcome';
import { EngineUnavailableError, type Workload } from './ports';
import type { RunnerParts } from './runner';

/** What moveToEnd works with: the runner's. */
export type JobEndParts = Pick<
  RunnerParts,
  'machine' | 'store' | 'secrets' | 'health' | 'logs' | 'usage' | 'options'
>;

/**
 * The job with a preemption asked since the runner's copy of it was read (preemption.ts), which
 * decides an end other than a completion (attempts.ts); a completion, most ends, needs no read.
 * One asked after this read came after the container had ended: its own outcome stands.
 */
async function withPreemption(parts: JobEndParts, job: Job): Promise<Job> {
  if (job.state !== 'running' || job.preemption) return job;
  const fresh = await parts.store.getJob(job.id);
  const same = fresh?.state === job.state && fresh.attempt === job.attempt;
  return same ? { ...job, preemption: fresh.preemption } : job;
}

/**
 * Moves the job to how its workload ended, its output (or this attempt's record, when another
 * follows) in the move's own transaction. The workload is the caller's to remove, only once this
 * returns the moved job: a crash in between leaves a workload to remove, never an outcome (or its
 * output) lost. Undefined when the job moved under us (decide again).
 */
export async function moveToEnd(
  parts: JobEndParts,
  job: Job,
  workload: Workload,
): Promise<Job | undefined> {
  const { machine, health, logs, usage, options } = parts;
  const secrets = new JobSecrets(job, parts.secrets);
  const answering = () => health.markUp();
  const output = await logs.readKept(job, workload, answering).catch((error: unknown) => {
    if (error instanceof EngineUnavailableError) throw error;
    return undefined; // no output to keep (gone already): the outcome matters more
  });
  const limits = limitsOf(job, options.defaults);
  const memory = await usage.finish(job.id, job.attempt, workload, limits);
  const now = Date.now();
  const engineWasDown = health.wasDownAt(workload.finishedAt ?? now);
  const outcome = outcomeOf(job, workload, engineWasDown, now, memory);
  const end = attemptEnd(
    outcome.to === 'completed' ? job : await withPreemption(parts, job),
    { ...outcome, note: outcome.note && secrets.scrub(outcome.note) },
    { workload, output, memoryBytes: limits.memoryBytes },
    now,
  );
  return machine.move(job, end.to, end.note, end.fields, {
    endedAttempt: end.endedAttempt,
    keptOutput: output && !end.retried ? logs.kept(job, output) : undefined,
    owned: true,
  });
}
