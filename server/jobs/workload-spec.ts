import { requestOf } from './capacity';
import { limitsOf, type ContainerDefaults } from './container-limits';
import type { JobSecrets } from './job-secrets';
import type { Job } from './model';
import type { WorkloadSpec } from './ports';

/** What the engine is asked to run for the job's current attempt. */
export function workloadSpecOf(
  job: Job,
  secrets: JobSecrets,
  defaults: ContainerDefaults,
): WorkloadSpec {
  return {
    jobId: job.id,
    attempt: job.attempt,
    image: job.image,
    command: job.command,
    // Like AWS Batch's AWS_BATCH_JOB_ATTEMPT: a job that retries, or was preempted, may want to
    // know which try it is.
    env:
      job.retry || job.preemptions > 0
        ? [...secrets.engineEnv(), `JOBDECK_ATTEMPT=${job.attempt}`]
        : secrets.engineEnv(),
    ...limitsOf(job, defaults),
    pidsLimit: defaults.pidsLimit,
    stopGraceSeconds: job.stopGraceSeconds,
    timeoutSeconds: job.timeoutSeconds,
    network: job.network,
    runOptions: job.runOptions,
    host: job.host,
    resources: requestOf(job, defaults),
    queue: job.queue,
  };
}
