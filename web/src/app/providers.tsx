import type { ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { readStyleNonce } from '../lib/config';
import { cssVariablesResolver, theme } from '../lib/theme';

/**
 * Mantine injects <style> elements (CSS variables, responsive style props); under the
 * server's `style-src 'self' 'nonce-…'` they need the page's nonce.
 */
const styleNonce = readStyleNonce();
const getStyleNonce = styleNonce ? () => styleNonce : undefined;

export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    // Dark mode follows the system: "auto" tracks prefers-color-scheme, live.
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="auto" getStyleNonce={getStyleNonce}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}
