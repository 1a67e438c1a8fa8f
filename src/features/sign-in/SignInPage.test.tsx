import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Session } from '../../../contract';
import { rememberSession } from '../../api/session-state';
import { safeReturnTo } from './return-to';
import SignInPage from './SignInPage';
import { TestMantine } from '../../test/theme';

const signedOut: Session = {
  mode: 'sign-in',
  methods: { password: true, oidc: 'Acme SSO' },
  user: null,
  csrf_token: null,
  projects: [],
};
const signedIn: Session = {
  ...signedOut,
  user: { identity: 'ada@example.com', name: 'Ada', source: 'local' },
  csrf_token: 'csrf-1',
  projects: [{ project: 'demo', role: 'operator' }],
};

/** The service: the session as given; a sign-in accepted for one password only. */
function stubAuth(session: Session) {
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = String(input);
    if (path === '/v1/auth/sign-in') {
      const body = JSON.parse(String(init?.body)) as { email: string; password: string };
      if (body.password !== 'right')
        return new Response(
          JSON.stringify({ ok: false, message: 'email or password: not recognised' }),
          { status: 401 },
        );
      return new Response(JSON.stringify({ ok: true, data: signedIn }), { status: 200 });
    }
    return new Response(JSON.stringify({ ok: true, data: session }), { status: 200 });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

function Where() {
  const location = useLocation();
  return <p data-testid="where">{`${location.pathname}${location.search}`}</p>;
}

function renderAt(path: string) {
  return render(
    <TestMantine>
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path="/sign-in" element={<SignInPage />} />
            <Route path="*" element={<Where />} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    </TestMantine>,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
  rememberSession(null);
});

describe('the sign-in page', () => {
  it('says why a password was refused, then signs in and returns where the user was going', async () => {
    const fetch = stubAuth(signedOut);
    renderAt(`/sign-in?return_to=${encodeURIComponent('/jobs?state=running')}`);
    const form = await screen.findByRole('form', { name: 'Sign in with e-mail and password' });
    const user = userEvent.setup();
    await user.type(within(form).getByLabelText(/E-mail/), 'ada@example.com');
    await user.type(within(form).getByLabelText(/Password/), 'wrong');
    await user.click(within(form).getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('email or password: not recognised');
    await user.clear(within(form).getByLabelText(/Password/));
    await user.type(within(form).getByLabelText(/Password/), 'right');
    await user.click(within(form).getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByTestId('where')).toHaveTextContent('/jobs?state=running');
    const signIns = fetch.mock.calls.filter(([input]) => String(input) === '/v1/auth/sign-in');
    expect(JSON.parse(String(signIns[1]![1]?.body))).toEqual({
      email: 'ada@example.com',
      password: 'right',
    });
  });

  it("offers the identity provider's button, back to the same page, and shows its error", async () => {
    stubAuth(signedOut);
    renderAt(`/sign-in?return_to=%2Fschedules&error=${encodeURIComponent('state: expired')}`);
    const button = await screen.findByRole('link', { name: 'Sign in with Acme SSO' });
    expect(button).toHaveAttribute('href', '/v1/auth/oidc/start?return_to=%2Fschedules');
    expect(screen.getByRole('alert')).toHaveTextContent('state: expired');
  });

  it('shows only the identity provider where there are no passwords', async () => {
    stubAuth({ ...signedOut, methods: { password: false, oidc: 'Acme SSO' } });
    renderAt('/sign-in');
    expect(await screen.findByRole('link', { name: 'Sign in with Acme SSO' })).toBeVisible();
    expect(screen.queryByLabelText(/Password/)).toBeNull();
  });

  it('goes straight on where nobody signs in (local mode) or someone has', async () => {
    stubAuth({ ...signedOut, mode: 'local' });
    const { unmount } = renderAt('/sign-in?return_to=%2Fjobs');
    expect(await screen.findByTestId('where')).toHaveTextContent('/jobs');
    unmount();
    stubAuth(signedIn);
    renderAt('/sign-in?return_to=%2Fsettings');
    expect(await screen.findByTestId('where')).toHaveTextContent('/settings');
  });
});

describe('where sign-in returns to', () => {
  it('is a path of this console, never another site', () => {
    expect(safeReturnTo('/jobs?state=failed')).toBe('/jobs?state=failed');
    for (const away of ['//evil.example', '/\\evil.example', 'https://evil.example', null, ''])
      expect(safeReturnTo(away)).toBe('/');
    expect(safeReturnTo('/sign-in?return_to=/x')).toBe('/');
  });
});
