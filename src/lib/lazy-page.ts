import { createElement, lazy, type ComponentType } from 'react';

type Loader<P> = () => Promise<{ default: ComponentType<P> }>;

const resets = new Set<() => void>();

/**
 * React.lazy keeps a failed import's error for good: a page whose chunk could not be fetched while
 * the service was down would fail again on every visit after it is back. This one starts a fresh
 * import when `retryFailedPages` is called after a failure.
 */
export function lazyPage<P extends object>(load: Loader<P>): ComponentType<P> {
  let failed = false;
  const make = () =>
    lazy(() =>
      load().catch((error: unknown) => {
        failed = true;
        throw error;
      }),
    );
  let current = make();
  resets.add(() => {
    if (!failed) return;
    failed = false;
    current = make();
  });
  return function LazyPage(props: P) {
    return createElement(current, props);
  };
}

/** The next render of each page whose import failed imports it again. */
export function retryFailedPages(): void {
  resets.forEach((reset) => reset());
}
