import {
  MantineProvider,
  createTheme,
  localStorageColorSchemeManager,
  type CSSVariablesResolver,
} from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';

/**
 * The console server gives each page a CSP nonce (in the meta tag Vite writes); Mantine puts it
 * on the `<style>` elements it creates, which the policy admits only with that nonce.
 */
const styleNonce = () =>
  document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce ?? '';

/**
 * Contrast (WCAG AA, 4.5:1 for text, checked by axe in e2e): Mantine's default shade 6 of indigo
 * under white text and its gray-6 "dimmed" text fall short; shade 8 and gray-7 pass, and
 * autoContrast picks dark text on light fills (cyan, yellow badges).
 */
const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: { light: 8, dark: 6 },
  autoContrast: true,
  defaultRadius: 'md',
});
const contrastVariables: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)' },
  dark: {},
});
const colorSchemeManager = localStorageColorSchemeManager({ key: 'jobdeck.colorScheme' });

export function createQueryClient() {
  return new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: true } } });
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
      getStyleNonce={styleNonce}
    >
      <Notifications position="top-right" />
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}
