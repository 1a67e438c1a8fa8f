/**
 * What every engine adapter puts on a job's container alike: its name and labels, the
 * capabilities it keeps, how much output the engine holds for it.
 */

export const JOB_LABEL = 'jobdeck.job';
export const STORE_LABEL = 'jobdeck.store';

/** One name per job, so a lost answer or a restart finds the job's workload instead of making another. */
export const workloadName = (jobId: string) => `jobdeck-${jobId}`;

/** Extra labels first: Jobdeck's own win. */
export function jobLabels(
  extra: Record<string, string>,
  jobId: string,
  storeId: string,
): Record<string, string> {
  return { ...extra, [JOB_LABEL]: jobId, [STORE_LABEL]: storeId };
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

/** Output the engine keeps per container: json-file rotates at 8 MB, two files at most. */
export const ENGINE_LOG_DRIVER = {
  Type: 'json-file',
  Config: { 'max-size': '8m', 'max-file': '2' },
};

/** A read-only job still gets a small writable scratch space, as most programs expect. */
export const SCRATCH_DIR = '/tmp';
export const SCRATCH_BYTES = 64 * 1024 ** 2;
