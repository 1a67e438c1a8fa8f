import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../support/service';
import { submit, waitForState } from '../support/jobs';

let service: TestService;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.stop());

// What a job does on each engine is test/support/engine-cases.ts's (engines.test.ts runs it here);
// the spec's three operations are test/support/spec-cases.ts's (spec.test.ts).
describe('jobs over HTTP', () => {
  it('lists jobs newest first with a cursor, within the project only', async () => {
    for (let i = 0; i < 3; i += 1) await submit(service, { job_definition: 't::echo:1' });
    const first = await service.request('GET', '/v1/client/jobs?limit=2');
    const page = first.body.data as { items: { id: string }[]; next_cursor: string | null };
    expect(page.items).toHaveLength(2);
    expect(page.next_cursor).not.toBeNull();
    const second = await service.request(
      'GET',
      `/v1/client/jobs?limit=2&cursor=${page.next_cursor}`,
    );
    const next = second.body.data as { items: { id: string }[] };
    expect(next.items.map((j) => j.id)).not.toContain(page.items[0]!.id);
    const bad = await service.request('GET', '/v1/client/jobs?limit=0');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^limit: /);
  });

  it('runs at most max_running jobs of a queue at once and says why the others wait', async () => {
    const blocker = await submit(service, { job_definition: 't::sleep:1', job_queue: 't::single' });
    await waitForState(service, blocker, 'running');
    const waiting = await submit(service, { job_definition: 't::echo:1', job_queue: 't::single' });
    const job = await waitForState(service, waiting, 'runnable');
    expect(job.system_note).toBe(
      'waiting for a slot: 1st of 1 waiting in queue t::single; 1 of 1 running in queue t::single',
    );
    await service.request('POST', `/v1/client/job/${blocker}/cancel`);
    await waitForState(service, waiting, 'completed');
  });

  it('holds jobs of a paused queue as runnable and says so', async () => {
    const id = await submit(service, { job_definition: 't::echo:1', job_queue: 't::paused' });
    const job = await waitForState(service, id, 'runnable');
    expect(job.system_note).toBe('waiting: queue t::paused is paused');
    await service.request('POST', `/v1/client/job/${id}/cancel`);
  });

  it('serves its OpenAPI document and health without a key', async () => {
    const doc = await service.request('GET', '/v1/openapi.json', undefined, null);
    expect(doc.status).toBe(200);
    expect((doc.body as unknown as { openapi: string }).openapi).toBe('3.1.0');
    const health = await service.request('GET', '/v1/health', undefined, null);
    expect(health.body).toEqual({
      ok: true,
      data: { engine: 'reachable', store: 'reachable', engine_type: 'docker', dispatcher: true },
    });
  });
});
