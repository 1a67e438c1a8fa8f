import { readFileSync } from 'node:fs';
import { ConsoleSessions } from '../auth/console-sessions';
import { OidcSignIn } from '../auth/oidc-sign-in';
import { listensBeyondLoopback, signInMode } from '../auth/sign-in-mode';
import type { AuthConfig } from '../config/schema';
import type { SignInRouteOptions } from '../http/routes/sign-in';
import { sessionCookie } from '../http/session-cookie';
import type { Store } from '../store/ports';
import { StartupError } from '../errors/startup-error';

export const OIDC_SECRET_VARIABLE = 'JOBDECK_OIDC_CLIENT_SECRET';
const FAILURE_WINDOW_MS = 15 * 60_000;

export type ConsoleSignIn = Omit<SignInRouteOptions, 'failures'>;

/** The tables sign-in reads and writes. */
type SignInStorage = Pick<Store, 'users' | 'members' | 'sessions'>;

/**
 * The console's sign-in as the configuration sets it up. Its ended sessions are deleted by the
 * retention pass (sessions.prune).
 */
export function consoleSignIn(
  auth: AuthConfig,
  host: string,
  storage: SignInStorage,
): ConsoleSignIn {
  const sessions = new ConsoleSessions(storage.users, storage.members, storage.sessions, {
    idleMs: auth.session_idle_minutes * 60_000,
    maxMs: auth.session_max_hours * 3_600_000,
    failuresAllowed: auth.sign_in_failures,
    failureWindowMs: FAILURE_WINDOW_MS,
  });
  const cookie = sessionCookie(
    auth.public_url?.startsWith('https:') ?? false,
    auth.session_max_hours * 3_600_000,
  );
  const oidc = auth.oidc && {
    label: auth.oidc.label,
    flow: new OidcSignIn(
      {
        issuer: auth.oidc.issuer,
        clientId: auth.oidc.client_id,
        clientSecret: oidcClientSecret(auth.oidc.client_secret_file),
        redirectUri: new URL('/v1/auth/oidc/callback', auth.public_url).href,
        scopes: auth.oidc.scopes,
        groupsClaim: auth.oidc.groups_claim,
        allowInsecureIssuer: auth.oidc.allow_insecure_issuer,
        groupRoles: auth.oidc.group_roles,
      },
      storage.sessions,
      sessions,
    ),
  };
  return {
    sessions,
    cookie,
    mode: signInMode(
      { host, requireSignIn: auth.require_sign_in, oidc: oidc !== undefined },
      storage.users,
    ),
    oidc: oidc ?? null,
  };
}

/**
 * A console beyond loopback that nobody can sign in to would be either open to all or useless:
 * the start says what to set instead.
 */
export async function checkSomeoneCanSignIn(
  auth: AuthConfig,
  host: string,
  storage: SignInStorage,
): Promise<void> {
  if (!listensBeyondLoopback(host) || auth.oidc) return;
  if ((await storage.users.countLocal()) > 0) return;
  throw new StartupError(
    `host: the console listens on ${host}, beyond loopback, and nobody can sign in: add a user (jobdeck users add EMAIL --project PROJECT --role admin), configure auth.oidc, or start with --no-console`,
  );
}

/** The client secret, from its file or JOBDECK_OIDC_CLIENT_SECRET: never the configuration file. */
function oidcClientSecret(file: string | undefined): string {
  const secret = file ? readSecretFile(file) : process.env[OIDC_SECRET_VARIABLE];
  if (!secret?.trim()) {
    throw new StartupError(
      `auth.oidc: the client secret is missing: set ${OIDC_SECRET_VARIABLE}, or auth.oidc.client_secret_file`,
    );
  }
  return secret.trim();
}

function readSecretFile(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new StartupError(
      `auth.oidc.client_secret_file: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
}
