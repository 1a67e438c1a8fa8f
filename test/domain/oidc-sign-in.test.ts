import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleSessions } from '../../server/auth/console-sessions';
import { OidcSignInError } from '../../server/auth/oidc';
import { OidcSignIn } from '../../server/auth/oidc-sign-in';
import { configSchema } from '../../server/config/schema';
import { openStore } from '../../server/store/open-store';
import type { Store } from '../../server/store/ports';
import { signInAtProvider } from '../support/oidc-login';
import { startOidcProvider, type TestOidcProvider } from '../support/oidc-provider';

/** The provider sign-in's flow on a clock the test moves, a real provider and a real store. */
const REDIRECT_URI = 'http://127.0.0.1:9/v1/auth/oidc/callback';
const MINUTE = 60_000;
let provider: TestOidcProvider;
let storage: Store;
let flow: OidcSignIn;
let now = Date.parse('2026-12-07T09:00:00Z');

beforeAll(async () => {
  provider = await startOidcProvider({ redirectUris: [REDIRECT_URI] });
  storage = await openStore(
    configSchema.parse({ projects: {}, data_dir: mkdtempSync(join(tmpdir(), 'jobdeck-oidc-')) }),
  );
  const clock = () => now;
  const sessions = new ConsoleSessions(
    storage.users,
    storage.members,
    storage.sessions,
    { idleMs: 30 * MINUTE, maxMs: 8 * 60 * MINUTE, failuresAllowed: 5, failureWindowMs: MINUTE },
    clock,
  );
  flow = new OidcSignIn(
    {
      issuer: provider.issuer,
      clientId: provider.clientId,
      clientSecret: provider.clientSecret,
      redirectUri: REDIRECT_URI,
      allowInsecureIssuer: true,
      groupRoles: {},
    },
    storage.sessions,
    sessions,
    clock,
  );
}, 90_000);
afterAll(async () => {
  await storage?.close();
  await provider?.stop();
});

/** A sign-in started for `returnTo`, walked through the provider's pages to its callback. */
async function atCallback(returnTo: string, cancel = false) {
  const { url, state } = await flow.begin(returnTo);
  const callback = await signInAtProvider(url, {
    login: 'alice@example.test',
    redirectUri: REDIRECT_URI,
    cancel,
  });
  return { callback: callback.href, state };
}

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail('the sign-in was completed'),
    (error: unknown) => {
      expect(error).toBeInstanceOf(OidcSignInError);
      return error as OidcSignInError;
    },
  );

describe('a sign-in through the identity provider', () => {
  it('completes within ten minutes of its start, and returns where it was going', async () => {
    const { callback, state } = await atCallback('/jobs?state=failed');
    now += 10 * MINUTE - 1;
    const signedIn = await flow.complete(callback, state, state, undefined);
    expect(signedIn).toMatchObject({
      identity: 'alice@example.test',
      returnTo: '/jobs?state=failed',
    });
  });

  it('has expired ten minutes after its start', async () => {
    const { callback, state } = await atCallback('/jobs');
    now += 10 * MINUTE;
    const failure = await failureOf(flow.complete(callback, state, state, undefined));
    expect(failure.message).toBe('This sign-in has expired: please start again.');
  });

  it('keeps where it was going when the provider does not sign the person in', async () => {
    const { callback, state } = await atCallback('/jobs/abc?tab=logs', true);
    const failure = await failureOf(flow.complete(callback, state, state, undefined));
    expect(failure.message).toBe('The identity provider did not sign you in (access_denied).');
    expect(failure.returnTo).toBe('/jobs/abc?tab=logs');
  });
});
