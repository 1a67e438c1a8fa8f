import {
  MantineProvider,
  createTheme,
  localStorageColorSchemeManager,
  type CSSVariablesResolver,
} from '@mantine/core';
import type { NotificationsProps } from '@mantine/notifications';
import { setNonce } from 'get-nonce';
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Suspense, type ReactNode } from 'react';
import { onApiError } from '../api/session';
import { cspNonce } from '../lib/csp-nonce';
import { lazyPage } from '../lib/lazy-page';

// The dialogs' scroll lock (react-remove-scroll) writes a `<style>` of its own, with the nonce
// that get-nonce gives it: without one the policy blocks it and the page scrolls under a dialog.
setNonce(cspNonce());

/**
 * Contrast (WCAG AA, 4.5:1 for text, checked by axe in e2e in both themes): Mantine's default
 * shade 6 under white text, its gray-6 "dimmed" and red-6 error text fall short. Shade 8 (in
 * both themes), gray-7 and red-9 pass; autoContrast with a relative-luminance threshold of 0.18 gives every fill the text
 * colour (black or white) that clears 4.5:1 on it.
 */
const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: { light: 8, dark: 8 },
  autoContrast: true,
  luminanceThreshold: 0.18,
  defaultRadius: 'md',
  // Mantine's close buttons are an icon alone: give every dialog's and notification's a name.
  // Plain objects, not Modal.extend: importing Modal here would pull it (and its focus trap,
  // scroll lock and transitions) into the first page load.
  components: {
    // A loader's aria-label names it only with a role (a bare span may not carry one).
    Loader: { defaultProps: { role: 'status' } },
    // A light alert's title takes its colour's shade 6, 2.68:1 on yellow: the text colour passes.
    Alert: { styles: { title: { color: 'var(--mantine-color-text)' } } },
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close dialog' } } },
    Drawer: { defaultProps: { closeButtonProps: { 'aria-label': 'Close dialog' } } },
    Notification: {
      defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } },
      // Below a title Mantine greys the text with gray-6 itself, short of 4.5:1 on white.
      styles: { description: { color: 'var(--mantine-color-dimmed)' } },
    },
  },
});
const contrastVariables: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    // A hovered tinted element (the current page's nav link): shade 9 text on shade 2 is 4.12:1;
    // halfway between shades 1 and 2 gives 4.71:1 and still shows the hover.
    '--mantine-primary-color-light-hover':
      'color-mix(in srgb, var(--mantine-primary-color-1), var(--mantine-primary-color-2))',
  },
  // Mantine's dark greys its dimmed text with dark-2, 4.03:1 on the dark body; dark-1 passes.
  dark: {
    '--mantine-color-dimmed': 'var(--mantine-color-dark-1)',
    '--mantine-color-error': 'var(--mantine-color-red-4)',
  },
});
/**
 * Loaded just after the first page, not in it: its transitions and portal were 12 KiB of the
 * first page's gzipped JS. A notification shown before it arrives waits in the package's store.
 */
const Notifications = lazyPage<NotificationsProps>(() =>
  import('@mantine/notifications').then(({ Notifications: Loaded }) => ({
    default: (props: NotificationsProps) => <Loaded {...props} />,
  })),
);

const colorSchemeManager = localStorageColorSchemeManager({ key: 'jobdeck.colorScheme' });

export function createQueryClient() {
  // A 401 anywhere may be a session that ended: the shell then sends the user to sign in.
  const client: QueryClient = new QueryClient({
    defaultOptions: { queries: { refetchOnWindowFocus: true } },
    queryCache: new QueryCache({ onError: (error) => onApiError(client, error) }),
    mutationCache: new MutationCache({ onError: (error) => onApiError(client, error) }),
  });
  return client;
}

export function Providers({
  children,
  queryClient,
}: {
  children: ReactNode;
  queryClient: QueryClient;
}) {
  return (
    <MantineProvider
      theme={theme}
      defaultColorScheme="auto"
      colorSchemeManager={colorSchemeManager}
      cssVariablesResolver={contrastVariables}
      getStyleNonce={cspNonce}
    >
      {/* Below, not over the header and its buttons. */}
      <Suspense fallback={null}>
        <Notifications position="bottom-right" />
      </Suspense>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}
