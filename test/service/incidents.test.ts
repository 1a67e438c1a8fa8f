import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobList, Trends } from '../../contract';
import { JOB_LABEL } from '../../server/runtime/job-container';
import { EngineLink } from '../support/engine-link';
import { detail, submit, waitForState } from '../support/jobs';
import { startService, type TestService } from '../support/service';

/**
 * Incident windows on the trends, with a real engine made unreachable for this service only (its
 * socket cut) and a queue paused through the API: each window says when, and how many of the
 * queue's jobs the outage ended `error`, with the filter that lists them for a retry.
 */
describe('incident windows on a queue’s trends', () => {
  const link = new EngineLink();
  let service: TestService;

  beforeAll(async () => {
    await link.open();
    service = await startService({
      engine: { type: 'docker', socket: link.path },
      reconcile_interval_seconds: 1,
    });
  });
  afterAll(async () => {
    await service.stop();
    await link.cut();
  });

  const trends = async () => {
    const response = await service.request('GET', '/v1/client/trends?queue=t::default');
    expect(response.status).toBe(200);
    return response.body.data as Trends;
  };

  it('marks a pause through the API from its pause to its resume, with its reason', async () => {
    expect((await trends()).incidents).toEqual([]);
    const before = Date.now();
    const pause = { reason: 'storage maintenance' };
    expect(
      (await service.request('POST', '/v1/client/queues/t::default/pause', pause)).status,
    ).toBe(200);
    const open = (await trends()).incidents!;
    expect(open).toMatchObject([
      { kind: 'queue_paused', ended_at: null, note: 'storage maintenance', ended_error: 0 },
    ]);
    expect(Date.parse(open[0]!.started_at)).toBeGreaterThanOrEqual(before - 5);
    expect((await service.request('POST', '/v1/client/queues/t::default/resume')).status).toBe(200);
    const [ended] = (await trends()).incidents!;
    expect(Date.parse(ended!.ended_at!)).toBeGreaterThanOrEqual(Date.parse(ended!.started_at));
    // Another queue's trends do not show this queue's pause.
    const other = await service.request('GET', '/v1/client/trends?queue=t::single');
    expect((other.body.data as Trends).incidents).toEqual([]);
  });

  it('marks an engine outage and counts the jobs it ended error, with the filter to retry them', async () => {
    const id = await submit(service, { job_definition: 't::sleep:1', job_queue: 't::default' });
    await waitForState(service, id, 'running');
    await link.cut();
    // The container dies while the service cannot see it: the engine may have ended it.
    const container = execFileSync('docker', ['ps', '-q', '--filter', `label=${JOB_LABEL}=${id}`])
      .toString()
      .trim();
    expect(container).not.toBe('');
    execFileSync('docker', ['kill', container]);
    await expect
      .poll(async () => (await trends()).incidents!.some((i) => i.kind === 'engine_unreachable'), {
        timeout: 15_000,
      })
      .toBe(true);
    await link.open();
    await waitForState(service, id, 'error');
    expect((await detail(service, id)).system_note).toMatch(
      /while the container engine was stopped or unreachable/,
    );
    let outage: Trends['incidents'] = [];
    await expect
      .poll(
        async () => {
          outage = (await trends()).incidents!.filter((i) => i.kind === 'engine_unreachable');
          return outage[0]?.ended_at !== null && outage[0]?.ended_error;
        },
        { timeout: 15_000 },
      )
      .toBe(1);
    const { errors_filter: filter } = outage[0]!;
    expect(filter).toMatchObject({ state: ['error'], queue: 't::default' });
    const query = new URLSearchParams({
      state: 'error',
      queue: filter.queue,
      ended_after: filter.ended_after,
      ended_before: filter.ended_before!,
    });
    const listed = await service.request('GET', `/v1/client/jobs?${query.toString()}`);
    expect((listed.body.data as JobList).items.map((job) => job.id)).toEqual([id]);
  });
});
