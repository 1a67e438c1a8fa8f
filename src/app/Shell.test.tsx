import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Session } from '../../contract';
import { markReachable, markUnreachable } from '../api/reachability';
import { rememberSession } from '../api/session-state';
import { capabilities, renderWithService, stubService, whoAmI } from '../test/service';
import { Shell } from './Shell';

function Where() {
  const location = useLocation();
  return <p data-testid="where">{`${location.pathname}${location.search}`}</p>;
}

afterEach(() => vi.unstubAllGlobals());

describe('the navigation', () => {
  const shell = (
    <Routes>
      <Route path="*" element={<Shell />} />
    </Routes>
  );

  it('links to Schedules where the service has them, and not elsewhere', async () => {
    stubService([]);
    const { unmount } = renderWithService(shell, capabilities({ identity: false }));
    expect(await screen.findByRole('link', { name: 'Schedules' })).toHaveAttribute(
      'href',
      '/schedules',
    );
    unmount();
    renderWithService(shell, capabilities({ identity: false, schedules: false }));
    expect(await screen.findByRole('link', { name: 'Jobs' })).toBeVisible();
    expect(screen.queryByRole('link', { name: 'Schedules' })).toBeNull();
  });

  it('links to the audit trail for the project’s admins only', async () => {
    stubService([[/whoami/, whoAmI('admin')]]);
    const { unmount } = renderWithService(shell, capabilities(), undefined, 'admin');
    // whoami's request code is imported when first read: slow under a loaded suite.
    const link = await screen.findByRole('link', { name: 'Audit' }, { timeout: 5000 });
    expect(link).toHaveAttribute('href', '/audit');
    unmount();
    stubService([[/whoami/, whoAmI('operator')]]);
    renderWithService(shell, capabilities(), undefined, 'operator');
    expect(await screen.findByTestId('acting-for', {}, { timeout: 5000 })).toBeVisible();
    expect(screen.queryByRole('link', { name: 'Audit' })).toBeNull();
  });
});

describe('the header', () => {
  const shell = (
    <Routes>
      <Route path="*" element={<Shell />} />
    </Routes>
  );
  const identity = (engine: string) => ({
    project: 'demo',
    role: 'admin',
    actor: 'key:k-1',
    service: { name: 'jobdeck', version: '1.2.0', engine },
  });

  it('says the engine is simulated where nothing runs, and nothing of a real engine', async () => {
    stubService([[/whoami/, identity('simulated')]]);
    const { unmount } = renderWithService(shell, capabilities(), undefined, null);
    expect(await screen.findByText('simulated engine')).toBeVisible();
    expect(screen.getByTestId('acting-for')).toHaveTextContent(
      'project demo · admin · Jobdeck 1.2.0',
    );
    unmount();
    stubService([[/whoami/, identity('docker')]]);
    renderWithService(shell, capabilities(), undefined, null);
    expect(await screen.findByTestId('acting-for')).toHaveTextContent('project demo');
    expect(screen.queryByText('simulated engine')).toBeNull();
  });
});

describe('the service and its engine, when they do not answer', () => {
  const shell = (
    <Routes>
      <Route path="*" element={<Shell />} />
    </Routes>
  );
  const away = {
    ...whoAmI('admin'),
    service: {
      ...whoAmI('admin').service,
      engine_health: {
        reachable: false,
        unreachable_since: new Date(2026, 11, 7, 2, 14, 31).toISOString(),
        dispatch: 'paused',
      },
    },
  };

  afterEach(() => markReachable());

  it('says in the header since when the engine is away and that dispatch is paused', async () => {
    stubService([[/whoami/, away]]);
    renderWithService(shell, capabilities(), undefined, null);
    const badge = await screen.findByTestId('engine-health-badge', {}, { timeout: 5000 });
    expect(badge).toHaveTextContent('engine unreachable since 02:14:31 · dispatch paused');
  });

  it('shows nothing of the engine from a service that does not say (spec-only, or older)', async () => {
    stubService([[/whoami/, whoAmI('admin')]]);
    renderWithService(shell, capabilities(), undefined, null);
    expect(await screen.findByTestId('acting-for', {}, { timeout: 5000 })).toBeVisible();
    expect(screen.queryByTestId('engine-health-badge')).toBeNull();
  });

  it('says above the page since when the service cannot be reached, until it answers', async () => {
    stubService([]);
    renderWithService(shell, capabilities({ identity: false }));
    expect(await screen.findByRole('link', { name: 'Jobs' })).toBeVisible();
    expect(screen.queryByTestId('service-unreachable')).toBeNull();
    act(() => markUnreachable(new Date(2026, 11, 7, 2, 14, 31).getTime()));
    expect(screen.getByTestId('service-unreachable')).toHaveTextContent(
      'Cannot reach the service since 02:14:31; retrying.',
    );
    act(() => markReachable());
    expect(screen.queryByTestId('service-unreachable')).toBeNull();
  });
});

describe('who acts, and what they are shown', () => {
  const shell = (
    <Routes>
      <Route path="/sign-in" element={<Where />} />
      <Route path="*" element={<Shell />} />
    </Routes>
  );
  const session = (fields: Partial<Session>): Session => ({
    mode: 'sign-in',
    methods: { password: true, oidc: null },
    user: { identity: 'ada@example.com', name: 'Ada', source: 'local' },
    csrf_token: 'csrf-1',
    projects: [{ project: 'demo', role: 'admin' }],
    ...fields,
  });

  afterEach(() => rememberSession(null));

  it('sends someone not signed in to sign in, and back to where they were going', async () => {
    stubService([[/\/v1\/auth\/session/, session({ user: null, csrf_token: null, projects: [] })]]);
    renderWithService(shell, capabilities(), '/jobs?state=failed');
    expect(await screen.findByTestId('where')).toHaveTextContent(
      `/sign-in?return_to=${encodeURIComponent('/jobs?state=failed')}`,
    );
  });

  it('says "Local administrator" where the console acts alone', async () => {
    stubService([[/\/v1\/auth\/session/, session({ mode: 'local', user: null, projects: [] })]]);
    renderWithService(shell);
    expect(await screen.findByText('Local administrator')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Ada' })).toBeNull();
  });

  it('shows the user, their menu, and a project switcher that reads everything again', async () => {
    const fetch = stubService([
      [
        /\/v1\/auth\/session/,
        session({
          projects: [
            { project: 'demo', role: 'admin' },
            { project: 'data', role: 'viewer' },
          ],
        }),
      ],
      [/whoami/, { ...whoAmI('admin'), actor: 'user:ada@example.com' }],
    ]);
    renderWithService(shell);
    const user = userEvent.setup();
    // The account's controls are a chunk of their own, loaded once someone is signed in.
    await user.click(await screen.findByRole('button', { name: 'Ada' }, { timeout: 5000 }));
    // Hidden: Mantine's menu is still in its opening transition in jsdom.
    const inMenu = { hidden: true };
    expect(await screen.findByRole('menuitem', { name: 'Sign out', ...inMenu })).toBeDefined();
    expect(screen.getByRole('menuitem', { name: 'Sign out everywhere', ...inMenu })).toBeDefined();
    await user.keyboard('{Escape}');
    // The listbox is labelled "Project" too: the input is the one to click.
    const [input] = (await screen.findAllByLabelText('Project')).filter(
      (e) => e.tagName === 'INPUT',
    );
    await user.click(input!);
    await user.click(await screen.findByRole('option', { name: 'data (viewer)', hidden: true }));
    await vi.waitFor(() =>
      expect(
        fetch.mock.calls.some(
          ([input, init]) =>
            String(input) === '/v1/client/whoami' &&
            (init?.headers as Record<string, string>)['x-jobdeck-project'] === 'data',
        ),
      ).toBe(true),
    );
    expect(localStorage.getItem('jobdeck.project')).toBe('data');
  });

  it("lists only the pages the key's role may use", async () => {
    stubService([]);
    const { unmount } = renderWithService(shell, capabilities(), '/', 'viewer');
    expect(await screen.findByRole('link', { name: 'Jobs' })).toBeVisible();
    for (const name of ['Submit a job', 'Webhooks', 'API keys', 'Members'])
      expect(screen.queryByRole('link', { name })).toBeNull();
    unmount();
    renderWithService(shell, capabilities(), '/', 'admin');
    for (const name of ['Submit a job', 'Webhooks', 'API keys', 'Members'])
      expect(await screen.findByRole('link', { name })).toBeVisible();
  });
});
