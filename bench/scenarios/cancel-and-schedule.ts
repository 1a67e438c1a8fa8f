import type { TestService } from '../../test/support/service';
import { BENCH_WAIT_MS } from '../jobdeck-client';
import { submit, transitionTimes, waitForState } from '../../test/support/jobs';
import { pool, sleep, summary } from '../stats';

async function cancelLatency(service: TestService, id: string): Promise<number> {
  const sentAt = Date.now();
  const response = await service.request('POST', `/v1/client/job/${id}/cancel`);
  if (response.status !== 202) throw new Error(`cancel refused: ${response.text}`);
  await waitForState(service, id, ['cancelled'], BENCH_WAIT_MS, 10);
  return (await transitionTimes(service, id)).get('cancelled')! - sentAt;
}

/** Cancel request sent → `cancelled` recorded, for a waiting job and for a running `sleep`. */
export async function cancelLatencies(service: TestService, samples: number) {
  const pending: number[] = [];
  const runnable: number[] = [];
  const running: number[] = [];
  for (let i = 0; i < samples; i += 1) {
    const later = await submit(service, {
      job_definition: 'b::true:1',
      job_queue: 'b::fast',
      schedule_at: Date.now() / 1000 + 3600,
    });
    await waitForState(service, later, ['pending'], BENCH_WAIT_MS, 20);
    pending.push(await cancelLatency(service, later));

    const held = await submit(service, { job_definition: 'b::true:1', job_queue: 'b::paused' });
    await waitForState(service, held, ['runnable'], BENCH_WAIT_MS, 20);
    runnable.push(await cancelLatency(service, held));

    const sleeper = await submit(service, { job_definition: 'b::sleep:1', job_queue: 'b::fast' });
    await waitForState(service, sleeper, ['running'], BENCH_WAIT_MS, 20);
    running.push(await cancelLatency(service, sleeper));
  }
  return {
    pendingMs: summary(pending),
    runnableMs: summary(runnable),
    runningSleepGrace1sMs: summary(running),
  };
}

/** Jobs sharing one schedule_at: how late each left `pending`, from the service's records. */
export async function scheduleAccuracy(service: TestService, jobs: number) {
  const at = Date.now() + 5000;
  const scheduleAt = new Date(at).toISOString();
  const ids = await pool(Array.from({ length: jobs }), 16, () =>
    submit(service, {
      job_definition: 'b::true:1',
      job_queue: 'b::paused',
      schedule_at: scheduleAt,
    }),
  );
  await sleep(Math.max(0, at - Date.now()) + 1500);
  const lateness = await pool(ids, 8, async (id) => {
    await waitForState(service, id, ['runnable'], BENCH_WAIT_MS, 20);
    return (await transitionTimes(service, id)).get('runnable')! - at;
  });
  return { jobs, latenessMs: summary(lateness) };
}
