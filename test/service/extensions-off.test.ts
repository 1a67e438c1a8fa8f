import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detail, submit, waitForState } from '../support/jobs';
import { startService, type TestService } from '../support/service';

let service: TestService;
beforeAll(async () => {
  service = await startService({ extensions: false });
});
afterAll(() => service?.stop());

describe('a service with the extensions switched off', () => {
  it("serves the spec's three operations", async () => {
    const id = await submit(service, { job_definition: 't::echo:1' });
    await waitForState(service, id, 'completed');
    expect((await detail(service, id)).state).toBe('completed');
    const cancel = await service.request('POST', `/v1/client/job/${id}/cancel`);
    expect(cancel.status).toBe(409);
  });

  it('answers every extension 404 like an unknown path, the health probe still 200', async () => {
    const id = await submit(service, { job_definition: 't::echo:1', job_queue: 't::paused' });
    const paths = [
      '/v1/client/jobs',
      `/v1/client/job/${id}/transitions`,
      `/v1/client/job/${id}/logs`,
      `/v1/client/job/${id}/execution`,
      `/v1/client/job/${id}/attempts`,
      `/v1/client/job/${id}/attempts/1/logs`,
      `/v1/client/job/${id}/dependencies`,
      `/v1/client/job/${id}/array`,
      '/v1/client/queues',
      '/v1/client/schedules',
      '/v1/client/definitions',
      '/v1/client/views',
      '/v1/client/bulk-actions',
      '/v1/client/webhooks',
      '/v1/client/trends',
      '/v1/client/keys',
      '/v1/client/members',
      '/v1/client/audit',
      '/v1/auth/session',
      '/v1/client/whoami',
      '/v1/client/events',
      '/v1/openapi.json',
    ];
    for (const path of paths) {
      const response = await service.request('GET', path);
      expect(response.status, path).toBe(404);
      expect(response.body, path).toEqual({ ok: false, message: `no endpoint GET ${path}` });
    }
    for (const path of [
      '/v1/client/queues/t::default/pause',
      '/v1/client/schedules/s/pause',
      '/v1/client/bulk-actions',
      '/v1/client/webhooks',
    ]) {
      const response = await service.request('POST', path, {});
      expect(response.body, path).toEqual({ ok: false, message: `no endpoint POST ${path}` });
    }
    expect((await service.request('GET', '/v1/health', undefined, null)).status).toBe(200);
    await service.request('POST', `/v1/client/job/${id}/cancel`);
  });

  it('refuses the extension fields of Job Submit like any field the spec lacks', async () => {
    const id = await submit(service, { job_definition: 't::echo:1' });
    for (const [field, value] of [
      ['retry', { attempts: 2 }],
      ['depends_on', [{ job_id: id }]],
      ['array', { size: 2 }],
    ] as const) {
      const response = await service.request('POST', '/v1/client/job', {
        job_definition: 't::echo:1',
        job_queue: 't::default',
        [field]: value,
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        ok: false,
        message: `${field}: is not a field of this payload`,
      });
    }
  });
});
