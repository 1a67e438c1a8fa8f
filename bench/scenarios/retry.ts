import type { TestService } from '../../test/support/service';
import { submit, transitions, waitForState } from '../../test/support/jobs';
import { BENCH_WAIT_MS } from '../jobdeck-client';
import { pool, summary } from '../stats';

/**
 * What a retry costs beyond its backoff (0 here): from the service recording the first attempt's
 * end (running → runnable) to the second attempt running, beside a new job's submit → running.
 */
export async function retryTurnaround(service: TestService, jobs: number) {
  const toRetryRunning: number[] = [];
  const toFirstRunning: number[] = [];
  // Four at a time in a queue of 16 slots: no job waits for a slot, so the figures are the
  // service's and the engine's time alone.
  await pool(Array.from({ length: jobs }), 4, async () => {
    const id = await submit(service, { job_definition: 'b::fails-once:1', job_queue: 'b::fast' });
    await waitForState(service, id, ['completed'], BENCH_WAIT_MS, 20);
    const moves = await transitions(service, id);
    const at = (to: string, nth: number) => Date.parse(moves.filter((m) => m.to === to)[nth]!.at);
    toFirstRunning.push(at('running', 0) - at('submitted', 0));
    // The second `runnable` is the one the failed attempt moved to.
    toRetryRunning.push(at('running', 1) - at('runnable', 1));
  });
  return {
    jobs,
    retryToRunningMs: summary(toRetryRunning),
    submitToRunningMs: summary(toFirstRunning),
  };
}
