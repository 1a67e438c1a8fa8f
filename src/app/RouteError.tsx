import { Anchor, Loader, Text } from '@mantine/core';
import { Suspense, useEffect, useState } from 'react';
import { useLocation, useNavigate, useRouteError } from 'react-router';
import { serviceUnreachableSince } from '../api/reachability';
import { clockTime } from '../lib/clock-time';
import { lazyPage, retryFailedPages } from '../lib/lazy-page';
import { claimReload, isChunkLoadError } from './route-error';

// Part of the first page load on purpose: when a page's chunk cannot be fetched, nothing else can
// be. Plain Text with a role and links as buttons (the shell has both), not an Alert or a Button,
// to keep that load small.

const RETRY_MS = 3000;
/** A page imported again that fails again within this long is not a passing outage. */
const RETRY_WINDOW_MS = 10_000;
/** Across the error element's mounts: a failed retry mounts it afresh. */
let retriedAt = 0;

/** Whether the server that serves the console's files answers now. */
async function consoleAnswers(): Promise<boolean> {
  try {
    return (await fetch(import.meta.env.BASE_URL, { cache: 'no-store' })).ok;
  } catch {
    return false;
  }
}

// A page's own fault is rare, and its code was fetched: the words for it load when needed.
const PageFailure = lazyPage(() => import('./PageFailure'));

type LoadState = 'checking' | 'unreachable' | 'stuck';

/**
 * A page whose code could not be fetched: while the service is down, say so and check again
 * every few seconds; once it answers, import the page again; if that fails too, the build
 * changed under the page (an upgrade renamed its chunks): reload once, never in a loop.
 */
function PageLoadFailure() {
  const navigate = useNavigate();
  const location = useLocation();
  // The outage the page's reads saw began first, when there was one.
  const [since] = useState(() => serviceUnreachableSince() ?? Date.now());
  const [state, setState] = useState<LoadState>('checking');
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const attempt = async () => {
      const answers = await consoleAnswers();
      if (stopped) return;
      if (!answers) {
        setState('unreachable');
        timer = setTimeout(() => void attempt(), RETRY_MS);
      } else if (Date.now() - retriedAt > RETRY_WINDOW_MS) {
        retriedAt = Date.now();
        retryFailedPages();
        // A new location resets the route's error boundary, which renders the page again.
        void navigate(location, { replace: true, state: location.state as unknown });
      } else if (claimReload(sessionStorage)) {
        window.location.reload();
      } else {
        setState('stuck');
      }
    };
    void attempt();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
    // Once per mount: a retry that fails mounts this element again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  if (state === 'stuck')
    return (
      <Text role="alert" data-testid="page-load-failed">
        This page could not be loaded although the service answers: the console was probably updated
        and no longer has it.{' '}
        <Anchor
          component="button"
          inherit
          underline="always"
          onClick={() => window.location.reload()}
        >
          Reload
        </Anchor>{' '}
        to get the new console.
      </Text>
    );
  // A moment: whether the server answers decides what to say.
  if (state === 'checking') return <Loader aria-label="Loading page" />;
  return (
    <Text role="alert" data-testid="page-load-failed">
      This page could not be loaded: the service cannot be reached (since {clockTime(since)}).
      Retrying every {RETRY_MS / 1000} s; the page appears once it answers.
    </Text>
  );
}

/** Every route's error element: what failed, in words, instead of React Router's default page. */
export function RouteError() {
  const error = useRouteError();
  return isChunkLoadError(error) ? (
    <PageLoadFailure />
  ) : (
    <Suspense fallback={null}>
      <PageFailure error={error} />
    </Suspense>
  );
}
