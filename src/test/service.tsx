import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { vi } from 'vitest';
import type { Capabilities } from '../api/capabilities';
import { serviceKeys } from '../api/keys';

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
    views: true,
    bulk: true,
    webhooks: true,
    trends: true,
    keys: true,
    members: true,
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

/**
 * Renders with Mantine, a router (at `path`, with its search params, when given) and a query
 * client that already knows the service's offer.
 */
export function renderWithService(
  ui: ReactNode,
  offer: Capabilities = capabilities(),
  path?: string,
) {
  const client = new QueryClient();
  client.setQueryData(serviceKeys.capabilities(), offer);
  const wrapper = ({ children }: { children: ReactNode }) => (
    <MantineProvider>
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={path === undefined ? undefined : [path]}>
          {children}
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>
  );
  return { client, ...render(ui, { wrapper }) };
}
