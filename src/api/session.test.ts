import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { writeApiKey } from '../lib/api-key';
import { ApiError } from './api-error';
import { sessionKeys } from './keys';
import { needsSignIn, onApiError } from './session';

const signedOut = {
  mode: 'sign-in' as const,
  methods: { password: true, oidc: null },
  user: null,
  csrf_token: null,
  projects: [],
};

describe('a 401 from the API', () => {
  const withSession = () => {
    const client = new QueryClient();
    client.setQueryData(sessionKeys.session(), signedOut);
    return client;
  };
  const stale = (client: QueryClient) => client.getQueryState(sessionKeys.session())?.isInvalidated;

  it('has the session read again (it may have ended), and nothing else does', () => {
    const client = withSession();
    onApiError(client, new ApiError(403, 'role: needs the admin role'));
    onApiError(client, new ApiError(0, 'unreachable', 'network'));
    expect(stale(client)).toBe(false);
    onApiError(client, new ApiError(401, 'session expired'));
    expect(stale(client)).toBe(true);
  });

  it('is the typed key refused, not the session, when a key is typed in Settings', () => {
    writeApiKey('jd_typed');
    const client = withSession();
    onApiError(client, new ApiError(401, 'unknown key'));
    expect(stale(client)).toBe(false);
    expect(needsSignIn(signedOut)).toBe(false);
  });
});

describe('who must sign in', () => {
  it('is nobody in local mode or on a service without sign-in, and someone not signed in', () => {
    expect(needsSignIn(null)).toBe(false);
    expect(needsSignIn({ ...signedOut, mode: 'local' })).toBe(false);
    expect(needsSignIn(signedOut)).toBe(true);
  });
});
