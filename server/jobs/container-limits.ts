import type { Job } from './model';

/** Limits every job container gets unless its definition sets its own. */
export interface ContainerDefaults {
  cpus: number;
  memoryBytes: number;
  pidsLimit: number;
}

/** What a job's container runs with: its own limits, or the service's defaults. */
export function limitsOf(
  job: Pick<Job, 'cpus' | 'memoryBytes'>,
  defaults: ContainerDefaults,
): { cpus: number; memoryBytes: number } {
  return { cpus: job.cpus ?? defaults.cpus, memoryBytes: job.memoryBytes ?? defaults.memoryBytes };
}
