import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startOidcProvider, type TestOidcProvider } from '../../test/support/oidc-provider';
import { signInAtProvider } from '../../test/support/oidc-login';
import { createOidcClient, OidcSignInError, type OidcClient } from './oidc';

// Never contacted: the walk through the provider stops at the redirect to it.
const REDIRECT_URI = 'http://127.0.0.1:9/auth/callback';

describe('OpenID Connect sign-in against a real OpenID Provider', () => {
  let provider: TestOidcProvider;
  let client: OidcClient;

  /** A client of the provider, scopes for groups included. */
  const clientOf = (groupsClaim?: string) =>
    createOidcClient({
      issuer: provider.issuer,
      clientId: provider.clientId,
      clientSecret: provider.clientSecret,
      redirectUri: REDIRECT_URI,
      scopes: ['openid', 'email', 'profile', 'groups'],
      groupsClaim,
      allowInsecureIssuer: true,
    });

  beforeAll(async () => {
    provider = await startOidcProvider({ redirectUris: [REDIRECT_URI] });
    client = await clientOf();
  }, 30_000);
  afterAll(() => provider?.stop());
  afterEach(() => vi.restoreAllMocks());

  const signIn = async (login: string, options: { cancel?: boolean; with?: OidcClient } = {}) => {
    const { url, pending } = await (options.with ?? client).begin();
    const callback = await signInAtProvider(url, {
      login,
      redirectUri: REDIRECT_URI,
      cancel: options.cancel,
    });
    return { callback, pending };
  };
  /** The paths of the provider that the client asks while `run` runs. */
  const pathsAskedBy = async (run: () => Promise<unknown>) => {
    const requests = vi.spyOn(globalThis, 'fetch');
    await run();
    return requests.mock.calls.map(([url]) => new URL(String(url)).pathname);
  };

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
    const paths = await pathsAskedBy(async () =>
      expect(await client.complete(callback, pending)).toEqual({
        subject: 'alice@example.test',
        email: 'alice@example.test',
        emailVerified: true,
        name: 'Alice Example',
        groups: ['jobdeck-admins'],
      }),
    );
    // Her claims were in the ID token: userinfo was not asked.
    expect(paths).toEqual(['/token']);
    // A code is good for one sign-in.
    await expect(client.complete(callback, pending)).rejects.toThrow(OidcSignInError);
  });

  it('asks userinfo for the claims an ID token leaves out (carol’s)', async () => {
    const { callback, pending } = await signIn('carol@example.test');
    const paths = await pathsAskedBy(async () =>
      expect(await client.complete(callback, pending)).toEqual({
        subject: 'carol@example.test',
        email: 'carol@example.test',
        emailVerified: true,
        name: 'Carol Example',
        groups: ['jobdeck-viewers'],
      }),
    );
    expect(paths).toEqual(['/token', '/me']);
  });

  it('takes a groups claim that is one string as one group', async () => {
    const byName = await clientOf('name');
    const { callback, pending } = await signIn('bob@example.test', { with: byName });
    expect((await byName.complete(callback, pending)).groups).toEqual(['Bob Example']);
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
    const { callback, pending } = await signIn('alice@example.test', { cancel: true });
    expect(callback.searchParams.get('error')).toBe('access_denied');
    const failure = await client.complete(callback, pending).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OidcSignInError);
    expect((failure as OidcSignInError).message).toBe(
      'The identity provider did not sign you in (access_denied).',
    );
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
