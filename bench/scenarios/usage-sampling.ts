import { readFileSync } from 'node:fs';
import { submit, waitForState } from '../../test/support/jobs';
import { startService, type TestService } from '../../test/support/service';
import { BENCH_SETTINGS, BENCH_WAIT_MS, cpuMs } from '../jobdeck-client';
import { round, sleep } from '../stats';

/** The local Docker Engine's process: each sample is a stats request it answers. */
const enginePid = () => Number(readFileSync('/var/run/docker.pid', 'utf8').trim());

async function runningJobs(service: TestService, jobs: number): Promise<string[]> {
  const ids = await Promise.all(
    Array.from({ length: jobs }, () =>
      submit(service, { job_definition: 'b::sleep:1', job_queue: 'b::fast' }),
    ),
  );
  await Promise.all(ids.map((id) => waitForState(service, id, 'running', BENCH_WAIT_MS)));
  return ids;
}

async function cancelAll(service: TestService, ids: string[]): Promise<void> {
  await Promise.all(ids.map((id) => service.request('POST', `/v1/client/job/${id}/cancel`)));
  await Promise.all(ids.map((id) => waitForState(service, id, 'cancelled', BENCH_WAIT_MS)));
}

/**
 * What sampling each running job's usage costs: the CPU of the service and of the Docker Engine
 * over a window with `jobs` sleeping containers running, sampled every interval of `intervals`
 * (seconds), against the same jobs not sampled (0). Sleeping jobs, so that what moves is the
 * sampling alone (their containers use no CPU of their own).
 */
export async function usageSamplingCost(jobs: number, windowSeconds: number, intervals: number[]) {
  const figures = [];
  for (const interval of [0, ...intervals]) {
    const service = await startService({
      ...BENCH_SETTINGS,
      usage_sample_interval_seconds: interval,
    });
    try {
      const ids = await runningJobs(service, jobs);
      await sleep(2000); // the starts' own work done
      const engine = enginePid();
      const before = { service: cpuMs(service.pid()), engine: cpuMs(engine), at: Date.now() };
      await sleep(windowSeconds * 1000);
      const elapsed = Date.now() - before.at;
      const share = (ms: number) => round((ms / elapsed) * 100, 2);
      figures.push({
        intervalSeconds: interval,
        jobs,
        serviceCpuPercent: share(cpuMs(service.pid()) - before.service),
        engineCpuPercent: share(cpuMs(engine) - before.engine),
      });
      await cancelAll(service, ids);
    } finally {
      await service.stop();
    }
  }
  return figures;
}
