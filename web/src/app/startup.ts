import type { DataRouter, RouterState } from 'react-router';
import { startSession } from '../lib/session';
import { useAppStore } from '../lib/appState';
import { announceMenuError } from '../lib/session/menuAlert';
import { loginPath, paths } from '../lib/paths';
import { appQueryClient } from '../lib/queryClient';

function settled(state: RouterState): boolean {
  return state.initialized && state.navigation.state === 'idle';
}

/** Resolves once the router has no navigation in progress. */
export function whenNavigationSettles(router: Pick<DataRouter, 'state' | 'subscribe'>): Promise<void> {
  return new Promise((resolve) => {
    if (settled(router.state)) return resolve();
    const unsubscribe = router.subscribe((state) => {
      if (!settled(state)) return;
      unsubscribe();
      resolve();
    });
  });
}

type AppRouter = Pick<DataRouter, 'state' | 'subscribe' | 'navigate'>;

/**
 * Connects the session to the router at start. Call it before creating the router: it
 * restores the saved session and default lists synchronously (SPEC §4 session restore),
 * so the guard's first run sees them. Afterwards it sends the user to
 * /login?redirect=<current path> when the session ends (SPEC §4 session expiry) and drops
 * the cached server answers, and
 * shows a menu error once the first page is on screen.
 */
export function connectSession(getRouter: () => AppRouter): Promise<void> {
  useAppStore.getState().restoreDefaultLists();
  const restored = startSession({
    onExpired: () => {
      const router = getRouter();
      const { pathname, search, hash } = router.state.location;
      if (pathname === paths.login) return;
      // The ended session's cached answers go once the page has left it.
      void router.navigate(loginPath(pathname + search + hash), { replace: true }).then(() => appQueryClient()?.clear());
    },
  });
  return restored.then(() => whenNavigationSettles(getRouter())).then(announceMenuError);
}
