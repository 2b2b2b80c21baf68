import type { QueryClient } from '@tanstack/react-query';
import { isAuthenticated } from '../lib/session/store';
import { appQueryClient } from '../lib/queryClient';

/**
 * Dashboard route loader: starts fetching the dashboard's data while its chunk loads
 * (the queries module is its own small chunk, so the main bundle stays free of it). Never
 * waits and never fails: the page's hooks show loading and errors. It runs beside the
 * guard, so it only starts when a session is already there.
 */
export function prefetchDashboard(): null {
  const queryClient = appQueryClient();
  if (!queryClient || !isAuthenticated()) return null;
  void prefetch(queryClient);
  return null;
}

async function prefetch(queryClient: QueryClient): Promise<void> {
  // The import stands alone: Vite treats a rejection of an `import(...).then(...)` chain
  // as a failed chunk load (vite:preloadError, which reloads the page), and a prefetch
  // cancelled because the session ended is no such thing.
  const { prefetchDashboardData } = await import('../features/dashboard/DashboardPage.queries');
  try {
    await prefetchDashboardData(queryClient);
  } catch {
    // Cancelled or failed: the page's own queries show what happened.
  }
}
