/**
 * What every engine adapter puts on a job's container alike: its name and labels, the
 * capabilities it keeps, how much output the engine holds for it.
 */

export const JOB_LABEL = 'jobdeck.job';
export const STORE_LABEL = 'jobdeck.store';
export const ATTEMPT_LABEL = 'jobdeck.attempt';

/** The attempt a workload runs, from its labels: workloads made before attempts existed ran the first. */
export const attemptOf = (labels: Record<string, string> | undefined) =>
  Number(labels?.[ATTEMPT_LABEL] ?? 1) || 1;

/** One name per job, so a lost answer or a restart finds the job's workload instead of making another. */
export const workloadName = (jobId: string) => `jobdeck-${jobId}`;

/** Extra labels first: Jobdeck's own win. */
export function jobLabels(
  extra: Record<string, string>,
  spec: { jobId: string; attempt: number },
  storeId: string,
): Record<string, string> {
  return {
    ...extra,
    [JOB_LABEL]: spec.jobId,
    [STORE_LABEL]: storeId,
    [ATTEMPT_LABEL]: String(spec.attempt),
  };
}

/**
 * What a job may still do as root inside its container: Docker's default set without MKNOD,
 * NET_RAW, SETPCAP, SETFCAP, SYS_CHROOT and AUDIT_WRITE, which batch jobs have no use for.
 */
export const JOB_CAPABILITIES = [
  'CHOWN',
  'DAC_OVERRIDE',
  'FOWNER',
  'FSETID',
  'KILL',
  'SETGID',
  'SETUID',
  'NET_BIND_SERVICE',
];

/** The log driver and its options, as both the Engine API and `docker run` name them. */
export interface EngineLogDriver {
  Type: 'json-file';
  Config: { 'max-size': string; 'max-file': string };
}

/**
 * Output the engine keeps per container, enough for Jobdeck to keep `keptBytesPerJob` of it once
 * the job ended: json-file rotates through two files, so the newest file's size is what is
 * surely there. A line costs about 70 bytes more in json-file than as printed (its stream, its
 * time, the JSON), so 4 × holds whole output of lines of 24 bytes or more; 8 MB at least.
 */
export function engineLogDriver(keptBytesPerJob: number): EngineLogDriver {
  const megabytes = Math.max(8, Math.ceil((4 * keptBytesPerJob) / 1024 ** 2));
  return { Type: 'json-file', Config: { 'max-size': `${megabytes}m`, 'max-file': '2' } };
}

/** A read-only job still gets a small writable scratch space, as most programs expect. */
export const SCRATCH_DIR = '/tmp';
export const SCRATCH_BYTES = 64 * 1024 ** 2;
