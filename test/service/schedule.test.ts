import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../support/service';
import { detail, statesOf, submit, waitForState } from '../support/jobs';

let service: TestService;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.stop());

describe('schedule_at', () => {
  it('holds a job pending until an RFC 3339 time, saying when, then runs it', async () => {
    const at = new Date(Math.ceil((Date.now() + 2500) / 1000) * 1000);
    const id = await submit(service, {
      job_definition: 't::echo:1',
      schedule_at: at.toISOString(),
    });
    const pending = await waitForState(service, id, 'pending');
    expect(pending.schedule_at).toBe(at.toISOString());
    expect(pending.system_note).toBe(`scheduled for ${at.toISOString()}`);
    await waitForState(service, id, 'completed');
    const history = await service.request('GET', `/v1/client/job/${id}/transitions`);
    const runnableAt = (history.body.data as { items: { to: string; at: string }[] }).items.find(
      (t) => t.to === 'runnable',
    )!.at;
    expect(Date.parse(runnableAt)).toBeGreaterThanOrEqual(at.getTime());
  });

  it('accepts Unix seconds, and normalizes other offsets to UTC', async () => {
    const seconds = Math.floor(Date.now() / 1000) + 3600;
    const byNumber = await submit(service, { job_definition: 't::echo:1', schedule_at: seconds });
    expect((await waitForState(service, byNumber, 'pending')).schedule_at).toBe(
      new Date(seconds * 1000).toISOString(),
    );
    const byOffset = await submit(service, {
      job_definition: 't::echo:1',
      schedule_at: '2027-06-01T12:00:00.000+02:00',
    });
    expect((await detail(service, byOffset)).schedule_at).toBe('2027-06-01T10:00:00.000Z');
    for (const id of [byNumber, byOffset])
      await service.request('POST', `/v1/client/job/${id}/cancel`);
  });

  it('runs a job scheduled in the past now, in either form', async () => {
    const string = await submit(service, {
      job_definition: 't::echo:1',
      schedule_at: '2020-01-01T00:00:00.000Z',
    });
    const number = await submit(service, { job_definition: 't::echo:1', schedule_at: 1577836800 });
    for (const id of [string, number]) {
      await waitForState(service, id, 'completed');
      expect(await statesOf(service, id)).not.toContain('pending');
    }
  });
});
