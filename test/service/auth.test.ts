import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../support/service';
import { submit, waitForState } from '../support/jobs';

let service: TestService;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.stop());

describe('API keys', () => {
  it('answers 401 for a missing, malformed, unknown or revoked key', async () => {
    const path = '/v1/client/job/x';
    const missing = await service.request('GET', path, undefined, null);
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({
      ok: false,
      message: 'Authorization: missing; send "Authorization: Bearer <API_KEY>"',
    });

    const malformed = await fetch(`${service.baseUrl}${path}`, {
      headers: { authorization: 'Token abc' },
    });
    expect(malformed.status).toBe(401);
    expect(await malformed.json()).toEqual({
      ok: false,
      message: 'Authorization: must be "Bearer <API_KEY>"',
    });

    const unknown = await service.request('GET', path, undefined, 'jd_not-a-real-key');
    expect(unknown.status).toBe(401);
    expect(unknown.body.message).toBe('Authorization: unknown or revoked API key');

    const key = await service.cli('keys', 'create', '--project', 't', '--label', 'to revoke');
    expect((await service.request('GET', '/v1/client/jobs', undefined, key)).status).toBe(200);
    const listed = await service.cli('keys', 'list');
    const id = listed
      .split('\n')
      .find((line) => line.endsWith('to revoke'))!
      .split('\t')[0]!;
    expect(listed).not.toContain(key);
    await service.cli('keys', 'revoke', id);
    const revoked = await service.request('GET', '/v1/client/jobs', undefined, key);
    expect(revoked.status).toBe(401);
    expect(revoked.body.message).toBe('Authorization: unknown or revoked API key');
  });

  it('stores keys only as hashes', async () => {
    const { readFileSync } = await import('node:fs');
    const { createHash } = await import('node:crypto');
    const key = await service.cli('keys', 'create', '--project', 't');
    const files = await service.storeFiles();
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(readFileSync(file).includes(key), file).toBe(false);
    // The hash is there: the files read are those the keys are kept in.
    const hash = createHash('sha256').update(key).digest('hex');
    expect(files.some((file) => readFileSync(file).includes(hash))).toBe(true);
  });

  it("hides another project's jobs behind a 404, for detail, cancel and the extensions", async () => {
    const otherKey = await service.cli('keys', 'create', '--project', 'other');
    const mine = await submit(service, { job_definition: 't::sleep:1' });
    for (const [method, path] of [
      ['GET', `/v1/client/job/${mine}`],
      ['POST', `/v1/client/job/${mine}/cancel`],
      ['GET', `/v1/client/job/${mine}/logs`],
      ['GET', `/v1/client/job/${mine}/transitions`],
    ] as const) {
      const response = await service.request(method, path, undefined, otherKey);
      expect(response.status, path).toBe(404);
      expect(response.body.message).toBe(`job_id: no job "${mine}" in this project`);
    }
    const list = await service.request('GET', '/v1/client/jobs', undefined, otherKey);
    expect((list.body.data as { items: unknown[] }).items).toEqual([]);
    // The other project's key did not cancel it.
    expect((await waitForState(service, mine, 'running')).state).toBe('running');
    await service.request('POST', `/v1/client/job/${mine}/cancel`);
  });

  it('refuses keys create for an undeclared project', async () => {
    await expect(service.cli('keys', 'create', '--project', 'nope')).rejects.toThrow(
      /--project: no project "nope" in the configuration/,
    );
  });
});

describe('rate limit', () => {
  it('answers 429 with Retry-After past the per-key limit', async () => {
    const limited = await (
      await import('../support/service')
    ).startService({ rate_limit_per_minute: 3 });
    try {
      const statuses: number[] = [];
      let last;
      for (let i = 0; i < 5; i += 1) {
        last = await limited.request('GET', '/v1/client/job/x');
        statuses.push(last.status);
      }
      expect(statuses).toEqual([404, 404, 404, 429, 429]);
      expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(last!.body.message).toMatch(
        /^rate limit: at most 3 requests per minute per API key; retry after /,
      );
    } finally {
      await limited.stop();
    }
  });
});
