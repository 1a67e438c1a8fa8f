import { hash } from 'node:crypto';
import type { ProjectRole, SessionStore } from '../store/ports';
import { systemClock, type Clock } from './clock';
import type { ConsoleSessions } from './console-sessions';
import { OidcSignInError, createOidcClient, type OidcClient, type OidcSettings } from './oidc';

/** How long a browser may take at its provider before the sign-in must start again. */
const PENDING_MS = 10 * 60_000;

const sha256 = (text: string) => hash('sha256', text, 'hex');

/** Only a path of this site: `//evil.example` or `/\evil.example` would leave it (open redirect). */
export function safeReturnTo(value: unknown): string {
  if (typeof value !== 'string' || !value.startsWith('/') || /^\/[/\\]/.test(value)) return '/';
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  return /[\u0000-\u001f]/.test(value) ? '/' : value;
}

/**
 * Sign-in through an OpenID Provider. The provider is discovered at the first sign-in, not at
 * start: a provider that is down must not keep the service (and its jobs) from starting. What
 * the callback needs (state, nonce, PKCE verifier) is in the store, so the browser may come back
 * to any instance; the state is also in a cookie of the browser that started, so nobody can
 * send another person's browser a sign-in of their own (login CSRF).
 */
export class OidcSignIn {
  private client: Promise<OidcClient> | undefined;

  constructor(
    private readonly settings: OidcSettings & { groupRoles: Record<string, ProjectRole[]> },
    private readonly pending: SessionStore,
    private readonly sessions: ConsoleSessions,
    private readonly now: Clock = systemClock,
  ) {}

  private oidc(): Promise<OidcClient> {
    this.client ??= createOidcClient(this.settings).catch((error: unknown) => {
      this.client = undefined;
      throw new OidcSignInError(
        'The identity provider could not be reached: try again later.',
        (error as Error).message,
      );
    });
    return this.client;
  }

  /** Where to send the browser, and the state its cookie keeps. */
  async begin(returnTo: string): Promise<{ url: string; state: string }> {
    const { url, pending } = await (await this.oidc()).begin();
    await this.pending.putPendingOidc(sha256(pending.state), {
      nonce: pending.nonce,
      codeVerifier: pending.codeVerifier,
      returnTo: safeReturnTo(returnTo),
      expiresAt: this.now() + PENDING_MS,
    });
    return { url, state: pending.state };
  }

  /** The provider's answer checked, a session started: its token and where to go. */
  async complete(
    callbackUrl: string,
    state: string | undefined,
    browserState: string | undefined,
    previousToken: string | undefined,
  ): Promise<{ token: string; returnTo: string; identity: string; projects: ProjectRole[] }> {
    if (!state || state !== browserState) {
      throw new OidcSignInError(
        'This sign-in was not started in this browser: please start again.',
        'state missing or not the browser’s',
      );
    }
    const pending = await this.pending.takePendingOidc(sha256(state), this.now());
    if (!pending) {
      throw new OidcSignInError('This sign-in has expired: please start again.', 'state unknown');
    }
    const user = await this.oidc()
      .then((client) => client.complete(callbackUrl, { ...pending, state }))
      .catch((error: unknown) => {
        if (!(error instanceof OidcSignInError)) throw error;
        throw new OidcSignInError(error.message, error.reason, pending.returnTo);
      });
    const subjectIdentity = `sub:${user.subject}`;
    const identity = user.email && user.emailVerified ? user.email.toLowerCase() : subjectIdentity;
    const groupRoles = user.groups.flatMap((group) => this.settings.groupRoles[group] ?? []);
    // A session the browser held before is ended, not carried over: no fixation.
    if (previousToken) await this.sessions.signOut(previousToken, false);
    const token = await this.sessions.start({
      identity,
      subjectIdentity,
      name: user.name ?? null,
      source: 'oidc',
      groupRoles,
    });
    const session = await this.sessions.resolve(token);
    const projects = session ? await this.sessions.projectsOf(session) : [];
    return { token, returnTo: pending.returnTo, identity, projects };
  }
}
