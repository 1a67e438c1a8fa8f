import { randomUUID } from 'node:crypto';
import {
  DEFAULT_RUN_OPTIONS,
  type ContainerLogs,
  type NewJob,
  type OutputBudget,
} from '../../server/jobs/model';
import type { JobStore } from '../../server/jobs/ports';

// Past 2^31 in milliseconds (and in bytes below): a 32-bit column would overflow.
export const T0 = Date.parse('2026-11-21T10:00:00.000Z');

/** A job as the submission rules would plan it; `overrides` pick what a test is about. */
export function newJob(overrides: Partial<NewJob> = {}): NewJob {
  const id = randomUUID();
  return {
    id,
    project: 'p',
    queue: 'p::default',
    definition: 'p::echo:1',
    name: `echo-${id.slice(-12)}`,
    scheduleAt: null,
    createdAt: T0,
    image: 'jobdeck/busybox:local',
    retry: null,
    command: ['echo', 'hello world'],
    env: [
      { name: 'PLAIN', value: 'v' },
      { name: 'TOKEN', sealed: 'v1.sealed-bytes' },
    ],
    timeoutSeconds: 3600,
    stopGraceSeconds: 10,
    cpus: 0.5,
    memoryBytes: 4 * 1024 ** 3,
    resources: { cpus: 0.5, memoryBytes: 4 * 1024 ** 3, gpus: 0 },
    network: 'none',
    runOptions: DEFAULT_RUN_OPTIONS,
    dependsOn: [],
    array: null,
    labels: {},
    submittedBy: 'key:key_test',
    ...overrides,
  };
}

/** Inserts a job and makes it runnable, as the dispatcher would before claiming it. */
export async function insertRunnable(
  jobs: JobStore,
  overrides: Partial<NewJob> = {},
): Promise<NewJob> {
  const job = newJob(overrides);
  await jobs.insertJob(job, 'fingerprint');
  await jobs.moveJob({ id: job.id, from: 'submitted', to: 'runnable', at: T0 + 1, note: null });
  return job;
}

/**
 * Keeps a job's output as the runner does, with its final move (to completed, from wherever it
 * is); the move's time is the budget's `savedAt`.
 */
export async function keepOutput(
  jobs: JobStore,
  id: string,
  logs: ContainerLogs,
  budget: OutputBudget,
): Promise<void> {
  const job = await jobs.getJob(id);
  const change = { id, from: job!.state, to: 'completed' as const, at: budget.savedAt, note: null };
  const moved = await jobs.moveJob({ ...change, keptOutput: { logs, budget } });
  if (!moved) throw new Error(`job ${id} moved meanwhile`);
}
