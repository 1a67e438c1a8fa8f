import { afterEach, describe, expect, it, vi } from 'vitest';
import { acceptedBodySchema, type Session } from '../../contract';
import { writeApiKey } from '../lib/api-key';
import { apiRequest, streamHeaders } from './client';
import { serviceUnreachableSince } from './reachability';
import { chooseProject, rememberSession } from './session-state';

const session: Session = {
  mode: 'sign-in',
  methods: { password: true, oidc: null },
  user: { identity: 'ada@example.com', name: 'Ada', source: 'local' },
  csrf_token: 'csrf-123',
  projects: [
    { project: 'demo', role: 'operator' },
    { project: 'data', role: 'viewer' },
  ],
};

/** The headers of each request sent, by method and path. */
function stubFetch() {
  const fetch = vi.fn(
    async (_input: RequestInfo | URL, _init?: RequestInit) =>
      new Response(JSON.stringify({ ok: true }), { status: 200 }),
  );
  vi.stubGlobal('fetch', fetch);
  return () =>
    fetch.mock.calls.map(([input, init]) => ({
      request: `${init?.method} ${String(input)}`,
      headers: init?.headers as Record<string, string>,
    }));
}

afterEach(() => {
  vi.unstubAllGlobals();
  rememberSession(null);
});

describe("the client's credentials", () => {
  it('sends no session header without a signed-in session (local mode: the server adds its key)', async () => {
    const sent = stubFetch();
    rememberSession({ ...session, mode: 'local', user: null, csrf_token: null, projects: [] });
    await apiRequest('POST', '/v1/client/job', acceptedBodySchema, {});
    expect(sent()[0]!.headers).toEqual({ 'Content-Type': 'application/json' });
  });

  it('names the project on every client request and adds the CSRF token to changes only', async () => {
    const sent = stubFetch();
    rememberSession(session);
    chooseProject('demo');
    await apiRequest('GET', '/v1/client/jobs', acceptedBodySchema);
    await apiRequest('POST', '/v1/client/job/j-1/cancel', acceptedBodySchema);
    await apiRequest('POST', '/v1/auth/sign-out', acceptedBodySchema, {});
    expect(sent()).toEqual([
      {
        request: 'GET /v1/client/jobs',
        headers: { 'Content-Type': 'application/json', 'x-jobdeck-project': 'demo' },
      },
      {
        request: 'POST /v1/client/job/j-1/cancel',
        headers: {
          'Content-Type': 'application/json',
          'x-jobdeck-project': 'demo',
          'x-csrf-token': 'csrf-123',
        },
      },
      {
        request: 'POST /v1/auth/sign-out',
        headers: { 'Content-Type': 'application/json', 'x-csrf-token': 'csrf-123' },
      },
    ]);
    expect(streamHeaders('/v1/client/events')).toEqual({
      Accept: 'text/event-stream',
      'x-jobdeck-project': 'demo',
    });
  });

  it('sends the project chosen, or the first one when the user is no member of it', async () => {
    const sent = stubFetch();
    rememberSession(session);
    chooseProject('data');
    await apiRequest('GET', '/v1/client/jobs', acceptedBodySchema);
    chooseProject('gone');
    await apiRequest('GET', '/v1/client/jobs', acceptedBodySchema);
    expect(sent().map((s) => s.headers['x-jobdeck-project'])).toEqual(['data', 'demo']);
    expect(localStorage.getItem('jobdeck.project')).toBe('gone');
  });

  it('lets a key typed in Settings override the session', async () => {
    const sent = stubFetch();
    rememberSession(session);
    writeApiKey('jd_typed');
    await apiRequest('POST', '/v1/client/job', acceptedBodySchema, {});
    expect(sent()[0]!.headers).toEqual({
      'Content-Type': 'application/json',
      Authorization: 'Bearer jd_typed',
    });
  });

  it('keeps the CSRF token out of every browser storage', async () => {
    stubFetch();
    rememberSession(session);
    await apiRequest('POST', '/v1/client/job', acceptedBodySchema, {});
    const stored = [localStorage, sessionStorage].flatMap((storage) =>
      Object.keys(storage).map((key) => storage.getItem(key)),
    );
    expect(stored.join('\n')).not.toContain('csrf-123');
    expect(document.cookie).not.toContain('csrf-123');
  });
});

describe("the service's reachability", () => {
  it('starts an outage at the first request that got no answer, and ends it at any answer', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    const failed = (at: number) =>
      apiRequest('GET', '/v1/client/job/a', acceptedBodySchema).catch(() => at);
    const before = Date.now();
    await failed(1);
    const since = serviceUnreachableSince();
    expect(since).toBeGreaterThanOrEqual(before);
    await failed(2);
    expect(serviceUnreachableSince()).toBe(since);
    // A refusal is an answer: the service is there.
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () => new Response(JSON.stringify({ ok: false, message: 'no job' }), { status: 404 }),
      ),
    );
    await failed(3);
    expect(serviceUnreachableSince()).toBeNull();
  });
});
