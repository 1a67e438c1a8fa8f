import type Docker from 'dockerode';
import type { WorkloadSpec } from '../../jobs/ports';
import {
  JOB_CAPABILITIES,
  SCRATCH_BYTES,
  SCRATCH_DIR,
  type EngineLogDriver,
} from '../job-container';

/** What of a job decides how its container is confined. */
export type Confinement = Pick<WorkloadSpec, 'network' | 'cpus' | 'memoryBytes' | 'pidsLimit'> & {
  runOptions: Pick<WorkloadSpec['runOptions'], 'readOnlyRootfs'>;
};

/**
 * A job container's limits and hardening on a Docker Engine: its network, CPU, memory and
 * process limits, Jobdeck's capabilities, no new privileges, the capped log (the bench's direct
 * runs use it too, so that they compare the same container).
 */
export function hostConfigOf(
  job: Confinement,
  init: boolean,
  logDriver: EngineLogDriver,
): Docker.HostConfig {
  const readOnly = job.runOptions.readOnlyRootfs;
  return {
    Init: init,
    NetworkMode: job.network,
    NanoCpus: Math.round(job.cpus * 1e9),
    Memory: job.memoryBytes,
    PidsLimit: job.pidsLimit,
    CapDrop: ['ALL'],
    CapAdd: JOB_CAPABILITIES,
    SecurityOpt: ['no-new-privileges'],
    ReadonlyRootfs: readOnly,
    ...(readOnly && {
      Tmpfs: { [SCRATCH_DIR]: `rw,noexec,nosuid,size=${SCRATCH_BYTES},mode=1777` },
    }),
    LogConfig: logDriver,
  };
}
