import { freePort } from './free-port';
import { startOidcProvider, type TestOidcProvider } from './oidc-provider';
import { startService, type TestService } from './service';

export interface ServiceWithProvider {
  provider: TestOidcProvider;
  service: TestService;
  consoleUrl: string;
  /** Where the provider sends the browser back: the console's callback. */
  redirectUri: string;
  stop(): Promise<void>;
}

/**
 * A real OpenID Provider and a service whose console signs in through it ("Test IdP"; the
 * provider's jobdeck-admins group is admin of project t). The console's port is chosen first:
 * the provider must know the redirect URI before the service starts.
 */
export async function startServiceWithProvider(): Promise<ServiceWithProvider> {
  const port = await freePort();
  const consoleUrl = `http://127.0.0.1:${port}`;
  const redirectUri = `${consoleUrl}/v1/auth/oidc/callback`;
  const provider = await startOidcProvider({ redirectUris: [redirectUri] });
  const service = await startService(
    {
      auth: {
        public_url: consoleUrl,
        oidc: {
          issuer: provider.issuer,
          client_id: provider.clientId,
          allow_insecure_issuer: true,
          label: 'Test IdP',
          scopes: ['openid', 'email', 'profile', 'groups'],
          group_roles: { 'jobdeck-admins': [{ project: 't', role: 'admin' }] },
        },
      },
    },
    undefined,
    {
      withConsole: true,
      consolePort: port,
      env: { JOBDECK_OIDC_CLIENT_SECRET: provider.clientSecret },
    },
  ).catch(async (error: unknown) => {
    await provider.stop();
    throw error;
  });
  return {
    provider,
    service,
    consoleUrl,
    redirectUri,
    async stop() {
      await service.stop();
      await provider.stop();
    },
  };
}
