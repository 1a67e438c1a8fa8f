import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { startService } from '../../test/support/service';
import {
  SLURM_CONF,
  SLURM_WORK_DIR,
  ensureSlurm,
  slurm,
  slurmDown,
  underWay,
} from '../../test/support/slurm';
import { BENCH_IMAGE, BENCH_SETTINGS } from '../jobdeck-client';
import { round, summary } from '../stats';
import { RUN_FLAGS } from './direct-docker';
import { jobsPerMinute, runTrue } from './overhead';

const run = promisify(execFile);

/** The job Jobdeck's runs, as one batch job of Slurm's: its resources and its `docker run`. */
const SBATCH_JOB = [
  '--parsable',
  '--export=NONE',
  '--output=/dev/null',
  '--nodes=1',
  '--ntasks=1',
  '--cpus-per-task=1',
  '--mem=512M',
  `--wrap=docker run --rm ${RUN_FLAGS.join(' ')} ${BENCH_IMAGE} true`,
];

/** `sbatch --wait` of the same work: wall time from the submit to its return. */
async function sbatchWait(): Promise<number> {
  const start = performance.now();
  await run('sbatch', ['--wait', ...SBATCH_JOB], { env: { ...process.env, SLURM_CONF } });
  return Math.round(performance.now() - start);
}

/**
 * `jobs` batch jobs of the same work submitted at once, per minute: the node's 8 CPUs run 8 at a
 * time, as Jobdeck's queue does.
 */
async function sbatchJobsPerMinute(jobs: number): Promise<number> {
  const begin = Date.now();
  const ids: string[] = [];
  for (let i = 0; i < jobs; i += 1) {
    const { stdout } = await run('sbatch', SBATCH_JOB, { env: { ...process.env, SLURM_CONF } });
    ids.push(stdout.trim().split(';')[0]!);
  }
  while (underWay(ids)) await new Promise((resolve) => setTimeout(resolve, 100));
  return round((jobs / ((Date.now() - begin) / 1000)) * 60, 0);
}

/** Whether the test cluster answers now: the step runs by default only then. */
export function slurmClusterUp(): boolean {
  try {
    slurm('scontrol', 'ping');
    return true;
  } catch {
    return false;
  }
}

/**
 * Jobdeck on the one-machine Slurm cluster next to `sbatch --wait` of the same `docker run` on
 * the same cluster, interleaved one job at a time; then short-job throughput through each.
 * Brings the cluster up if it is not (and down again after).
 */
export async function slurmComparison(plan: { jobs: number; throughputJobs: number }) {
  const { broughtUp } = ensureSlurm();
  const service = await startService({
    ...BENCH_SETTINGS,
    engine: { type: 'slurm', conf: SLURM_CONF, work_dir: SLURM_WORK_DIR },
  });
  try {
    const samples = { jobdeck: [] as number[], sbatchWait: [] as number[] };
    for (let i = 0; i < plan.jobs; i += 1) {
      samples.jobdeck.push((await runTrue(service)).completed);
      samples.sbatchWait.push(await sbatchWait());
    }
    const completed = {
      jobdeck: summary(samples.jobdeck),
      sbatchWait: summary(samples.sbatchWait),
    };
    return {
      completed,
      ratio: round(completed.jobdeck.p50 / completed.sbatchWait.p50, 2),
      throughput: {
        jobs: plan.throughputJobs,
        jobdeckJobsPerMinute: await jobsPerMinute(service, plan.throughputJobs),
        sbatchJobsPerMinute: await sbatchJobsPerMinute(plan.throughputJobs),
      },
    };
  } finally {
    await service.stop();
    if (broughtUp) slurmDown();
  }
}
