import { submit } from '../../test/support/jobs';
import type { TestService } from '../../test/support/service';
import { BENCH_SETTINGS } from '../jobdeck-client';
import { percentile, round, sleep } from '../stats';

/**
 * A service whose jobs end in a fraction of a second on the simulated engine (nothing waits on
 * containers), with room for all of them: what bounds a steady load is the service and its store.
 */
export const QUICK_JOBS_SETTINGS = {
  ...BENCH_SETTINGS,
  engine: {
    type: 'simulated',
    nodes: 10,
    slots_per_node: 50,
    start_ms: { min: 10, max: 50 },
    run_ms: { min: 50, max: 300 },
  },
  max_running: 2000,
};

/**
 * Submits `perSecond` jobs a second for `seconds` to the wide queue, not waiting for one before
 * the next; `tick` is called between bursts with the seconds gone. Job Submit's latency of each.
 */
export async function submitSteadily(
  service: TestService,
  load: { seconds: number; perSecond: number },
  tick: (elapsedSeconds: number) => void = () => {},
) {
  const latencies: number[] = [];
  const submits: Promise<void>[] = [];
  const ids: string[] = [];
  let failed = 0;
  const begin = Date.now();
  while (Date.now() - begin < load.seconds * 1000) {
    const elapsed = (Date.now() - begin) / 1000;
    for (const due = Math.floor(elapsed * load.perSecond); submits.length < due;) {
      const sent = Date.now();
      submits.push(
        submit(service, { job_definition: 'b::true:1', job_queue: 'b::wide' }).then(
          (id) => {
            ids.push(id);
            latencies.push(Date.now() - sent);
          },
          () => void (failed += 1),
        ),
      );
    }
    tick(elapsed);
    await sleep(20);
  }
  await Promise.all(submits);
  return {
    ids,
    submitted: submits.length,
    failed,
    submitMs: {
      p50: round(percentile(latencies, 50), 0),
      p99: round(percentile(latencies, 99), 0),
    },
  };
}
