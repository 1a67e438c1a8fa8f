import type { TestService } from '../../test/support/service';
import { submit, transitions, waitForState } from '../../test/support/jobs';
import { BENCH_WAIT_MS } from '../jobdeck-client';
import { pool, summary } from '../stats';

/**
 * What a dependency costs: from the service recording a job completed to the job waiting for it
 * (afterok) running, beside the first job's submit → running.
 */
export async function dependencyTurnaround(service: TestService, pairs: number) {
  const toDependentRunning: number[] = [];
  const toFirstRunning: number[] = [];
  // Four pairs at a time in a queue of 16 slots: no job waits for a slot.
  await pool(Array.from({ length: pairs }), 4, async () => {
    const first = await submit(service, { job_definition: 'b::true:1', job_queue: 'b::fast' });
    const then = await submit(service, {
      job_definition: 'b::true:1',
      job_queue: 'b::fast',
      depends_on: [{ job_id: first }],
    });
    await waitForState(service, then, ['completed'], BENCH_WAIT_MS, 20);
    const at = async (id: string, to: string) =>
      Date.parse((await transitions(service, id)).find((m) => m.to === to)!.at);
    toFirstRunning.push((await at(first, 'running')) - (await at(first, 'submitted')));
    toDependentRunning.push((await at(then, 'running')) - (await at(first, 'completed')));
  });
  return {
    pairs,
    completedToDependentRunningMs: summary(toDependentRunning),
    submitToRunningMs: summary(toFirstRunning),
  };
}
