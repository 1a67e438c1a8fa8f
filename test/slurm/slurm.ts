import { readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { ContainerStarts } from '../support/engine-events';
import { CONTAINER_JOBS, type EngineCasesRow } from '../support/engine-cases';
import { startService, testProjects, type TestService } from '../support/service';
import { SLURM_CONF, SLURM_WORK_DIR, cancelUntilEnded, slurm } from '../support/slurm';

export const NODE = slurm('sinfo', '--noheader', '--format=%N');

/** The test projects, plus a definition that needs most of the node. */
export function slurmProjects() {
  const projects = testProjects();
  return {
    ...projects,
    t: {
      ...projects.t,
      // express: the test cluster's second partition (scripts/slurm-up.sh).
      queues: {
        ...projects.t.queues,
        wide: { max_running: 12 },
        express: { partition: 'express' },
      },
      definitions: {
        ...projects.t.definitions,
        // More than half the node's 8 GiB (scripts/slurm-up.sh): a second one waits for the first.
        whole: {
          '1': { image: 'jobdeck/busybox:local', command: ['sleep', '60'], cpus: 1, memory: '5g' },
        },
      },
    },
  };
}

/** Jobdeck on the test cluster: reconciles every second so that faults settle quickly. */
export function startSlurmService(settings: Record<string, unknown> = {}): Promise<TestService> {
  return startService({
    engine: { type: 'slurm', conf: SLURM_CONF, work_dir: SLURM_WORK_DIR },
    reconcile_interval_seconds: 1,
    projects: slurmProjects(),
    ...settings,
  });
}

/**
 * Jobdeck on the cluster for the tests of one file, started before them and stopped after, with
 * every container start on the node counted from before it starts.
 */
export function slurmServiceForFile(settings: Record<string, unknown> = {}) {
  const context = { service: undefined as unknown as TestService, starts: new ContainerStarts() };
  beforeAll(async () => {
    await context.starts.started();
    context.service = await startSlurmService(settings);
  });
  afterAll(async () => {
    await context.service?.stop();
    context.starts.stop();
  });
  return context;
}

/** The Slurm jobs (`id state`) Jobdeck submitted for a job, in every state Slurm still holds. */
export function slurmJobsOf(jobId: string): string[] {
  return slurm('squeue', '--noheader', '--states=all', '--format=%i %T %j')
    .split('\n')
    .filter((line) => line.includes(`.${jobId}.`))
    .map((line) => line.split(' ').slice(0, 2).join(' '));
}

/** The pid of a running Slurm job's batch script (its batch step's first task) on the node. */
export function batchScriptPid(slurmJob: string): number {
  const task = slurm('scontrol', 'listpids', slurmJob)
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .find(([, , step, localId]) => step === 'batch' && localId === '0');
  if (!task) throw new Error(`Slurm job ${slurmJob} runs no batch script`);
  return Number(task[0]);
}

/** The job's attempt directories in the work directory (any store's): '' once it is removed. */
export function leftInWorkDir(jobId: string): string {
  return readdirSync(SLURM_WORK_DIR)
    .flatMap((store) => readdirSync(join(SLURM_WORK_DIR, store)).map((name) => join(store, name)))
    .filter((path) => path.includes(jobId))
    .join(' ');
}

/** Every file under `dir`, recursively (what a node holds of the jobs and the cluster). */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path, { throwIfNoEntry: false })?.isFile());
}

/** Whether any file under the directories holds `text`. */
export function filesHolding(dirs: readonly string[], text: string): string[] {
  return dirs.flatMap(filesUnder).filter((path) => {
    try {
      return readFileSync(path).includes(text);
    } catch {
      return false; // gone meanwhile
    }
  });
}

/** Resolves once the job's Slurm job has ended by itself. */
async function slurmJobEnded(jobId: string): Promise<void> {
  for (let i = 0; i < 60; i += 1) {
    if (slurmJobsOf(jobId).some((job) => /\s(FAILED|COMPLETED)$/.test(job))) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** The cluster's row of the service's shared cases (test/support/engine-cases.ts). */
export const SLURM: EngineCasesRow = {
  name: 'the test Slurm cluster (1 node)',
  serviceForCases: () => slurmServiceForFile(),
  job: (behaviour) => CONTAINER_JOBS[behaviour],
  nodes: [NODE],
  leftOf: leftInWorkDir,
  missingImageNote: new RegExp(
    `^Docker could not run it on node ${NODE}: .*No such image: jobdeck/no-such-image:missing`,
  ),
  appliesLimits: true,
  recovery: {
    async removeWorkload(jobId) {
      await cancelUntilEnded(slurmJobsOf(jobId).map((job) => job.split(' ')[0]!));
      for (const path of leftInWorkDir(jobId).split(' ').filter(Boolean)) {
        rmSync(join(SLURM_WORK_DIR, path), { recursive: true, force: true });
      }
    },
    exited: slurmJobEnded,
  },
};
