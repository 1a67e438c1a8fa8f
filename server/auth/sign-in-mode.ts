import type { UserStore } from '../store/ports';

export type SignInMode = 'local' | 'sign-in';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

export interface SignInModeSettings {
  /** Where the console listens. */
  host: string;
  requireSignIn: boolean;
  oidc: boolean;
}

/** Local users are looked up at most this often: `jobdeck users add` takes effect within it. */
const RECHECK_MS = 5_000;

/**
 * Whether people sign in to the console. The embedded default (loopback, nobody to sign in)
 * stays one command: the console acts as a local administrator with its own key. Listening
 * beyond loopback, an identity provider, a local user, or `auth.require_sign_in` ends that.
 */
export function signInMode(settings: SignInModeSettings, users: UserStore) {
  const fixed = settings.requireSignIn || settings.oidc || !LOOPBACK_HOSTS.has(settings.host);
  let checked: { at: number; mode: Promise<SignInMode> } | undefined;
  return (): Promise<SignInMode> => {
    if (fixed) return Promise.resolve('sign-in');
    if (!checked || Date.now() - checked.at >= RECHECK_MS) {
      const mode = users
        .countLocal()
        .then((count): SignInMode => (count > 0 ? 'sign-in' : 'local'));
      checked = { at: Date.now(), mode };
      // A failed look-up is asked again next time, and meanwhile keeps sign-in on.
      mode.catch(() => (checked = undefined));
    }
    return checked.mode.catch(() => 'sign-in' as const);
  };
}

export const listensBeyondLoopback = (host: string) => !LOOPBACK_HOSTS.has(host);
