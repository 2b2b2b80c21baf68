import { api, setSessionHooks } from '../api/client';
import { ApiError } from '../api/errors';
import { loadIdentity, signOutOfIdentity, trySignOutOfIdentity, hasPersistedIdentityUser, type IdentityTokens } from './identity';
import { IdentityError } from './identityErrors';
import { KeepAlive, browserLock, timingFromAnswer, type RotatedTokens } from './keepAlive';
import { buildMenu } from './layout';
import { STORAGE, asRole, asUser, readLastRole, readSavedSession, readSavedTokens } from './persist';
import { useSessionStore } from './store';
import type { LoginAnswer, RefreshAnswer, Role } from './types';

/**
 * The session's life: login (SPEC §4 steps 1–5), silent login for the guard, session
 * restore on start, role switch, logout, expiry (511) and the keep-alive (SPEC §9).
 */

/** Receives the end of a session the user did not ask for (511, signed out elsewhere). */
export type SessionExpiredListener = (error: ApiError) => void;

let expiredListener: SessionExpiredListener = () => {};

/** Remembers the server's Date header and when the answer arrived, for token timing. */
function answerClock() {
  const clock = { receivedAt: 0, date: null as string | null };
  const onResponse = (response: Response) => {
    clock.receivedAt = Date.now();
    clock.date = response.headers.get('Date');
  };
  return { clock, onResponse };
}

async function rotate(refreshToken: string): Promise<RotatedTokens> {
  const { clock, onResponse } = answerClock();
  const answer = await api.post<{ data: RefreshAnswer }>('/auth/refresh', { refreshToken }, { auth: false, onResponse });
  const { token, tokenExpiresAt, refreshToken: next } = answer.data;
  return { token, refreshToken: next, timing: timingFromAnswer(tokenExpiresAt, clock.receivedAt, clock.date) };
}

export const keepAlive = new KeepAlive({
  now: () => Date.now(),
  setTimer: (fn, ms) => setTimeout(fn, ms),
  clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  current: () => useSessionStore.getState(),
  saved: readSavedTokens,
  rotate,
  store: ({ token, refreshToken, timing }) => useSessionStore.getState().setTokens(token, refreshToken, timing),
  adopt: ({ token, refreshToken, timing }) => useSessionStore.getState().hydrate({ token, refreshToken, timing }),
  withLock: browserLock,
  onExpired: (error) => expireSession(error),
});

/**
 * Ends a session the server refused (SPEC §4 session expiry): forgets it, signs out of
 * the identity service too (otherwise a silent login would undo what the server decided),
 * and tells the listener, which goes to /login?redirect=<current path>. Safe to call
 * more than once: only the first call of a session reaches the listener.
 */
export function expireSession(error: ApiError): void {
  const hadSession = !!useSessionStore.getState().token;
  keepAlive.stop();
  useSessionStore.getState().clearSession();
  void trySignOutOfIdentity();
  if (hadSession) expiredListener(error);
}

/** Applies a role: stored (and remembered as the last role), then its menu is built. */
async function applyRole(role: Role): Promise<void> {
  useSessionStore.getState().setCurrentRole(role);
  await buildMenu(role);
}

/**
 * SPEC §4 login, steps 2–5, after the identity service signed the user in (step 1):
 * 2. exchange the identity token for the portal session;
 * 3. a remembered last role replaces the default role if the user still holds it;
 * 4. the role is stored, its layout loaded and the menu built;
 * 5. the login type is set from the role type.
 */
export async function completeLogin(tokens: IdentityTokens): Promise<void> {
  const { clock, onResponse } = answerClock();
  const lastRoleId = readLastRole();
  // The server starts the session in the remembered role when it is still held, so its
  // audit log records the role the user really signs in with.
  const answer = await api.get<{ data: LoginAnswer }>('/auth/login', {
    auth: false,
    query: {
      idToken: tokens.idToken,
      oauthIdToken: tokens.oauthIdToken,
      roleId: lastRoleId === null ? undefined : String(lastRoleId),
    },
    onResponse,
  });
  const data = answer.data;
  const user = asUser(data.user);
  const defaultRole = asRole(data.currentRole);
  if (!user || !defaultRole) throw new ApiError('500', 'The server answered the sign-in with something unexpected.', 500);

  const role = (lastRoleId !== null && user.roles.find((r) => r.id === lastRoleId)) || defaultRole;

  useSessionStore.getState().setSession({
    token: data.token,
    refreshToken: data.refreshToken,
    tokenTiming: timingFromAnswer(data.tokenExpiresAt, clock.receivedAt, clock.date),
    user,
    currentRole: role,
  });
  keepAlive.start();
  await applyRole(role);
  useSessionStore.getState().setLoginType(role.type);
}

export type SignInRequest =
  | { method: 'password'; email: string; password: string }
  | { method: 'workAccount'; workEmail?: string }
  | { method: 'emailLink'; email: string; link: string };

/**
 * Signs the user in (SPEC §4 login, all steps) and fills the session. Rejects with an
 * Error whose message is fit to show: an {@link IdentityError} for the identity service,
 * an ApiError with the server's words (403 no portal account, 429 too many attempts).
 * When the portal refuses, the identity user is signed out again, so nothing half-signed-in
 * remains; user-disabled and user-token-expired sign the user out everywhere (SPEC §8).
 */
export async function signIn(request: SignInRequest): Promise<void> {
  const identity = await loadIdentity();
  let tokens: IdentityTokens;
  try {
    switch (request.method) {
      case 'password':
        tokens = await identity.signInWithPassword(request.email, request.password);
        break;
      case 'workAccount':
        tokens = await identity.signInWithWorkAccount(request.workEmail);
        break;
      case 'emailLink':
        tokens = await identity.signInWithLink(request.email, request.link);
        break;
    }
  } catch (error) {
    if (error instanceof IdentityError && error.signsOut) await signOutEverywhere();
    throw error;
  }
  try {
    await completeLogin(tokens);
  } catch (error) {
    await trySignOutOfIdentity();
    throw error;
  }
}

/** Forgets the portal session and signs out of the identity service, best effort. */
async function signOutEverywhere(): Promise<void> {
  keepAlive.stop();
  useSessionStore.getState().clearSession();
  await trySignOutOfIdentity();
}

/**
 * Route-guard seam (SPEC §2 guard step 3): restores a session without asking the user.
 * First the saved refresh token (the access-token cookie lasts a day, the refresh token a
 * year); else the identity SDK's persisted user, whose fresh ID token is exchanged as at
 * login. Resolves true when the session store now holds a token.
 */
export async function trySilentLogin(): Promise<boolean> {
  const saved = readSavedSession();
  if (saved.refreshToken && saved.user && saved.currentRole) {
    useSessionStore.getState().hydrate({
      refreshToken: saved.refreshToken,
      user: saved.user,
      currentRole: saved.currentRole,
      loginType: saved.loginType,
    });
    try {
      await keepAlive.refresh();
    } catch {
      return false;
    }
    keepAlive.start();
    const role = saved.user.roles.find((r) => r.id === saved.currentRole!.id) ?? saved.currentRole;
    await applyRole(role);
    return !!useSessionStore.getState().token;
  }
  if (!hasPersistedIdentityUser()) return false;
  try {
    const identity = await loadIdentity();
    const idToken = await identity.currentIdToken();
    if (!idToken) return false;
    await completeLogin({ idToken });
    return !!useSessionStore.getState().token;
  } catch (error) {
    // The identity user cannot (or may no longer) sign in to the portal: let it go, so the
    // guard does not try it again on every navigation.
    if (error instanceof IdentityError && error.signsOut) await signOutEverywhere();
    else await trySignOutOfIdentity();
    return false;
  }
}

/**
 * SPEC §4 role switch, the session part: the server checks and records the switch (sent
 * with the current role), then the new role is applied: stored, its layout loaded and the
 * menu built. Rejects with an ApiError on failure; the session is unchanged then.
 */
export async function switchRole(roleId: number): Promise<Role> {
  const answer = await api.post<{ data: { currentRole: unknown } }>('/auth/role', { roleId });
  const role = asRole(answer.data?.currentRole);
  if (!role) throw new ApiError('500', 'The server answered the role switch with something unexpected.', 500);
  await applyRole(role);
  return role;
}

/**
 * SPEC §4 logout: signs out of the identity service, ends the portal session on the
 * server, and forgets token, refresh token, user and current role. Rejects (session kept,
 * so the user can try again) when either sign-out fails.
 */
export async function logout(): Promise<void> {
  const { token, refreshToken } = useSessionStore.getState();
  await signOutOfIdentity();
  await api.post('/auth/logout', { refreshToken: refreshToken ?? '' }, {
    auth: false,
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  keepAlive.stop();
  useSessionStore.getState().clearSession();
}

let started = false;

/**
 * SPEC §4 session restore, once at start: token, refresh token, user, current role and
 * login type come back from saved storage (default lists: see the app store); with both a
 * role and a token, the role is re-applied (menu rebuilt). Also wires the API client to
 * the session (refresh before calls, 511 handling) and follows other tabs.
 * Resolves when the role has been re-applied.
 */
export function startSession(options: { onExpired: SessionExpiredListener }): Promise<void> {
  expiredListener = options.onExpired;
  setSessionHooks({
    ensureFresh: () => keepAlive.ensureFresh(),
    recover: (tokenUsed) => keepAlive.recover(tokenUsed),
    onSessionExpired: expireSession,
  });
  if (!started) {
    started = true;
    window.addEventListener('storage', onStorage);
    window.addEventListener('online', () => keepAlive.wake());
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') keepAlive.wake();
    });
  }

  const saved = readSavedSession();
  const coherent = !!(saved.token && saved.user && saved.currentRole);
  useSessionStore.getState().hydrate({
    token: coherent ? saved.token : null,
    timing: coherent ? saved.timing : null,
    refreshToken: saved.refreshToken,
    user: saved.user,
    currentRole: saved.currentRole,
    loginType: saved.loginType,
  });
  if (!coherent) return Promise.resolve();
  keepAlive.start();
  return applyRole(saved.currentRole!);
}

/** Another tab rotated the tokens, signed out, or signed in as someone else. */
function onStorage(event: StorageEvent): void {
  if (event.key !== STORAGE.tokenTiming && event.key !== STORAGE.user && event.key !== null) return;
  const mine = useSessionStore.getState();
  if (event.key === STORAGE.user && event.newValue && mine.user) {
    let other: { id?: unknown } | null = null;
    try {
      other = JSON.parse(event.newValue) as { id?: unknown };
    } catch {
      other = null;
    }
    if (other && other.id !== mine.user.id) {
      window.location.reload();
      return;
    }
  }
  keepAlive.syncFromSaved();
}
