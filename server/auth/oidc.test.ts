import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startOidcProvider, type TestOidcProvider } from '../../test/support/oidc-provider';
import { signInAtProvider } from '../../test/support/oidc-login';
import { createOidcClient, OidcSignInError, type OidcClient } from './oidc';

// Never contacted: the walk through the provider stops at the redirect to it.
const REDIRECT_URI = 'http://127.0.0.1:9/auth/callback';

/** A client of the provider, scopes for groups included. */
const clientOf = (provider: TestOidcProvider, groupsClaim?: string) =>
  createOidcClient({
    issuer: provider.issuer,
    clientId: provider.clientId,
    clientSecret: provider.clientSecret,
    redirectUri: REDIRECT_URI,
    scopes: ['openid', 'email', 'profile', 'groups'],
    groupsClaim,
    allowInsecureIssuer: true,
  });

const signInWith = async (client: OidcClient, login: string, cancel = false) => {
  const { url, pending } = await client.begin();
  const callback = await signInAtProvider(url, { login, redirectUri: REDIRECT_URI, cancel });
  return { callback, pending };
};

// Two providers, started side by side: one as OpenID Connect has it (a code flow's ID token holds
// `sub`, the rest is at userinfo), one that puts the user's claims in the ID token too.
let provider: TestOidcProvider | undefined;
let claimsInIdTokenProvider: TestOidcProvider | undefined;
beforeAll(
  () =>
    Promise.all([
      startOidcProvider({ redirectUris: [REDIRECT_URI] }).then((started) => (provider = started)),
      startOidcProvider({ redirectUris: [REDIRECT_URI], claimsInIdToken: true }).then(
        (started) => (claimsInIdTokenProvider = started),
      ),
    ]),
  30_000,
);
afterAll(() => Promise.all([provider?.stop(), claimsInIdTokenProvider?.stop()]));

describe('OpenID Connect sign-in against a real OpenID Provider', () => {
  let client: OidcClient;
  beforeAll(async () => {
    client = await clientOf(provider!);
  });

  const signIn = (login: string, cancel = false) => signInWith(client, login, cancel);

  it('asks for a code with PKCE (S256), state and nonce', async () => {
    const { url, pending } = await client.begin();
    const params = new URL(url).searchParams;
    expect(params.get('response_type')).toBe('code');
    expect(params.get('code_challenge_method')).toBe('S256');
    expect(params.get('state')).toBe(pending.state);
    expect(params.get('nonce')).toBe(pending.nonce);
    expect(params.get('scope')).toBe('openid email profile groups');
    expect(url).not.toContain(pending.codeVerifier);
  });

  it('signs alice in through the login page: subject, email, name and groups', async () => {
    const { callback, pending } = await signIn('alice@example.test');
    expect(callback.searchParams.get('state')).toBe(pending.state);
    expect(callback.searchParams.get('code')).toBeTruthy();
    expect(await client.complete(callback, pending)).toEqual({
      subject: 'alice@example.test',
      email: 'alice@example.test',
      emailVerified: true,
      name: 'Alice Example',
      groups: ['jobdeck-admins'],
    });
    // A code is good for one sign-in.
    await expect(client.complete(callback, pending)).rejects.toThrow(OidcSignInError);
  });

  it('takes the callback as the path and query a service receives', async () => {
    const { callback, pending } = await signIn('someone@example.test');
    const identity = await client.complete(`${callback.pathname}${callback.search}`, pending);
    expect(identity).toMatchObject({ subject: 'someone@example.test', groups: [] });
  });

  it('refuses a callback whose state is not the sign-in’s', async () => {
    const { callback, pending } = await signIn('bob@example.test');
    callback.searchParams.set('state', `${pending.state}x`);
    const failure = await client.complete(callback, pending).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OidcSignInError);
    expect((failure as OidcSignInError).message).toBe(
      'Sign-in could not be completed: please start again.',
    );
    expect((failure as OidcSignInError).reason).toMatch(/state/);
  });

  it('refuses a sign-in cancelled at the provider, saying so', async () => {
    const { callback, pending } = await signIn('alice@example.test', true);
    expect(callback.searchParams.get('error')).toBe('access_denied');
    const failure = await client.complete(callback, pending).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OidcSignInError);
    expect((failure as OidcSignInError).message).toBe(
      'The identity provider did not sign you in (access_denied).',
    );
  });
});

describe('OpenID Connect sign-in with the claims in the ID token', () => {
  afterEach(() => vi.restoreAllMocks());

  it('reads them there, without asking userinfo', async () => {
    const client = await clientOf(claimsInIdTokenProvider!);
    const { callback, pending } = await signInWith(client, 'bob@example.test');
    const requests = vi.spyOn(globalThis, 'fetch');
    expect(await client.complete(callback, pending)).toEqual({
      subject: 'bob@example.test',
      email: 'bob@example.test',
      emailVerified: true,
      name: 'Bob Example',
      groups: ['jobdeck-viewers'],
    });
    const paths = requests.mock.calls.map(([url]) => new URL(String(url)).pathname);
    expect(paths).toContain('/token');
    expect(paths).not.toContain('/me');
  });

  it('takes a groups claim that is one string as one group', async () => {
    const client = await clientOf(claimsInIdTokenProvider!, 'name');
    const { callback, pending } = await signInWith(client, 'bob@example.test');
    expect((await client.complete(callback, pending)).groups).toEqual(['Bob Example']);
  });
});

describe('OpenID Connect configuration', () => {
  const settings = {
    clientId: 'jobdeck',
    clientSecret: 'the-client-secret-never-shown',
    redirectUri: REDIRECT_URI,
    allowInsecureIssuer: true,
  };
  const failureOf = (
    issuer: string,
    more: { allowInsecureIssuer?: boolean; timeoutMs?: number } = {},
  ) =>
    createOidcClient({ ...settings, ...more, issuer }).then(
      () => new Error('created a client'),
      (error: unknown) => error as Error,
    );
  const listening = async (server: Server | HttpServer) => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as { port: number }).port;
  };

  it('names auth.oidc.issuer when nothing listens there', async () => {
    const server = createServer();
    const port = await listening(server);
    await new Promise((resolve) => server.close(resolve));
    const failure = await failureOf(`http://127.0.0.1:${port}`);
    expect(failure.message).toMatch(/^auth\.oidc\.issuer: cannot discover .*ECONNREFUSED/);
    expect(failure.message).not.toContain(settings.clientSecret);
  });

  it('gives up on an issuer that never answers within the timeout', async () => {
    const sockets: Socket[] = [];
    const server = createServer((socket) => sockets.push(socket));
    const port = await listening(server);
    const started = Date.now();
    try {
      const failure = await failureOf(`http://127.0.0.1:${port}`, { timeoutMs: 500 });
      expect(failure.message).toMatch(
        /^auth\.oidc\.issuer: cannot discover .*: no answer within 500 ms$/,
      );
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('refuses http for an issuer off loopback, even with allowInsecureIssuer', async () => {
    const failure = await failureOf('http://idp.example.test');
    expect(failure.message).toBe(
      'auth.oidc.issuer: http://idp.example.test must be an https URL (allowInsecureIssuer permits http on a loopback address only)',
    );
  });

  it('refuses an http issuer on loopback whose endpoints are elsewhere', async () => {
    const server = createHttpServer((_request, response) => {
      const issuer = `http://127.0.0.1:${port}`;
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({
          issuer,
          authorization_endpoint: `${issuer}/auth`,
          token_endpoint: 'http://idp.example.test/token',
        }),
      );
    });
    const port = await listening(server);
    try {
      const failure = await failureOf(`http://127.0.0.1:${port}`);
      expect(failure.message).toMatch(
        /^auth\.oidc\.issuer: http:\/\/idp\.example\.test\/token must be/,
      );
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('refuses http on loopback without allowInsecureIssuer', async () => {
    const failure = await failureOf('http://127.0.0.1:1', { allowInsecureIssuer: false });
    expect(failure.message).toMatch(/^auth\.oidc\.issuer: .* must be an https URL/);
  });
});
