import { render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { Outlet, RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lazyPage } from '../lib/lazy-page';
import { TestMantine } from '../test/theme';
import { RELOAD_MARKER } from './route-error';
import { RouteError } from './RouteError';

const chunkFailure = () =>
  new TypeError('Failed to fetch dynamically imported module: http://x/assets/Page-1.js');

/** The shell's shape: navigation around a pathless route whose error element is RouteError. */
function renderRoutes(load: () => Promise<{ default: () => React.JSX.Element }>) {
  const Page = lazyPage(load);
  const router = createMemoryRouter([
    {
      path: '/',
      element: (
        <>
          <nav>navigation</nav>
          <Suspense fallback={<p>loading</p>}>
            <Outlet />
          </Suspense>
        </>
      ),
      children: [{ errorElement: <RouteError />, children: [{ index: true, element: <Page /> }] }],
    },
  ]);
  render(
    <TestMantine>
      <RouterProvider router={router} />
    </TestMantine>,
  );
}

const page = async () => ({ default: () => <p>the page</p> });

afterEach(() => vi.unstubAllGlobals());

describe('a page whose code could not be fetched', () => {
  it('says the service cannot be reached, keeps the shell, and shows the page once it answers', async () => {
    let serviceUp = false;
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        if (!serviceUp) throw new TypeError('Failed to fetch');
        return new Response('<!doctype html>', { status: 200 });
      }),
    );
    const load = vi.fn().mockRejectedValueOnce(chunkFailure()).mockImplementation(page);
    renderRoutes(load);
    expect(
      await screen.findByText(
        /^This page could not be loaded: the service cannot be reached \(since \d\d:\d\d:\d\d\)\. Retrying every 3 s/,
      ),
    ).toHaveAttribute('role', 'alert');
    expect(screen.getByText('navigation')).toBeVisible();
    serviceUp = true;
    expect(await screen.findByText('the page', {}, { timeout: 15_000 })).toBeVisible();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('after a reload that did not help, says so instead of reloading again', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('', { status: 200 })),
    );
    // The reload this tab made a moment ago for the same reason.
    sessionStorage.setItem(RELOAD_MARKER, String(Date.now()));
    const load = vi.fn().mockRejectedValue(chunkFailure());
    renderRoutes(load);
    expect(
      await screen.findByText(
        /could not be loaded although the service answers/,
        {},
        { timeout: 15_000 },
      ),
    ).toBeVisible();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeVisible();
    // Imported once, and once again if no retry was made in the last seconds: never in a loop.
    await new Promise((resolve) => setTimeout(resolve, 3500));
    expect(load.mock.calls.length).toBeLessThanOrEqual(2);
  });
});

describe('a page that failed while rendering', () => {
  it('says what failed in words inside the shell, not React Router’s developer page', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const Broken = () => {
      throw new Error('queues is not iterable');
    };
    renderRoutes(async () => ({ default: Broken }));
    expect(await screen.findByTestId('page-failed')).toHaveTextContent(
      'queues is not iterable The rest of the console still works.',
    );
    expect(screen.getByText('navigation')).toBeVisible();
    expect(screen.queryByText(/Hey developer/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeVisible();
  });
});
