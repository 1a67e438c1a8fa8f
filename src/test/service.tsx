import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { vi } from 'vitest';
import { roleAllows, roleOf, type Role, type WhoAmI } from '../../contract';
import type { Capabilities } from '../api/capabilities';
import { serviceKeys } from '../api/keys';
import { TestMantine } from './theme';

/** What a full Jobdeck service offers; `overrides` take some of it away. */
export function capabilities(overrides: Partial<Capabilities> = {}): Capabilities {
  return {
    source: 'openapi',
    queues: true,
    definitions: true,
    identity: true,
    jobList: true,
    events: true,
    logs: true,
    execution: true,
    transitions: true,
    attempts: true,
    dependencies: true,
    arrays: true,
    schedules: true,
    labels: true,
    listSort: true,
    endedFilter: true,
    views: true,
    bulk: true,
    resubmit: true,
    webhooks: true,
    trends: true,
    audit: true,
    keys: true,
    members: true,
    hosts: true,
    shares: true,
    ...overrides,
  };
}

/**
 * A fake service for console unit tests: each GET answers `{ ok: true, data }` from the first
 * route whose pattern matches the path, 404 otherwise. The calls are on the returned mock.
 */
export function stubService(routes: [RegExp, unknown][]) {
  const fetch = vi.fn(async (input: RequestInfo | URL, _init?: RequestInit) => {
    const path = String(input);
    const route = routes.find(([pattern]) => pattern.test(path));
    if (!route)
      return new Response(JSON.stringify({ ok: false, message: 'not found' }), { status: 404 });
    return new Response(JSON.stringify({ ok: true, data: route[1] }), { status: 200 });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

/** The paths requested so far. */
export const requestedPaths = (fetch: ReturnType<typeof stubService>) =>
  fetch.mock.calls.map(([input]) => String(input));

/** Whoami's answer for a key of project demo with this role. */
export const whoAmI = (role: Role): WhoAmI => ({
  project: 'demo',
  role,
  actor: 'key:k-console',
  service: { name: 'jobdeck', version: '1.2.0', engine: 'docker' },
});

/** Has the client know, as whoami would say, that the key is of project demo with `role`. */
export function knowRole(client: QueryClient, role: Role) {
  client.setQueryData(serviceKeys.roleTable(), { roleAllows, roleOf });
  client.setQueryData(serviceKeys.identity(), whoAmI(role));
}

/**
 * Renders with Mantine, a router (at `path`, with its search params, when given) and a query
 * client that already knows the service's offer and, unless `role` is null (whoami is then
 * read from the stubbed service), that the key is of project demo with that role.
 */
export function renderWithService(
  ui: ReactNode,
  offer: Capabilities = capabilities(),
  path?: string,
  role: Role | null = 'admin',
) {
  const client = new QueryClient();
  client.setQueryData(serviceKeys.capabilities(), offer);
  if (role) knowRole(client, role);
  const wrapper = ({ children }: { children: ReactNode }) => (
    <TestMantine>
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={path === undefined ? undefined : [path]}>
          {children}
        </MemoryRouter>
      </QueryClientProvider>
    </TestMantine>
  );
  return { client, ...render(ui, { wrapper }) };
}
