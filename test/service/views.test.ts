import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SavedView } from '../../contract';
import { startService, type TestService } from '../support/service';

/** The jobs table's views a project shares, through the real service. */
let service: TestService;
let otherKey: string;

beforeAll(async () => {
  service = await startService();
  otherKey = (await service.cli('keys', 'create', '--project', 'other')).match(/jd_\S+/)![0];
});
afterAll(() => service.stop());

const path = (name: string) => `/v1/client/views/${encodeURIComponent(name)}`;
const listed = async (key?: string) =>
  (
    (await service.request('GET', '/v1/client/views', undefined, key)).body.data as {
      items: SavedView[];
    }
  ).items;

describe('saved views', () => {
  it('are saved, replaced, listed by name and deleted, per project', async () => {
    const saved = await service.request('PUT', path('Failed today'), {
      search: 'state=failed&created=24h',
    });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({
      name: 'Failed today',
      search: 'state=failed&created=24h',
    });
    const view = saved.body.data as SavedView;
    expect(service.key).not.toContain(view.created_by);
    await service.request('PUT', path('data / team'), { search: 'label=team%3Ddata' });
    await service.request('PUT', path('Failed today'), { search: 'state=failed' });
    expect((await listed()).map((v) => [v.name, v.search])).toEqual([
      ['Failed today', 'state=failed'],
      ['data / team', 'label=team%3Ddata'],
    ]);
    // Another project sees none of them, and cannot delete them.
    expect(await listed(otherKey)).toEqual([]);
    const theirs = await service.request('DELETE', path('Failed today'), undefined, otherKey);
    expect(theirs.status).toBe(404);
    expect((await service.request('DELETE', path('Failed today'))).body).toEqual({ ok: true });
    expect((await listed()).map((v) => v.name)).toEqual(['data / team']);
  });

  it('refuses a bad name or body, naming the field', async () => {
    const refusals: [string, unknown, number, string][] = [
      [
        path('x'.repeat(65)),
        { search: '' },
        400,
        'name: must be 1 to 64 characters, without control characters',
      ],
      [path(' padded'), { search: '' }, 400, 'name: must not begin or end with spaces'],
      [path('ok'), { search: 'x'.repeat(2001) }, 400, 'search: must be at most 2000 characters'],
      [path('ok'), { search: 7 }, 400, 'search: must be a string'],
      [path('ok'), { search: '', extra: 1 }, 400, 'extra'],
    ];
    for (const [url, body, status, message] of refusals) {
      const response = await service.request('PUT', url, body);
      expect(response.status, url).toBe(status);
      expect(response.body.ok).toBe(false);
      expect(response.body.message as string, url).toContain(message);
    }
    const missing = await service.request('DELETE', path('nope'));
    expect(missing.body).toEqual({ ok: false, message: 'name: no view "nope" in this project' });
  });
});
