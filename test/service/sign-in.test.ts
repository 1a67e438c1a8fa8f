import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Session } from '../../contract';
import { addUser, asSignedIn, signIn, type SignedIn } from '../support/console-session';
import { CLI, startService, type TestService } from '../support/service';

let service: TestService;
const PASSWORD = 'correct horse battery';

const signedIn = async (email: string, password = PASSWORD, cookie?: string) => {
  const result = await signIn(service.baseUrl, email, password, cookie);
  if (!('cookie' in result)) throw new Error(`sign-in refused: ${result.message}`);
  return result;
};

const sessionOf = async (cookie?: string) => {
  const response = await fetch(`${service.baseUrl}/v1/auth/session`, {
    headers: cookie ? { cookie } : {},
  });
  return ((await response.json()) as { data: Session }).data;
};

beforeAll(async () => {
  service = await startService({ auth: { sign_in_failures: 3 } }, undefined, { withConsole: true });
}, 60_000);
afterAll(() => service.stop());

describe('the console on loopback with nobody to sign in', () => {
  it('acts as a local administrator through its proxy, as before', async () => {
    expect(await sessionOf()).toMatchObject({ mode: 'local', user: null, csrf_token: null });
    const viaConsole = await fetch(`${service.consoleUrl()}/v1/client/whoami`);
    expect(((await viaConsole.json()) as { data: { role: string } }).data.role).toBe('admin');
  });
});

describe('local users', () => {
  let alice: SignedIn;

  beforeAll(async () => {
    await addUser(service, 'Alice@Example.test', PASSWORD, { project: 't', role: 'operator' });
    await addUser(service, 'vic@example.test', PASSWORD, { project: 't', role: 'viewer' });
    alice = await signedIn('alice@example.test');
  }, 60_000);

  it('needs sign-in from then on: the console proxy stops injecting its key', async () => {
    await vi.waitUntil(async () => (await sessionOf()).mode === 'sign-in', { timeout: 10_000 });
    const viaConsole = await fetch(`${service.consoleUrl()}/v1/client/whoami`);
    expect(viaConsole.status).toBe(401);
  });

  it('signs in with a session cookie that is HttpOnly, SameSite=Strict, for the whole site', async () => {
    alice = await signedIn('alice@example.test');
    expect(alice.setCookie).toMatch(/^jobdeck_session=[A-Za-z0-9_-]{43}; /);
    expect(alice.setCookie).toContain('HttpOnly');
    expect(alice.setCookie).toContain('SameSite=Strict');
    expect(alice.setCookie).toContain('Path=/');
    expect(alice.session).toMatchObject({
      mode: 'sign-in',
      user: { identity: 'alice@example.test', source: 'local' },
      projects: [{ project: 't', role: 'operator' }],
    });
  });

  it('acts as the user in its project, and needs the CSRF token to change anything', async () => {
    const whoami = await asSignedIn(service.baseUrl, alice, 'GET', '/v1/client/whoami');
    expect(whoami.body.data).toMatchObject({
      project: 't',
      role: 'operator',
      actor: 'user:alice@example.test',
    });
    const job = { job_definition: 't::echo:1', job_queue: 't::default' };
    const forged = await asSignedIn(service.baseUrl, alice, 'POST', '/v1/client/job', {
      body: job,
      csrf: null,
    });
    expect(forged.status).toBe(403);
    expect(forged.body.message).toMatch(/^x-csrf-token: missing or not this session's/);
    const wrong = await asSignedIn(service.baseUrl, alice, 'POST', '/v1/client/job', {
      body: job,
      csrf: 'x'.repeat(43),
    });
    expect(wrong.status).toBe(403);
    const submitted = await asSignedIn(service.baseUrl, alice, 'POST', '/v1/client/job', {
      body: job,
    });
    expect(submitted.status).toBe(202);

    const elsewhere = await asSignedIn(service.baseUrl, alice, 'GET', '/v1/client/jobs', {
      project: 'other',
    });
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body.message).toBe(
      'x-jobdeck-project: alice@example.test is not a member of project "other"',
    );
  });

  it('holds a viewer to reading', async () => {
    const vic = await signedIn('vic@example.test');
    const refused = await asSignedIn(service.baseUrl, vic, 'POST', '/v1/client/job', {
      body: { job_definition: 't::echo:1', job_queue: 't::default' },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(
      'role: POST /v1/client/job needs the operator role; you have viewer in this project',
    );
    expect((await asSignedIn(service.baseUrl, vic, 'GET', '/v1/client/jobs')).status).toBe(200);
  });

  it('names an e-mail or password too long by its length, and refuses a null body', async () => {
    const long = await signIn(service.baseUrl, `${'a'.repeat(250)}@example.test`, 'p'.repeat(1025));
    expect(long).toEqual({
      status: 400,
      message: 'email: must be at most 254 characters; password: must be at most 1024 characters',
      retryAfter: null,
    });
    for (const path of ['/v1/auth/sign-in', '/v1/auth/sign-out']) {
      const response = await fetch(`${service.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: 'null',
      });
      expect(response.status, path).toBe(400);
      expect(((await response.json()) as { message: string }).message, path).toMatch(
        /^body must be a JSON object like /,
      );
    }
  });

  it('answers a wrong password and an unknown user alike, and limits guesses per address tried', async () => {
    const wrong = await signIn(service.baseUrl, 'vic@example.test', 'not the password');
    const unknown = await signIn(service.baseUrl, 'nobody@example.test', 'not the password');
    expect(wrong).toEqual({
      status: 401,
      message: 'email or password: not recognised',
      retryAfter: null,
    });
    expect(unknown).toEqual(wrong);
    // Three failures per address (this service's setting), known user or not: then 429 for both,
    // even with the right password.
    for (let i = 0; i < 2; i += 1) {
      await signIn(service.baseUrl, 'vic@example.test', 'not the password');
      await signIn(service.baseUrl, 'nobody@example.test', 'not the password');
    }
    const locked = await signIn(service.baseUrl, 'vic@example.test', PASSWORD);
    const lockedUnknown = await signIn(service.baseUrl, 'nobody@example.test', PASSWORD);
    expect(locked).toMatchObject({ status: 429, retryAfter: '900' });
    expect(locked).toMatchObject({
      message: 'email: too many failed sign-ins for this address; retry after 900 s',
    });
    expect(lockedUnknown).toEqual(locked);
    // Other addresses are untouched.
    expect(await signIn(service.baseUrl, 'alice@example.test', PASSWORD)).toHaveProperty('cookie');
  });

  it('starts a new session at sign-in and ends the one the browser held (no fixation)', async () => {
    const first = await signedIn('alice@example.test');
    const second = await signedIn('alice@example.test', PASSWORD, first.cookie);
    expect(second.cookie).not.toBe(first.cookie);
    expect((await asSignedIn(service.baseUrl, first, 'GET', '/v1/client/whoami')).status).toBe(401);
    expect((await asSignedIn(service.baseUrl, second, 'GET', '/v1/client/whoami')).status).toBe(
      200,
    );
  });

  it('signs out one session, or every session of the user', async () => {
    const one = await signedIn('alice@example.test');
    const two = await signedIn('alice@example.test');
    const signOut = (who: SignedIn, body: unknown, csrf = who.csrf) =>
      fetch(`${service.baseUrl}/v1/auth/sign-out`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: who.cookie, 'x-csrf-token': csrf },
        body: JSON.stringify(body),
      });
    // A null body is refused like any other that is not an object: the session stays.
    expect((await signOut(one, null)).status).toBe(400);
    expect((await asSignedIn(service.baseUrl, one, 'GET', '/v1/client/whoami')).status).toBe(200);
    expect((await signOut(one, {}, 'forged')).status).toBe(403);
    const out = await signOut(one, {});
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/^jobdeck_session=; /);
    expect((await asSignedIn(service.baseUrl, one, 'GET', '/v1/client/whoami')).status).toBe(401);
    expect((await asSignedIn(service.baseUrl, two, 'GET', '/v1/client/whoami')).status).toBe(200);
    expect((await signOut(two, { everywhere: true })).status).toBe(200);
    expect((await asSignedIn(service.baseUrl, two, 'GET', '/v1/client/whoami')).status).toBe(401);
    expect((await asSignedIn(service.baseUrl, alice, 'GET', '/v1/client/whoami')).status).toBe(401);
  });

  it('keeps passwords and session tokens out of the store files and the output', async () => {
    const { readFileSync } = await import('node:fs');
    const token = (await signedIn('alice@example.test')).cookie.split('=')[1]!;
    for (const file of await service.storeFiles()) {
      const bytes = readFileSync(file);
      expect(bytes.includes(PASSWORD), file).toBe(false);
      expect(bytes.includes(token), file).toBe(false);
    }
    expect(service.output()).not.toContain(PASSWORD);
  });
});

describe('a console beyond loopback', () => {
  it('does not start while nobody can sign in, and says what to set', async () => {
    const { execFile } = await import('node:child_process');
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = mkdtempSync(join(tmpdir(), 'jobdeck-open-console-'));
    const file = join(dir, 'jobdeck.yaml');
    writeFileSync(
      file,
      `host: 0.0.0.0\nport: 0\nconsole_port: 0\ndata_dir: ${dir}\nprojects: {}\n`,
    );
    const stderr = await new Promise<string>((resolve) => {
      execFile(
        process.execPath,
        [...CLI, 'start', '--config', file],
        { timeout: 30_000 },
        (_e, _out, err) => resolve(err),
      );
    });
    expect(stderr.trim()).toBe(
      'jobdeck: host: the console listens on 0.0.0.0, beyond loopback, and nobody can sign in: add a user (jobdeck users add EMAIL --project PROJECT --role admin), configure auth.oidc, or start with --no-console',
    );
  });
});

describe('members over the API', () => {
  it('adds, changes and removes members, keeping one admin', async () => {
    const put = (identity: string, role: string) =>
      service.request('PUT', `/v1/client/members/${encodeURIComponent(identity)}`, { role });
    expect((await put('Dana@Example.test', 'admin')).status).toBe(201);
    expect((await put('dana@example.test', 'admin')).body.data).toMatchObject({
      identity: 'dana@example.test',
      role: 'admin',
      added_by: expect.stringMatching(/^key:/) as string,
    });
    const demote = await put('dana@example.test', 'viewer');
    expect(demote.status).toBe(409);
    expect(demote.body.message).toBe(
      'role: the project would be left without an admin member; make another one admin first',
    );
    expect((await put('sub:google|123', 'admin')).status).toBe(201);
    expect((await put('dana@example.test', 'viewer')).status).toBe(200);
    const bad = await put('not an identity', 'viewer');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(
      'identity: must be an e-mail address or sub:<OpenID Connect subject>',
    );
    expect((await put('eve@example.test', 'owner')).body.message).toBe(
      'role: must be one of viewer, operator, admin',
    );
    const listed = await service.request('GET', '/v1/client/members');
    const identities = (listed.body.data as { items: { identity: string }[] }).items.map(
      (m) => m.identity,
    );
    expect(identities).toEqual(expect.arrayContaining(['dana@example.test', 'sub:google|123']));
    expect(
      (
        await service.request(
          'DELETE',
          `/v1/client/members/${encodeURIComponent('dana@example.test')}`,
        )
      ).status,
    ).toBe(200);
    const gone = await service.request('DELETE', '/v1/client/members/dana%40example.test');
    expect(gone.status).toBe(404);
    const trail = await service.request('GET', '/v1/client/audit?target=dana%40example.test');
    const actions = (trail.body.data as { items: { action: string }[] }).items.map((e) => e.action);
    // Added, set to admin again, made a viewer (the refused change records nothing), removed.
    expect(actions).toEqual(['member.remove', 'member.update', 'member.update', 'member.add']);
  });

  it('takes an identity as long as its limit in the path, and names it past that', async () => {
    const long = `${'d'.repeat(240)}@example.test`;
    const path = `/v1/client/members/${encodeURIComponent(long)}`;
    expect((await service.request('PUT', path, { role: 'viewer' })).status).toBe(201);
    expect((await service.request('DELETE', path)).status).toBe(200);
    const tooLong = await service.request('PUT', `/v1/client/members/${'d'.repeat(255)}`, {
      role: 'viewer',
    });
    expect(tooLong.status).toBe(414);
    expect(tooLong.body).toEqual({
      ok: false,
      message: 'identity: must be at most 254 characters',
    });
    const nullBody = await service.request('PUT', path, 'null');
    expect(nullBody.status).toBe(400);
    expect(nullBody.body.message).toBe('body must be a JSON object like { "role": "operator" }');
  });

  it('records sign-ins and sign-outs in the trail of each project of the user', async () => {
    const trail = await service.request('GET', '/v1/client/audit?action=user.sign_in');
    const events = (trail.body.data as { items: { actor: string; target: string }[] }).items;
    expect(events.some((e) => e.actor === 'user:alice@example.test')).toBe(true);
    const failed = await service.request('GET', '/v1/client/audit?action=user.sign_in_failed');
    // A failed sign-in belongs to no project: no project's trail shows it.
    expect((failed.body.data as { items: unknown[] }).items).toEqual([]);
  });
});
