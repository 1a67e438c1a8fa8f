import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../support/service';
import { logsOf, statesOf, submit, waitForState } from '../support/jobs';

let service: TestService;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.stop());

describe('a job runs as a real container', () => {
  it('completes on exit code 0, with its output kept and its path recorded', async () => {
    const id = await submit(service, {
      job_definition: 't::echo:1',
      container_cmd_parameter: { greeting: 'hi there' },
    });
    const job = await waitForState(service, id, 'completed');
    expect(job.system_note).toBeNull();
    // The id's millisecond (low 32 bits) and its last 6 digits.
    expect(job.name).toBe(`echo-${id.slice(4, 8)}${id.slice(9, 13)}${id.slice(-6)}`);
    expect(await logsOf(service, id)).toBe('hi there\n');
    expect(await statesOf(service, id)).toEqual([
      'submitted',
      'runnable',
      'starting',
      'running',
      'completed',
    ]);
  });

  it('fails on a non-zero exit and says the code', async () => {
    const id = await submit(service, {
      job_definition: 't::sh:1',
      container_cmd_parameter: { script: 'echo oops >&2; exit 3' },
    });
    const job = await waitForState(service, id, 'failed');
    expect(job.system_note).toBe('exited with code 3');
    expect(await logsOf(service, id)).toBe('oops\n');
  });

  it('times out past the definition timeout and is stopped', async () => {
    const id = await submit(service, { job_definition: 't::short:1' });
    const job = await waitForState(service, id, 'timeout');
    expect(job.system_note).toMatch(
      /^ran past its timeout of 1 s and was stopped \(exit code \d+\)$/,
    );
  });

  it('is an error with an actionable note when the image is missing', async () => {
    const id = await submit(service, { job_definition: 't::ghost:1' });
    const job = await waitForState(service, id, 'error');
    expect(job.system_note).toContain(
      'image jobdeck/no-such-image:missing is not on the container engine',
    );
  });

  it('returns exactly the seven fields of the job record, times in RFC 3339 with milliseconds', async () => {
    const id = await submit(service, { job_definition: 't::echo:1', name: 'seven-fields' });
    const job = await waitForState(service, id, 'completed');
    expect(Object.keys(job).sort()).toEqual(
      ['created_at', 'id', 'name', 'schedule_at', 'state', 'system_note', 'updated_at'].sort(),
    );
    expect(job.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(job.updated_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(job.name).toBe('seven-fields');
  });

  it('lists jobs newest first with a cursor, within the project only', async () => {
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

  it('applies the definition memory and CPU limits to the container', async () => {
    const id = await submit(service, { job_definition: 't::limited:1' });
    await waitForState(service, id, 'completed');
    const [memory, cpu] = (await logsOf(service, id)).trim().split('\n');
    expect(Number(memory)).toBe(64 * 1024 * 1024);
    // cgroup v2 prints "50000 100000"; v1 prints the quota for a 100000 µs period.
    expect(cpu!.split(' ')[0]).toBe('50000');
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
      data: { engine: 'reachable', store: 'reachable', engine_type: 'docker' },
    });
  });
});
