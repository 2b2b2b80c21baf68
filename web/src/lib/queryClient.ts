import { onlineManager, QueryClient } from '@tanstack/react-query';
import { ApiError } from './api';

/**
 * Client errors (4xx) are answers, not glitches: retrying them only repeats the failure.
 * 429 is the exception: the company's budget on the server is spent for a moment.
 */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 429) return false;
  return failureCount < 2;
}

/**
 * The app's query client. Queries wait (paused) while the browser is offline, from the
 * start: the query library assumes a connection until an event says otherwise, so a page
 * opened offline would otherwise try, fail and show an error instead of its copy kept on
 * the device (lib/offline/copies) or that there is none.
 */
export function createQueryClient(): QueryClient {
  if (typeof navigator !== 'undefined' && navigator.onLine === false) onlineManager.setOnline(false);
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
