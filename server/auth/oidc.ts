import * as openid from 'openid-client';
import { StartupError } from '../errors/startup-error';

export interface OidcSettings {
  /** `auth.oidc.issuer`: discovered from its /.well-known/openid-configuration. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  scopes?: string[];
  /** The claim that lists the user's groups (a string or an array of strings). */
  groupsClaim?: string;
  /** An http issuer, on loopback only: for tests and local trials. */
  allowInsecureIssuer?: boolean;
  /** How long discovery, and each later request to the provider, may take. */
  timeoutMs?: number;
}

/** What begin() hands out and complete() needs back: kept by the caller, e.g. in a cookie. */
export interface PendingSignIn {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface OidcIdentity {
  subject: string;
  email?: string;
  emailVerified?: boolean;
  name?: string;
  groups: string[];
}

export interface OidcClient {
  begin(): Promise<{ url: string; pending: PendingSignIn }>;
  complete(callbackUrl: URL | string, pending: PendingSignIn): Promise<OidcIdentity>;
}

/** A sign-in that failed: `message` may be shown to the user; `reason` is for the log. */
export class OidcSignInError extends Error {
  constructor(
    message: string,
    readonly reason: string,
    /** Where the sign-in was going, once known: the sign-in page offers it again. */
    readonly returnTo = '/',
  ) {
    super(message);
    this.name = 'OidcSignInError';
  }
}

const DEFAULT_SCOPES = ['openid', 'email', 'profile'];
const DEFAULT_TIMEOUT_MS = 10_000;

const isLoopback = (hostname: string) =>
  hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);

/** What went wrong, from an error and its causes: messages and codes, never a stack. */
function reasonOf(error: unknown, timeoutMs: number): string {
  const parts = new Set<string>();
  for (let at = error; at instanceof Error && parts.size < 6; at = at.cause) {
    parts.add(at.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : at.message);
    // A Node error's code (ECONNREFUSED), openid-client's, an OAuth error from the provider.
    const details = at as unknown as Record<string, unknown>;
    for (const detail of [details.code, details.error, details.error_description]) {
      if (typeof detail === 'string') parts.add(detail);
    }
  }
  return [...parts].join(': ');
}

/** The user as the claims say; groups from a string or an array of strings. */
function identityOf(claims: Record<string, unknown>, groupsClaim: string): OidcIdentity {
  const { sub, email, email_verified: verified, name, [groupsClaim]: groups } = claims;
  return {
    subject: String(sub),
    email: typeof email === 'string' ? email : undefined,
    emailVerified: typeof verified === 'boolean' ? verified : undefined,
    name: typeof name === 'string' ? name : undefined,
    groups: [groups].flat().filter((group) => typeof group === 'string'),
  };
}

const issuerError = (why: string) => new StartupError(`auth.oidc.issuer: ${why}`);

/** Tokens and the client secret cross these: https, or http only where it cannot leave the machine. */
function checkedUrl(value: string, allowInsecure: boolean | undefined): URL {
  const url = URL.parse(value);
  if (url?.protocol === 'https:') return url;
  if (url?.protocol === 'http:' && allowInsecure && isLoopback(url.hostname)) return url;
  throw issuerError(
    `${value} must be an https URL (allowInsecureIssuer permits http on a loopback address only)`,
  );
}

/** Discovers the issuer and returns a client for the authorization code flow with PKCE. */
export async function createOidcClient(settings: OidcSettings): Promise<OidcClient> {
  const issuer = checkedUrl(settings.issuer, settings.allowInsecureIssuer);
  const timeoutMs = settings.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const insecure = issuer.protocol === 'http:';
  const config = await openid
    .discovery(
      issuer,
      settings.clientId,
      undefined,
      // client_secret_basic: the default of OpenID Connect registration, so most providers'.
      openid.ClientSecretBasic(settings.clientSecret),
      { timeout: timeoutMs / 1000, execute: insecure ? [openid.allowInsecureRequests] : [] },
    )
    .catch((error: unknown) => {
      throw issuerError(
        `cannot discover an OpenID Provider at ${issuer.href}: ${reasonOf(error, timeoutMs)}`,
      );
    });
  // allowInsecureRequests lets every endpoint be http: the ones used must be on loopback too.
  if (insecure) {
    const { authorization_endpoint, token_endpoint, userinfo_endpoint, jwks_uri } =
      config.serverMetadata();
    for (const url of [authorization_endpoint, token_endpoint, userinfo_endpoint, jwks_uri]) {
      if (url) checkedUrl(url, true);
    }
  }
  const scope = (settings.scopes ?? DEFAULT_SCOPES).join(' ');

  return {
    async begin() {
      const pending = {
        state: openid.randomState(),
        nonce: openid.randomNonce(),
        codeVerifier: openid.randomPKCECodeVerifier(),
      };
      const url = openid.buildAuthorizationUrl(config, {
        redirect_uri: settings.redirectUri,
        scope,
        state: pending.state,
        nonce: pending.nonce,
        code_challenge: await openid.calculatePKCECodeChallenge(pending.codeVerifier),
        code_challenge_method: 'S256',
      });
      return { url: url.href, pending };
    },

    async complete(callbackUrl, pending) {
      // The registered redirect URI with the callback's parameters: the token request must name
      // it exactly, whatever host or proxy the callback came through.
      try {
        const current = new URL(settings.redirectUri);
        current.search = new URL(callbackUrl, settings.redirectUri).search;
        // Checks state, the provider's error, the issuer, PKCE, and the ID token with its nonce.
        const tokens = await openid.authorizationCodeGrant(config, current, {
          expectedState: pending.state,
          expectedNonce: pending.nonce,
          pkceCodeVerifier: pending.codeVerifier,
          idTokenExpected: true,
        });
        const claims: Record<string, unknown> = tokens.claims() ?? {};
        // Many providers put only `sub` in the ID token of a code flow: the rest is at userinfo.
        const userinfo =
          typeof claims.email === 'string'
            ? {}
            : await openid.fetchUserInfo(config, tokens.access_token, String(claims.sub));
        return identityOf({ ...claims, ...userinfo }, settings.groupsClaim ?? 'groups');
      } catch (error) {
        const refused = error instanceof openid.AuthorizationResponseError;
        throw new OidcSignInError(
          refused
            ? `The identity provider did not sign you in (${error.error}).`
            : 'Sign-in could not be completed: please start again.',
          reasonOf(error, timeoutMs),
        );
      }
    },
  };
}
