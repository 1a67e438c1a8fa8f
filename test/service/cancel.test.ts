import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../support/service';
import { detail, statesOf, submit, waitForState } from '../support/jobs';

let service: TestService;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.stop());

const cancel = (id: string) => service.request('POST', `/v1/client/job/${id}/cancel`);

describe('Cancel Job', () => {
  it('cancels a pending job at once', async () => {
    const id = await submit(service, {
      job_definition: 't::echo:1',
      schedule_at: new Date(Date.now() + 3_600_000).toISOString(),
    });
    await waitForState(service, id, 'pending');
    const response = await cancel(id);
    expect(response.status).toBe(202);
    expect(response.body).toEqual({ ok: true });
    const job = await detail(service, id);
    expect(job.state).toBe('cancelled');
    expect(job.system_note).toBe('cancelled on request before it started');
  });

  it('cancels a runnable job at once, and it never runs', async () => {
    const blocker = await submit(service, { job_definition: 't::sleep:1', job_queue: 't::single' });
    await waitForState(service, blocker, 'running');
    const id = await submit(service, { job_definition: 't::echo:1', job_queue: 't::single' });
    await waitForState(service, id, 'runnable');
    expect((await cancel(id)).status).toBe(202);
    expect((await detail(service, id)).state).toBe('cancelled');
    await cancel(blocker);
    await waitForState(service, blocker, 'cancelled');
    expect(await statesOf(service, id)).toEqual(['submitted', 'runnable', 'cancelled']);
  });

  it('stops a running job through cancelling, and a retried cancel is safe', async () => {
    const id = await submit(service, { job_definition: 't::sleep:1' });
    await waitForState(service, id, 'running');
    expect((await cancel(id)).status).toBe(202);
    const during = await detail(service, id);
    expect(['cancelling', 'cancelled']).toContain(during.state);
    expect((await cancel(id)).status).toBe(202);
    const job = await waitForState(service, id, 'cancelled');
    expect(job.system_note).toMatch(/^cancelled on request; the container exited with code \d+$/);
    expect(await statesOf(service, id)).toEqual([
      'submitted',
      'runnable',
      'starting',
      'running',
      'cancelling',
      'cancelled',
    ]);
    expect((await cancel(id)).status).toBe(202);
  });

  it('kills a job that ignores SIGTERM once the grace period is over', async () => {
    const id = await submit(service, { job_definition: 't::stubborn:1' });
    await waitForState(service, id, 'running');
    await cancel(id);
    const job = await waitForState(service, id, 'cancelled');
    expect(job.system_note).toBe('cancelled on request; the container exited with code 137');
  });

  it('refuses to cancel a finished job with 409 naming its state', async () => {
    const id = await submit(service, { job_definition: 't::echo:1' });
    await waitForState(service, id, 'completed');
    const response = await cancel(id);
    expect(response.status).toBe(409);
    expect(response.body).toEqual({
      ok: false,
      message: `job_id: job ${id} is completed; a completed job cannot be cancelled`,
    });
  });

  it('answers 404 for an unknown job', async () => {
    const response = await cancel('no-such-job');
    expect(response.status).toBe(404);
    expect(response.body.message).toBe('job_id: no job "no-such-job" in this project');
  });
});
