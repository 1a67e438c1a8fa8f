import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../../contract';
import { signInAtProvider } from '../support/oidc-login';
import type { TestOidcProvider } from '../support/oidc-provider';
import { startServiceWithProvider } from '../support/oidc-service';
import { freePort } from '../support/free-port';
import { startService, type TestService } from '../support/service';

let provider: TestOidcProvider;
let service: TestService;
let consoleUrl: string;
let redirectUri: string;
let stop: () => Promise<void>;

beforeAll(async () => {
  ({ provider, service, consoleUrl, redirectUri, stop } = await startServiceWithProvider());
}, 150_000);
afterAll(() => stop?.());

const cookieOf = (response: Response, name: string) =>
  response.headers
    .getSetCookie()
    .find((c) => c.startsWith(`${name}=`))
    ?.split(';')[0];

/** The browser's walk through the console: start, the provider's pages, the callback. */
async function signInThroughProvider(login: string, returnTo = '/jobs?state=failed') {
  const start = await fetch(
    `${consoleUrl}/v1/auth/oidc/start?return_to=${encodeURIComponent(returnTo)}`,
    { redirect: 'manual' },
  );
  expect(start.status).toBe(303);
  const stateCookie = start.headers
    .getSetCookie()
    .find((c) => c.startsWith('jobdeck_oidc_state='))!;
  const callback = await signInAtProvider(start.headers.get('location')!, { login, redirectUri });
  // As a browser comes back from the provider's site: a cross-site navigation.
  const back = await fetch(callback, {
    redirect: 'manual',
    headers: { cookie: stateCookie.split(';')[0]!, 'sec-fetch-site': 'cross-site' },
  });
  return { start, stateCookie, callback, back, session: cookieOf(back, 'jobdeck_session') };
}

const whoami = (cookie: string | undefined) =>
  fetch(`${consoleUrl}/v1/client/whoami`, { headers: cookie ? { cookie } : {} });

describe('sign-in through an OpenID Provider', () => {
  it('offers the provider on the sign-in page and needs sign-in', async () => {
    const session = (await (await fetch(`${consoleUrl}/v1/auth/session`)).json()) as {
      data: Session;
    };
    expect(session.data).toMatchObject({
      mode: 'sign-in',
      methods: { oidc: 'Test IdP' },
      user: null,
    });
    expect((await whoami(undefined)).status).toBe(401);
  });

  it('signs in at the real provider and returns to the page asked for, with a group’s role', async () => {
    const { stateCookie, back, session } = await signInThroughProvider('alice@example.test');
    expect(stateCookie).toMatch(/HttpOnly/);
    expect(stateCookie).toMatch(/SameSite=Lax/);
    expect(stateCookie).toMatch(/Path=\/v1\/auth\/oidc\/callback/);
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toBe('/jobs?state=failed');
    expect(session).toMatch(/^jobdeck_session=/);
    const me = (await (await whoami(session)).json()) as { data: Record<string, unknown> };
    expect(me.data).toMatchObject({
      project: 't',
      role: 'admin',
      actor: 'user:alice@example.test',
    });
  });

  it('signs in a user without membership, who then sees nothing until an admin adds it', async () => {
    const { session } = await signInThroughProvider('bob@example.test');
    const refused = await whoami(session);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toBe(
      "members: bob@example.test is not a member of any project; a project's admin can add it",
    );
    await service.request('PUT', '/v1/client/members/bob%40example.test', { role: 'viewer' });
    const me = (await (await whoami(session)).json()) as { data: Record<string, unknown> };
    expect(me.data).toMatchObject({ role: 'viewer', actor: 'user:bob@example.test' });
  });

  it('refuses a callback in a browser that did not start it, and a callback used twice', async () => {
    const start = await fetch(`${consoleUrl}/v1/auth/oidc/start`, { redirect: 'manual' });
    const callback = await signInAtProvider(start.headers.get('location')!, {
      login: 'alice@example.test',
      redirectUri,
    });
    // Another person's browser, sent this link: no state cookie of its own.
    const forced = await fetch(callback, { redirect: 'manual' });
    expect(forced.status).toBe(303);
    expect(forced.headers.get('location')).toBe(
      `/sign-in?error=${encodeURIComponent('This sign-in was not started in this browser: please start again.')}`,
    );
    expect(cookieOf(forced, 'jobdeck_session')).toBeUndefined();

    const { callback: used, stateCookie } = await signInThroughProvider('alice@example.test');
    const replay = await fetch(used, {
      redirect: 'manual',
      headers: { cookie: stateCookie.split(';')[0]! },
    });
    expect(replay.headers.get('location')).toBe(
      `/sign-in?error=${encodeURIComponent('This sign-in has expired: please start again.')}`,
    );
  });

  it('never returns to another site after sign-in (open redirect)', async () => {
    for (const returnTo of ['//evil.example/x', '/\\evil.example', 'https://evil.example/']) {
      const { back } = await signInThroughProvider('alice@example.test', returnTo);
      expect(back.headers.get('location'), returnTo).toBe('/');
    }
  });

  /** Starts a sign-in (with `query`), cancels it at the provider: where the console sends back. */
  async function cancelledAtProvider(query = ''): Promise<string | null> {
    const start = await fetch(`${consoleUrl}/v1/auth/oidc/start${query}`, { redirect: 'manual' });
    const stateCookie = start.headers.getSetCookie()[0]!.split(';')[0]!;
    const callback = await signInAtProvider(start.headers.get('location')!, {
      login: 'alice@example.test',
      redirectUri,
      cancel: true,
    });
    const back = await fetch(callback, { redirect: 'manual', headers: { cookie: stateCookie } });
    return back.headers.get('location');
  }

  it('says so when the person cancels at the provider', async () => {
    expect(await cancelledAtProvider()).toBe(
      `/sign-in?error=${encodeURIComponent('The identity provider did not sign you in (access_denied).')}`,
    );
  });

  it('keeps where the sign-in was going when the provider does not sign the person in', async () => {
    expect(await cancelledAtProvider('?return_to=%2Fjobs%3Fstate%3Dfailed')).toBe(
      `/sign-in?error=${encodeURIComponent('The identity provider did not sign you in (access_denied).')}&return_to=%2Fjobs%3Fstate%3Dfailed`,
    );
  });

  it('keeps the client secret out of the output', () => {
    expect(service.output()).not.toContain(provider.clientSecret);
  });
});

describe('an identity provider that cannot be reached', () => {
  let unreachable: TestService;
  beforeAll(async () => {
    const deadIssuer = `http://127.0.0.1:${await freePort()}`;
    unreachable = await startService(
      {
        auth: {
          public_url: 'http://127.0.0.1:1',
          oidc: { issuer: deadIssuer, client_id: 'jobdeck', allow_insecure_issuer: true },
        },
      },
      undefined,
      { withConsole: true, env: { JOBDECK_OIDC_CLIENT_SECRET: 'unused' } },
    );
  }, 60_000);
  afterAll(() => unreachable?.stop());

  const startAt = (returnTo: string) =>
    fetch(
      `${unreachable.consoleUrl()}/v1/auth/oidc/start?return_to=${encodeURIComponent(returnTo)}`,
      { redirect: 'manual' },
    );
  const message = encodeURIComponent(
    'The identity provider could not be reached: try again later.',
  );

  it('sends the browser back to the sign-in page with the message and where it was going', async () => {
    const start = await startAt('/jobs/abc?tab=logs');
    expect(start.status).toBe(303);
    expect(start.headers.get('location')).toBe(
      `/sign-in?error=${message}&return_to=${encodeURIComponent('/jobs/abc?tab=logs')}`,
    );
  });

  it('never keeps a return_to that leaves the console', async () => {
    for (const returnTo of ['//evil.example/x', '/\\evil.example', 'https://evil.example/']) {
      expect((await startAt(returnTo)).headers.get('location'), returnTo).toBe(
        `/sign-in?error=${message}`,
      );
    }
  });
});
