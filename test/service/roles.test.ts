import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_ROLES, ROLES, roleAllows, type Role } from '../../contract';
import { submit, shScript } from '../support/jobs';
import { startService, type TestService } from '../support/service';

let service: TestService;
const keys = {} as Record<Role, string>;
let jobId: string;

beforeAll(async () => {
  service = await startService();
  for (const role of ROLES) {
    const created = await service.cli('keys', 'create', '--project', 't', '--role', role);
    keys[role] = created.match(/jd_\S+/)![0];
  }
  jobId = await submit(service, shScript('sleep 30'));
}, 60_000);
afterAll(() => service.stop());

/** A concrete request for a documented path: the job is real, the other names need not be. */
const concrete = (path: string) =>
  path
    .replace('{job_id}', jobId)
    .replace('{attempt}', '1')
    .replace('{queue}', 'default')
    .replace(/\{(name|id)\}/, 'no-such-thing');

/** Status and, for refusals, the message; streams (the event stream) are cut after the head. */
async function call(method: string, path: string, key: string) {
  const response = await fetch(`${service.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: ['POST', 'PUT', 'PATCH'].includes(method) ? '{}' : undefined,
    signal: AbortSignal.timeout(10_000),
  });
  const status = response.status;
  const json = status === 200 && method === 'GET' && path.endsWith('/events') ? null : response;
  const body = json ? ((await json.json()) as { message?: string }) : null;
  if (!json) await response.body?.cancel();
  return { status, message: body?.message };
}

describe('roles', () => {
  const operations = Object.entries(OPERATION_ROLES);

  // Read-only calls first: the state-changing ones below act for real (cancel the job, pause).
  const ordered = [
    ...operations.filter(([operation]) => operation.startsWith('GET ')),
    ...operations.filter(([operation]) => !operation.startsWith('GET ')),
  ];

  it.each(ordered)('%s needs the %s role, and no less', async (operation, needed) => {
    const [method, path] = operation.split(' ') as [string, string];
    for (const role of ROLES) {
      const { status, message } = await call(method, concrete(path), keys[role]);
      if (roleAllows(role, needed)) {
        expect(status, `${role}: ${message}`).not.toBe(403);
        // The route exists: an unknown one is a 404 saying "no endpoint".
        expect(message ?? '', role).not.toMatch(/^no endpoint/);
      } else {
        expect(status, role).toBe(403);
        expect(message).toBe(
          `role: ${method} ${path} needs the ${needed} role; this API key has ${role} in this project`,
        );
      }
    }
  });

  it('answers who acts and with which role', async () => {
    const response = await service.request('GET', '/v1/client/whoami', undefined, keys.viewer);
    expect(response.body.data).toMatchObject({
      project: 't',
      role: 'viewer',
      actor: expect.stringMatching(/^key:key_[0-9a-f]{12}$/) as string,
    });
    // The key every earlier release made keeps every right it had.
    expect((await service.request('GET', '/v1/client/whoami')).body.data).toMatchObject({
      role: 'admin',
    });
  });
});

describe('keys managed over the API', () => {
  it('creates a key with a role and an expiry, shows it once, lists and revokes it', async () => {
    const created = await service.request('POST', '/v1/client/keys', {
      label: 'deploy bot',
      role: 'viewer',
      expires_in_days: 30,
    });
    expect(created.status).toBe(201);
    const key = created.body.data as { id: string; key: string; expires_at: string };
    expect(key).toMatchObject({ label: 'deploy bot', role: 'viewer', revoked_at: null });
    expect(Date.parse(key.expires_at) - Date.now()).toBeGreaterThan(29 * 86_400_000);
    const whoami = await service.request('GET', '/v1/client/whoami', undefined, key.key);
    expect(whoami.body.data).toMatchObject({ role: 'viewer', actor: `key:${key.id}` });

    const listed = await service.request('GET', '/v1/client/keys');
    expect(listed.text).not.toContain(key.key);
    const items = (listed.body.data as { items: { id: string; last_used_at: string | null }[] })
      .items;
    expect(items[0]).toMatchObject({ id: key.id });

    expect((await service.request('DELETE', `/v1/client/keys/${key.id}`)).status).toBe(200);
    const after = await service.request('GET', '/v1/client/whoami', undefined, key.key);
    expect(after.status).toBe(401);
  });

  it('defaults a new key to operator, names bad fields, and keeps other projects’ keys apart', async () => {
    const created = await service.request('POST', '/v1/client/keys', { label: 'ci' });
    expect((created.body.data as { role: string }).role).toBe('operator');
    for (const [body, message] of [
      [{}, 'label: '],
      [{ label: 'x', role: 'owner' }, 'role: must be one of viewer, operator, admin'],
      [{ label: 'x', expires_in_days: 0 }, 'expires_in_days: must be a whole number of days'],
      [{ label: 'x', secret: 1 }, 'secret'],
    ] as const) {
      const refused = await service.request('POST', '/v1/client/keys', body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.message).toContain(message);
    }
    const other = (
      await service.cli('keys', 'create', '--project', 'other', '--role', 'admin')
    ).match(/jd_\S+/)![0];
    const theirs = await service.request('GET', '/v1/client/keys', undefined, other);
    expect(JSON.stringify(theirs.body)).not.toContain((created.body.data as { id: string }).id);
    const revoke = await service.request(
      'DELETE',
      `/v1/client/keys/${(created.body.data as { id: string }).id}`,
      undefined,
      other,
    );
    expect(revoke.status).toBe(404);
  });
});
