import type { TestService } from '../../test/support/service';
import { BENCH_WAIT_MS } from '../jobdeck-client';
import { submit, transitionTimes, waitForState } from '../../test/support/jobs';
import { pool, round, summary } from '../stats';
import { dockerRunCli, engineApiRun } from './direct-docker';

/**
 * One job of `true`: submit sent → `running` and → `completed` recorded, in ms, from the
 * service's own records, so polling does not inflate them.
 */
export async function runTrue(
  service: TestService,
): Promise<{ running: number; completed: number }> {
  const sentAt = Date.now();
  const id = await submit(service, { job_definition: 'b::true:1', job_queue: 'b::fast' });
  await waitForState(service, id, ['completed', 'failed', 'error'], BENCH_WAIT_MS, 20);
  const times = await transitionTimes(service, id);
  return { running: times.get('running')! - sentAt, completed: times.get('completed')! - sentAt };
}

/** Jobs of `true` submitted all at once to a queue that runs 8 at a time, per minute. */
export async function jobsPerMinute(service: TestService, jobs: number): Promise<number> {
  const begin = Date.now();
  const ids = await pool(Array.from({ length: jobs }), 16, () =>
    submit(service, { job_definition: 'b::true:1', job_queue: 'b::eight' }),
  );
  for (const id of ids)
    await waitForState(service, id, ['completed', 'failed', 'error'], BENCH_WAIT_MS, 100);
  return round((jobs / ((Date.now() - begin) / 1000)) * 60, 0);
}

/**
 * The headline: a job of `true`, one at a time, through Jobdeck and straight on the engine,
 * interleaved so both see the same machine. Jobdeck's times are the service's own records
 * (submit sent → `running` / `completed` recorded), so polling does not inflate them.
 */
export async function engineOverhead(service: TestService, jobs: number) {
  const toRunning: number[] = [];
  const toCompleted: number[] = [];
  const apiStarted: number[] = [];
  const apiExited: number[] = [];
  const cli: number[] = [];
  for (let i = 0; i < jobs; i += 1) {
    const times = await runTrue(service);
    toRunning.push(times.running);
    toCompleted.push(times.completed);
    const direct = await engineApiRun();
    apiStarted.push(direct.startedMs);
    apiExited.push(direct.exitedMs);
    cli.push(await dockerRunCli());
  }
  const jobdeck = { toRunning: summary(toRunning), toCompleted: summary(toCompleted) };
  const engineApi = { createStart: summary(apiStarted), createStartWait: summary(apiExited) };
  const dockerRun = summary(cli);
  return {
    jobdeck,
    engineApi,
    dockerRun,
    ratios: {
      runningVsEngineApiStart: round(jobdeck.toRunning.p50 / engineApi.createStart.p50, 2),
      completedVsEngineApiWait: round(jobdeck.toCompleted.p50 / engineApi.createStartWait.p50, 2),
      completedVsDockerRun: round(jobdeck.toCompleted.p50 / dockerRun.p50, 2),
      completedP99VsEngineApiWaitP99: round(
        jobdeck.toCompleted.p99 / engineApi.createStartWait.p99,
        2,
      ),
    },
  };
}

/** Many short jobs with 8 at a time, through Jobdeck and as `docker run` with the same parallelism. */
export async function shortJobThroughput(service: TestService, jobs: number) {
  const jobdeck = await jobsPerMinute(service, jobs);
  const directBegin = Date.now();
  await pool(Array.from({ length: jobs }), 8, () => dockerRunCli());
  const direct = round((jobs / ((Date.now() - directBegin) / 1000)) * 60, 0);
  return {
    jobs,
    parallelism: 8,
    jobdeckJobsPerMinute: jobdeck,
    dockerRunJobsPerMinute: direct,
    ratio: round(jobdeck / direct, 2),
  };
}
