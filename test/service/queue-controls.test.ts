import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueueSummary } from '../../contract';
import { detail, submit, waitForState } from '../support/jobs';
import { startService, type TestService } from '../support/service';

/** Pause, resume and max_running through the API, obeyed by a real service on real containers. */
let service: TestService;

beforeAll(async () => {
  service = await startService({ reconcile_interval_seconds: 1 });
});
afterAll(() => service.stop());

const queueOf = async (ref: string) => {
  const response = await service.request('GET', '/v1/client/queues');
  return (response.body.data as { items: QueueSummary[] }).items.find((q) => q.queue === ref)!;
};
const sleeper = { job_definition: 't::sleep:1', job_queue: 't::single' };

describe('queue controls through the API', () => {
  it('lists what the configuration said and what may be changed', async () => {
    expect(await queueOf('t::single')).toMatchObject({
      max_running: 1,
      configured_max_running: 1,
      max_running_ceiling: 16,
      paused: false,
      paused_reason: null,
      changed: null,
    });
    // `paused: true` in the configuration is the state at the first start.
    expect(await queueOf('t::paused')).toMatchObject({ paused: true, changed: null });
  });

  it('a paused queue accepts jobs and starts none, saying why; resumed, they run', async () => {
    const paused = await service.request('POST', '/v1/client/queues/t::single/pause', {
      reason: 'bad release 4.2',
    });
    expect(paused.status).toBe(200);
    const summary = paused.body.data as QueueSummary;
    expect(summary).toMatchObject({
      queue: 't::single',
      paused: true,
      paused_reason: 'bad release 4.2',
    });
    // Who changed it: the key's id, never the key.
    expect(summary.changed?.by).toMatch(/\S/);
    expect(service.key).not.toContain(summary.changed!.by);
    expect(Date.now() - Date.parse(summary.changed!.at)).toBeLessThan(60_000);

    const id = await submit(service, sleeper);
    await new Promise((r) => setTimeout(r, 1500)); // a reconcile pass too: still nothing starts
    expect(await detail(service, id)).toMatchObject({
      state: 'runnable',
      system_note: 'waiting: queue t::single is paused (bad release 4.2)',
    });
    const resumed = await service.request('POST', '/v1/client/queues/t::single/resume');
    expect(resumed.body.data).toMatchObject({ paused: false, paused_reason: null });
    await waitForState(service, id, 'running');
    await service.request('POST', `/v1/client/job/${id}/cancel`);
    await waitForState(service, id, 'cancelled');
  });

  it('max_running raised runs more at once, a waiting job gives its place; null goes back to the configuration', async () => {
    const raised = await service.request('POST', '/v1/client/queues/t::single/max-running', {
      max_running: 2,
    });
    expect(raised.status).toBe(200);
    expect(raised.body.data).toMatchObject({ max_running: 2, configured_max_running: 1 });
    const ids = [];
    for (let i = 0; i < 4; i++) ids.push(await submit(service, sleeper));
    await waitForState(service, ids[0]!, 'running');
    await waitForState(service, ids[1]!, 'running');
    expect((await detail(service, ids[3]!)).system_note).toBe(
      'waiting for a slot: 2nd of 2 waiting in queue t::single; 2 of 2 running in queue t::single',
    );

    const back = await service.request('POST', '/v1/client/queues/t::single/max-running', {
      max_running: null,
    });
    expect(back.body.data).toMatchObject({ max_running: 1, configured_max_running: 1 });
    for (const id of ids) await service.request('POST', `/v1/client/job/${id}/cancel`);
    for (const id of ids) await waitForState(service, id, 'cancelled');
  });

  it('refuses what it cannot do, naming the field, and changes nothing', async () => {
    const refusals: [string, unknown, number, string][] = [
      ['t::nope/pause', {}, 404, 'queue: no queue "t::nope" in this project'],
      ['other::default/pause', {}, 404, 'queue: no queue "other::default" in this project'],
      [
        't::single/max-running',
        { max_running: 0 },
        400,
        'max_running: must be an integer of at least 1, or null for the configured value',
      ],
      [
        't::single/max-running',
        { max_running: 2.5 },
        400,
        'max_running: must be an integer of at least 1, or null for the configured value',
      ],
      [
        't::single/max-running',
        {},
        400,
        'max_running: must be an integer of at least 1, or null for the configured value',
      ],
      [
        't::single/max-running',
        { max_running: 17 },
        400,
        "max_running: must be at most 16, the queue's max_running_ceiling in the configuration",
      ],
      [
        't::single/pause',
        { reason: 'x'.repeat(201) },
        400,
        'reason: must be at most 200 characters',
      ],
      ['t::single/pause', [], 400, 'body must be a JSON object like { "reason": "…" }'],
    ];
    for (const [path, body, status, message] of refusals) {
      const response = await service.request('POST', `/v1/client/queues/${path}`, body);
      expect({ path, status: response.status, body: response.body }).toEqual({
        path,
        status,
        body: { ok: false, message },
      });
    }
    expect(await queueOf('t::single')).toMatchObject({ max_running: 1, paused: false });
  });

  it('a pause outlives a restart of the service', async () => {
    await service.request('POST', '/v1/client/queues/t::default/pause', { reason: 'upgrade' });
    await service.restart();
    expect(await queueOf('t::default')).toMatchObject({ paused: true, paused_reason: 'upgrade' });
    await service.request('POST', '/v1/client/queues/t::default/resume');
    const id = await submit(service, { job_definition: 't::echo:1' });
    await waitForState(service, id, 'completed');
  });
});
