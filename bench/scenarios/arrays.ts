import type { TestService } from '../../test/support/service';
import { detail, submit, waitForState } from '../../test/support/jobs';
import { BENCH_WAIT_MS } from '../jobdeck-client';
import { pool, round, summary } from '../stats';

const TRUE = { job_definition: 'b::true:1' };

/** Ordinary submits to the paused queue, `parallel` at a time, while `busy()` says so. */
export async function ordinarySubmits(service: TestService, busy: () => boolean, parallel: number) {
  const latencies: number[] = [];
  const ids: string[] = [];
  await pool(Array.from({ length: parallel }), parallel, async () => {
    while (busy()) {
      const begin = performance.now();
      ids.push(await submit(service, { ...TRUE, job_queue: 'b::paused' }));
      latencies.push(performance.now() - begin);
    }
  });
  return { latencies, ids };
}

/**
 * Admitting a 10,000-child array against 10,000 separate submits (16 at a time), both to the
 * paused queue so that only the service's own work is timed; Job Submit's latency for ordinary
 * jobs (4 at a time) while the array is admitted, beside the same with nothing else; and
 * cancelling the array as a whole.
 */
export async function arrayAdmission(service: TestService, size: number) {
  let baselineLeft = 400;
  const alone = await ordinarySubmits(service, () => baselineLeft-- > 0, 4);

  let admitting = true;
  const arrayBegin = performance.now();
  const [parent, beside] = await Promise.all([
    submit(service, { ...TRUE, job_queue: 'b::paused', array: { size } }).finally(() => {
      admitting = false;
    }),
    ordinarySubmits(service, () => admitting, 4),
  ]);
  const arrayAcceptMs = performance.now() - arrayBegin;

  const separateBegin = performance.now();
  const separate = await pool(Array.from({ length: size }), 16, () =>
    submit(service, { ...TRUE, job_queue: 'b::paused' }),
  );
  const separateAcceptMs = performance.now() - separateBegin;

  const cancelBegin = performance.now();
  await service.request('POST', `/v1/client/job/${parent}/cancel`);
  await waitForState(service, parent, 'cancelled', BENCH_WAIT_MS, 20);
  const arrayCancelMs = performance.now() - cancelBegin;
  // The paused queue is left as it was found: nothing of this step waits in it.
  await pool([...separate, ...alone.ids, ...beside.ids], 16, (id) =>
    service.request('POST', `/v1/client/job/${id}/cancel`),
  );
  return {
    size,
    arrayAcceptMs: round(arrayAcceptMs, 0),
    separateAcceptMs: round(separateAcceptMs, 0),
    submitAloneMs: summary(alone.latencies),
    submitBesideArrayMs: summary(beside.latencies),
    arrayCancelMs: round(arrayCancelMs, 0),
  };
}

/**
 * Children of `true` run to completion in the queue of 8 slots, against as many separate jobs:
 * the engine's container churn bounds both (some 360 a minute on 2 cores), so the figure is
 * what the array adds or saves around it.
 */
export async function arrayCompletion(service: TestService, size: number) {
  const arrayBegin = Date.now();
  const parent = await submit(service, { ...TRUE, job_queue: 'b::eight', array: { size } });
  const ended = await waitForState(
    service,
    parent,
    ['completed', 'failed', 'cancelled'],
    30 * 60_000,
    250,
  );
  if (ended.state !== 'completed')
    throw new Error(`the array ended ${ended.state}: ${ended.system_note}`);
  const arrayMs = Date.now() - arrayBegin;

  const separateBegin = Date.now();
  const ids = await pool(Array.from({ length: size }), 16, () =>
    submit(service, { ...TRUE, job_queue: 'b::eight' }),
  );
  for (const id of ids) {
    const job = await waitForState(service, id, ['completed', 'failed', 'error'], 30 * 60_000, 250);
    if (job.state !== 'completed') throw new Error(`job ${id} ended ${job.state}`);
  }
  const separateMs = Date.now() - separateBegin;
  const perMinute = (ms: number) => round((size / (ms / 1000)) * 60, 0);
  return {
    size,
    arrayMs,
    separateMs,
    arrayJobsPerMinute: perMinute(arrayMs),
    separateJobsPerMinute: perMinute(separateMs),
    parentNote: (await detail(service, parent)).system_note,
  };
}
