import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listPage, submit } from '../support/jobs';
import { startService, type TestService } from '../support/service';

/** The list's `id_suffix` filter: a job found by the short id the console shows. */
let service: TestService;

beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.stop());

const held = { job_definition: 't::echo:1', job_queue: 't::paused' };
const list = (query: string) => listPage(service, query);
const ids = async (query: string) => (await list(query)).items.map((item) => item.id);

describe('id_suffix', () => {
  it('finds a job by the end of its id, in either case, where jobs made together share the start', async () => {
    const jobs = await Promise.all([1, 2, 3].map(() => submit(service, held)));
    // UUIDv7: ids made together share their first digits (the time) and differ at the end.
    expect(new Set(jobs.map((id) => id.slice(0, 8))).size).toBeLessThan(jobs.length);
    for (const id of jobs) {
      expect(await ids(`id_suffix=${id.slice(-8)}`)).toEqual([id]);
      expect(await ids(`id_suffix=${id.slice(-6).toUpperCase()}`)).toEqual([id]);
      expect(await ids(`id_suffix=${id.slice(-12)}`)).toEqual([id]);
    }
    expect(await list(`id_suffix=${jobs[0]!.slice(-8)}`)).toMatchObject({
      total: 1,
      total_exact: true,
      next_cursor: null,
    });
    // Other filters still apply, and an end no job has finds nothing.
    expect(await ids(`id_suffix=${jobs[0]!.slice(-8)}&state=running`)).toEqual([]);
    const unused = jobs[0]!.slice(-6) === 'ffffff' ? 'eeeeee' : 'ffffff';
    expect((await ids(`id_suffix=${unused}`)).filter((id) => jobs.includes(id))).toEqual([]);
  });

  it('refuses an end that is too short, too long or not hex, naming the field', async () => {
    for (const bad of ['abc12', 'abcdef0123456', 'xyz123', '-4b2f1a', '']) {
      const response = await service.request('GET', `/v1/client/jobs?id_suffix=${bad}`);
      expect(response.status, bad).toBe(400);
      expect(response.body).toEqual({
        ok: false,
        message: expect.stringContaining('id_suffix: must be 6 to 12 hex digits') as unknown,
      });
    }
  });

  it('is no filter of a bulk action', async () => {
    const response = await service.request('POST', '/v1/client/bulk-actions', {
      action: 'cancel',
      filter: { id_suffix: 'abcdef' },
    });
    expect(response.status).toBe(400);
    expect(response.body.message).toContain('id_suffix');
  });
});
