import { useSessionStore } from './store';
import { useAppStore } from '../appState';

/** Title of the alert shown when the current role has no menu. */
export const MENU_ALERT_TITLE = 'Menu unavailable';

/**
 * Shows why the current role has no menu (SPEC §5: "Missing layout configuration."), in
 * the app's alert. Called once the navigation that follows a login, a role switch or the
 * start of the app has finished, so guard step 1 (hide any alert) does not swallow it.
 */
export function announceMenuError(): void {
  const { token, menuError } = useSessionStore.getState();
  if (token && menuError) useAppStore.getState().raiseAlert({ title: MENU_ALERT_TITLE, message: menuError, type: 'alert-warning' });
}
