import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api';

/** Client errors (4xx) are answers, not glitches: retrying them only repeats the failure. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, staleTime: 30_000, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}

let appClient: QueryClient | null = null;

/**
 * Registers the app's query client (main.tsx), so route loaders can start fetching a
 * page's data while its chunk loads. Unit tests register none: loaders then do nothing.
 */
export function setAppQueryClient(client: QueryClient | null): void {
  appClient = client;
}

/** The registered query client, or null. */
export function appQueryClient(): QueryClient | null {
  return appClient;
}
