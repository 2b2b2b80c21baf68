import { normaliseError } from '../../lib/api/errors';
import { paths } from '../../lib/paths';
import { appQueryClient } from '../../lib/queryClient';
import { logout, switchRole } from '../../lib/session';
import { useAppStore } from '../../lib/appState';
import { announceMenuError } from '../../lib/session/menuAlert';

/** What the session actions need from the page: the router and the browser. */
export interface PageDeps {
  navigate(to: string, options?: { replace?: boolean }): void | Promise<void>;
  pathname(): string;
  reload(): void;
}

function raiseDanger(error: unknown): void {
  const { name, message } = normaliseError(error);
  // SPEC §8: titled with the error name, the message as body, type alert-danger.
  useAppStore.getState().raiseAlert({ title: name, message, type: 'alert-danger' });
}

/**
 * SPEC §4 role switch: loading on, apply the role (server check, role stored, its layout
 * loaded, menu built), go to / (a full reload when already there), loading off. On failure
 * a danger alert shows (which also stops loading). Resolves true when the role changed.
 */
export async function performRoleSwitch(roleId: number, deps: PageDeps): Promise<boolean> {
  useAppStore.getState().startLoading();
  try {
    await switchRole(roleId);
  } catch (error) {
    raiseDanger(error);
    return false;
  }
  if (deps.pathname() === paths.home) {
    // SPEC §2: already on /, the page reloads fully; the overlay stays until it does.
    deps.reload();
    return true;
  }
  await deps.navigate(paths.home);
  useAppStore.getState().stopLoading();
  announceMenuError();
  return true;
}

/**
 * SPEC §4 logout: identity sign-out, server sign-out, token / refresh token / user /
 * current role forgotten, then /login; the cached server answers go too, so the next
 * person at this browser never sees them. On failure a danger alert shows and the session
 * stays, so the user can try again.
 */
export async function performLogout(deps: Pick<PageDeps, 'navigate'>): Promise<boolean> {
  useAppStore.getState().startLoading({ simpleSpinner: true });
  try {
    await logout();
  } catch (error) {
    raiseDanger(error);
    return false;
  }
  await deps.navigate(paths.login, { replace: true });
  appQueryClient()?.clear();
  useAppStore.getState().stopLoading();
  return true;
}
