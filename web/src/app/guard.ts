import { redirect, type LoaderFunctionArgs, type ShouldRevalidateFunctionArgs } from 'react-router';
import { isAuthenticated, trySilentLogin } from '../lib/session';
import { useAppStore } from '../lib/appState';
import { loginPath } from '../lib/paths';

/**
 * The route guard (SPEC §2), as loaders in the route tree.
 *
 * 1. Any visible alert is hidden first      → {@link hideAlertOnNavigation} on the root route.
 * 2. The login path is always allowed       → /login sits outside the authenticated branch.
 * 3. Unauthenticated on a requiresAuth route: show a spinner and try a silent login
 * 4. On success continue, else go to /login?redirect={full path}
 *                                           → {@link requireAuth} on the authenticated parent.
 */

/** Root-route loader: guard step 1. */
export function hideAlertOnNavigation(): null {
  const { showAlert, hideAlert } = useAppStore.getState();
  if (showAlert) hideAlert();
  return null;
}

/** Loader of the authenticated parent route: guard steps 3 and 4. */
export async function requireAuth({ request }: Pick<LoaderFunctionArgs, 'request'>): Promise<null> {
  if (isAuthenticated()) return null;

  const app = useAppStore.getState();
  app.startLoading({ simpleSpinner: true });
  let restored = false;
  try {
    restored = (await trySilentLogin()) && isAuthenticated();
  } catch {
    restored = false;
  } finally {
    useAppStore.getState().stopLoading();
  }
  if (restored) return null;

  const url = new URL(request.url);
  throw redirect(loginPath(url.pathname + url.search));
}

function urlChanged({ currentUrl, nextUrl }: Pick<ShouldRevalidateFunctionArgs, 'currentUrl' | 'nextUrl'>): boolean {
  return currentUrl.pathname !== nextUrl.pathname || currentUrl.search !== nextUrl.search;
}

/**
 * Root route: step 1 runs on every navigation to a new URL, and only then, so a
 * revalidation after an action does not hide the alert that action just raised.
 */
export function revalidateOnNavigation(args: ShouldRevalidateFunctionArgs): boolean {
  return urlChanged(args);
}

/**
 * Authenticated parent: the guard runs on every navigation to a new URL, not only when
 * its own params change (React Router's default), so a session lost meanwhile is caught.
 */
export function revalidateGuard(args: ShouldRevalidateFunctionArgs): boolean {
  return urlChanged(args) || args.defaultShouldRevalidate;
}
