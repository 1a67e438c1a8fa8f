import { ensureSwarm, swarmDown } from '../../test/support/swarm';
import { startService, type TestService } from '../../test/support/service';
import { BENCH_SETTINGS } from '../jobdeck-client';
import { round, summary } from '../stats';
import { serviceCreateCli } from './direct-swarm';
import { jobsPerMinute, runTrue } from './overhead';

// Jobs reserve what they are limited to on the swarm: at 0.25 CPU each, the three 2-CPU nodes
// hold 24 at once, so 8 at a time never wait for room. (The local engine reserves nothing.)
const SWARM_JOB_CPUS = 0.25;

const startOnSwarm = (manager: string, isolation: string) =>
  startService({
    ...BENCH_SETTINGS,
    engine: { type: 'swarm', socket: manager.replace(/^unix:\/\//, ''), isolation },
    job_defaults: { cpus: SWARM_JOB_CPUS },
  });

/**
 * Jobdeck on the three-node test swarm next to Jobdeck on the local engine and next to
 * `docker service create` driven directly, interleaved one job at a time so that all see the
 * same machine; then short-job throughput on the swarm and on the local engine. Brings the swarm
 * up if it is not (and down again after).
 */
export async function swarmComparison(
  local: TestService,
  plan: { jobs: number; throughputJobs: number },
) {
  const { manager, broughtUp } = ensureSwarm();
  const swarm = await startOnSwarm(manager, 'job-network');
  const bridge = await startOnSwarm(manager, 'node-bridge');
  try {
    const samples = {
      local: [] as number[],
      swarm: [] as number[],
      bridge: [] as number[],
      cli: [] as number[],
    };
    for (let i = 0; i < plan.jobs; i += 1) {
      samples.local.push((await runTrue(local)).completed);
      samples.swarm.push((await runTrue(swarm)).completed);
      samples.bridge.push((await runTrue(bridge)).completed);
      samples.cli.push(await serviceCreateCli(manager, String(SWARM_JOB_CPUS)));
    }
    const completed = {
      localEngine: summary(samples.local),
      swarm: summary(samples.swarm),
      swarmNodeBridge: summary(samples.bridge),
      serviceCreateCli: summary(samples.cli),
    };
    const throughput = {
      jobs: plan.throughputJobs,
      parallelism: 8,
      swarmJobsPerMinute: await jobsPerMinute(swarm, plan.throughputJobs),
      swarmNodeBridgeJobsPerMinute: await jobsPerMinute(bridge, plan.throughputJobs),
      localJobsPerMinute: await jobsPerMinute(local, plan.throughputJobs),
    };
    return {
      nodes: 3,
      jobCpus: SWARM_JOB_CPUS,
      completed,
      ratios: {
        swarmVsServiceCreateCli: round(completed.swarm.p50 / completed.serviceCreateCli.p50, 2),
        swarmVsLocal: round(completed.swarm.p50 / completed.localEngine.p50, 2),
      },
      throughput,
    };
  } finally {
    await Promise.all([swarm.stop(), bridge.stop()]);
    if (broughtUp) swarmDown();
  }
}
