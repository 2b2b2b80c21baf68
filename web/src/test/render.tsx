import type { ReactElement, ReactNode } from 'react';
import { render, type RenderOptions } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { theme } from '../lib/theme';

// Router tests import RouterProvider from 'react-router', not 'react-router/dom': under
// Vitest the /dom entry resolves to the package's CJS build, whose router context is a
// different object from the ESM one the app's hooks read ("useNavigate() may be used only
// in the context of a <Router>").

/** Renders `ui` inside the app's providers (fresh query client, no retries). */
export function renderWithProviders(ui: ReactElement, options?: Omit<RenderOptions, 'wrapper'>) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  function Wrapper({ children }: { children: ReactNode }) {
    return (
      <MantineProvider theme={theme} env="test">
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </MantineProvider>
    );
  }
  return { queryClient, ...render(ui, { wrapper: Wrapper, ...options }) };
}
