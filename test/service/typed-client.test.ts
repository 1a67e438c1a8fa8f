import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../support/service';
import { createJobdeckClient, JobdeckApiError, unwrap } from '../../client/src';

/**
 * A client generated from the OpenAPI document (openapi-typescript's types, openapi-fetch's
 * calls) drives the real service: the document is good enough for other people's tools. Every
 * call below is type-checked against the document by `npm run typecheck`.
 */
describe('the typed client (@jobdeck/client), generated from the OpenAPI document', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService();
  });
  afterAll(() => service.stop());

  const client = () => createJobdeckClient({ url: `${service.baseUrl}/v1`, apiKey: service.key });

  it('submits, reads and cancels a job', async () => {
    const submitted = await client().POST('/v1/client/job', {
      body: { job_definition: 't::sleep:1', job_queue: 't::default', name: 'typed-client' },
    });
    expect(submitted.response.status).toBe(202);
    const id = submitted.data!.data.id;

    const detail = await client().GET('/v1/client/job/{job_id}', {
      params: { path: { job_id: id } },
    });
    expect(detail.data?.data).toMatchObject({ id, name: 'typed-client' });

    const cancel = await client().POST('/v1/client/job/{job_id}/cancel', {
      params: { path: { job_id: id } },
    });
    expect(cancel.response.status).toBe(202);
    expect(cancel.data).toEqual({ ok: true });
  });

  it('sends an Idempotency-Key with each submit: a fresh one, or the one given, which answers again with its job', async () => {
    const body = { job_definition: 't::echo:1', job_queue: 't::paused' };
    const fresh = async () => (await unwrap(client().POST('/v1/client/job', { body }))).data.id;
    expect(await fresh()).not.toBe(await fresh());
    const params = { header: { 'idempotency-key': `typed-client-${Date.now()}` } };
    const keyed = async () =>
      (await unwrap(client().POST('/v1/client/job', { body, params }))).data.id;
    expect(await keyed()).toBe(await keyed());
    const other = client().POST('/v1/client/job', {
      body: { ...body, name: 'typed-client-other' },
      params,
    });
    await expect(unwrap(other)).rejects.toMatchObject({
      status: 409,
      message: expect.stringMatching(/^Idempotency-Key: /),
    });
  });

  it('gets the documented error shape for a bad submission', async () => {
    const refused = await client().POST('/v1/client/job', {
      body: { job_definition: 'nope', job_queue: 't::default' },
    });
    expect(refused.response.status).toBe(400);
    expect(refused.error).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^job_definition: /),
    });
  });

  it("throws the service's own message from unwrap", async () => {
    const refused = unwrap(
      client().GET('/v1/client/job/{job_id}', { params: { path: { job_id: 'no-such-job' } } }),
    );
    await expect(refused).rejects.toBeInstanceOf(JobdeckApiError);
    await expect(refused).rejects.toMatchObject({
      status: 404,
      message: expect.stringMatching(/job/),
    });
  });
});
