import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobExecutionSchema, trendsSchema, type JobExecution } from '../../contract';
import { detail, shScript, submit, waitForState } from '../support/jobs';
import { startService, type TestService } from '../support/service';

/**
 * The start estimate of the execution extension, in a real service on real containers: a job
 * waiting for a slot in a queue of max_running 1 gets its place and an estimate from the
 * queue's recent run times once enough jobs ran there, and none while the queue is paused.
 */
let service: TestService;

beforeAll(async () => {
  service = await startService({ reconcile_interval_seconds: 1 });
});
afterAll(() => service.stop());

const inSingle = (script: string) => ({ ...shScript(script), job_queue: 't::single' });

const executionOf = async (id: string): Promise<JobExecution> => {
  const response = await service.request('GET', `/v1/client/job/${id}/execution`);
  expect(response.status, response.text).toBe(200);
  return jobExecutionSchema.parse(response.body.data);
};

/** Polls until the roller has counted `runs` run times of t::single (it runs every 2 s). */
async function runsCounted(runs: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const response = await service.request('GET', '/v1/client/trends?queue=t::single');
    if (trendsSchema.parse(response.body.data).run.jobs >= runs) return;
    if (Date.now() > deadline) throw new Error(`not counted: ${response.text}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('start estimate', () => {
  it('is null while the queue has run too few jobs to tell', async () => {
    const ids = [
      await submit(service, inSingle('sleep 1')),
      await submit(service, inSingle('sleep 1')),
      await submit(service, inSingle('sleep 1')),
    ];
    await waitForState(service, ids[0]!, 'running');
    const waiting = await executionOf(ids[2]!);
    expect(waiting.start_estimate).toBeNull();
    for (const id of ids) await waitForState(service, id, 'completed');
    await runsCounted(3);
  });

  it('gives a waiting job its place and an estimate from the recent run times', async () => {
    const long = await submit(service, inSingle('sleep 60'));
    await waitForState(service, long, 'running');
    const first = await submit(service, inSingle('true'));
    const second = await submit(service, inSingle('true'));

    expect((await detail(service, second)).system_note).toBe(
      'waiting for a slot: 2nd of 2 waiting in queue t::single; 1 of 1 running in queue t::single',
    );
    const estimate = (await executionOf(second)).start_estimate;
    expect(estimate).toMatchObject({ place: 2, slots: 1, runs: 3 });
    // Three runs of about a second: the median's histogram bucket is within 2^¼ of it.
    expect(estimate!.run_p50_ms).toBeGreaterThan(700);
    expect(estimate!.run_p50_ms).toBeLessThan(2500);
    expect(estimate!.in_ms).toBe(2 * estimate!.run_p50_ms);
    expect((await executionOf(first)).start_estimate).toMatchObject({
      place: 1,
      in_ms: estimate!.run_p50_ms,
    });
    // Running: nothing to estimate.
    expect((await executionOf(long)).start_estimate).toBeNull();

    // Paused, it waits for the resume, which no run time tells: the note says so, no estimate.
    await service.request('POST', '/v1/client/queues/t::single/pause', { reason: 'maintenance' });
    expect((await detail(service, second)).system_note).toBe(
      'waiting: queue t::single is paused (maintenance)',
    );
    expect((await executionOf(second)).start_estimate).toBeNull();

    for (const id of [second, first, long]) {
      await service.request('POST', `/v1/client/job/${id}/cancel`);
      await waitForState(service, id, 'cancelled');
    }
    await service.request('POST', '/v1/client/queues/t::single/resume');
  });
});
