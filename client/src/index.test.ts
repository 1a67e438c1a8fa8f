import { afterEach, describe, expect, it, vi } from 'vitest';
import { createJobdeckClient } from '.';

afterEach(() => vi.unstubAllGlobals());

/** The Idempotency-Key of each request the client made (null: none). */
function recordingFetch() {
  const keys: (string | null)[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (request: Request) => {
      keys.push(request.headers.get('idempotency-key'));
      return Response.json({ ok: true, data: { id: 'j' } }, { status: 202 });
    }),
  );
  return keys;
}

describe('createJobdeckClient', () => {
  it('sends a fresh Idempotency-Key with every Job Submit that gives none, and no other call', async () => {
    const keys = recordingFetch();
    const client = createJobdeckClient({ url: 'http://jobdeck.test', apiKey: 'k' });
    const body = { job_definition: 'p::d:1', job_queue: 'p::q' };
    await client.POST('/v1/client/job', { body });
    await client.POST('/v1/client/job', { body });
    await client.POST('/v1/client/job', {
      body,
      params: { header: { 'idempotency-key': 'mine' } },
    });
    await client.POST('/v1/client/job/{job_id}/cancel', { params: { path: { job_id: 'j' } } });
    const [a, b, given, cancel] = keys;
    expect(a).toMatch(/^[0-9a-f-]{36}$/);
    expect(b).toMatch(/^[0-9a-f-]{36}$/);
    expect(a).not.toBe(b);
    expect(given).toBe('mine');
    expect(cancel).toBeNull();
  });
});
