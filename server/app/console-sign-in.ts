import { ConsoleSessions } from '../auth/console-sessions';
import { listensBeyondLoopback, signInMode } from '../auth/sign-in-mode';
import type { JobdeckConfig } from '../config/schema';
import type { SignInRouteOptions } from '../http/routes/sign-in';
import { sessionCookie } from '../http/session-cookie';
import type { Store } from '../store/ports';
import { StartupError } from './startup-error';

const FAILURE_WINDOW_MS = 15 * 60_000;
/** Ended sessions and abandoned provider sign-ins are deleted this often. */
const PRUNE_EVERY_MS = 10 * 60_000;

export type ConsoleSignIn = Omit<SignInRouteOptions, 'failures'> & { stop(): void };

/** The console's sign-in as the configuration sets it up, and its housekeeping. */
export function consoleSignIn(config: JobdeckConfig, storage: Store): ConsoleSignIn {
  const { auth } = config;
  const sessions = new ConsoleSessions(storage.users, storage.members, storage.sessions, {
    idleMs: auth.session_idle_minutes * 60_000,
    maxMs: auth.session_max_hours * 3_600_000,
    failuresAllowed: auth.sign_in_failures,
    failureWindowMs: FAILURE_WINDOW_MS,
  });
  const prune = setInterval(() => void sessions.prune().catch(() => {}), PRUNE_EVERY_MS);
  prune.unref();
  return {
    sessions,
    cookie: sessionCookie(
      auth.public_url?.startsWith('https:') ?? false,
      auth.session_max_hours * 3_600_000,
    ),
    mode: signInMode(
      { host: config.host, requireSignIn: auth.require_sign_in, oidc: false },
      storage.users,
    ),
    oidcLabel: null,
    stop: () => clearInterval(prune),
  };
}

/**
 * A console beyond loopback that nobody can sign in to would be either open to all or useless:
 * the start says what to set instead.
 */
export async function checkSomeoneCanSignIn(config: JobdeckConfig, storage: Store): Promise<void> {
  if (!listensBeyondLoopback(config.host) || (await storage.users.countLocal()) > 0) return;
  throw new StartupError(
    `host: the console listens on ${config.host}, beyond loopback, and nobody can sign in: add a user (jobdeck users add EMAIL --project PROJECT --role admin), or start with --no-console`,
  );
}
