import { create } from 'zustand';
import {
  clearSavedSession,
  saveCurrentRole,
  saveLastRole,
  saveLoginType,
  saveTokens,
  saveUser,
  type SavedSession,
  type TokenTiming,
} from './persist';
import type { LoginType, MenuItem, Role, User } from './types';

/**
 * The client session (SPEC §3): user, loginType, token, refreshToken, currentRole and the
 * menu tree (categories). Every action that changes saved client state also writes it
 * (cookies and local storage, see persist.ts), so the store and the saved state cannot
 * drift apart; {@link SessionActions.hydrate} is the one way in that does not write.
 */
export interface SessionState {
  token: string | null;
  /** When the access token was issued and expires, in this browser's clock. */
  tokenTiming: TokenTiming | null;
  refreshToken: string | null;
  user: User | null;
  currentRole: Role | null;
  loginType: LoginType | null;
  /** The menu tree built from the current role's layout. */
  categories: MenuItem[];
  /** Why there is no menu, e.g. "Missing layout configuration." (SPEC §5); null when fine. */
  menuError: string | null;
}

export interface SessionActions {
  /** Stores a whole session (login). */
  setSession(session: {
    token: string;
    refreshToken: string;
    tokenTiming?: TokenTiming | null;
    user: User;
    currentRole: Role | null;
    loginType?: LoginType | null;
  }): void;
  /** Stores a rotated token pair. */
  setTokens(token: string, refreshToken: string, timing: TokenTiming): void;
  /** Stores the current role and remembers it as the last role (SPEC §6). */
  setCurrentRole(role: Role): void;
  setLoginType(loginType: LoginType): void;
  /** Stores the menu built for the current role, or why there is none. */
  setMenu(categories: MenuItem[], error?: string | null): void;
  /** Loads saved state without writing it back (session restore, other tabs). */
  hydrate(saved: Partial<SavedSession>): void;
  /** Forgets token, refresh token, user, current role and menu, in memory and saved. */
  clearSession(): void;
}

export type SessionStore = SessionState & SessionActions;

export const emptySession: SessionState = {
  token: null,
  tokenTiming: null,
  refreshToken: null,
  user: null,
  currentRole: null,
  loginType: null,
  categories: [],
  menuError: null,
};

/** A timing for a token whose expiry is unknown: treat it as due for refresh now. */
function unknownTiming(): TokenTiming {
  const now = Date.now();
  return { issuedAt: now - 1, expiresAt: now };
}

export const useSessionStore = create<SessionStore>()((set, get) => ({
  ...emptySession,

  setSession: ({ token, refreshToken, tokenTiming, user, currentRole, loginType }) => {
    const timing = tokenTiming ?? unknownTiming();
    saveTokens(token, refreshToken, timing);
    saveUser(user);
    if (currentRole) {
      saveCurrentRole(currentRole);
      saveLastRole(currentRole.id);
    }
    if (loginType) saveLoginType(loginType);
    set({
      token,
      refreshToken,
      tokenTiming: timing,
      user,
      currentRole,
      loginType: loginType ?? get().loginType,
    });
  },

  setTokens: (token, refreshToken, timing) => {
    saveTokens(token, refreshToken, timing);
    set({ token, refreshToken, tokenTiming: timing });
  },

  setCurrentRole: (role) => {
    saveCurrentRole(role);
    saveLastRole(role.id);
    set({ currentRole: role });
  },

  setLoginType: (loginType) => {
    saveLoginType(loginType);
    set({ loginType });
  },

  setMenu: (categories, error = null) => set({ categories, menuError: error }),

  hydrate: (saved) => {
    const next: Partial<SessionState> = {};
    if (saved.token !== undefined) next.token = saved.token;
    if (saved.refreshToken !== undefined) next.refreshToken = saved.refreshToken;
    if (saved.timing !== undefined) next.tokenTiming = saved.timing;
    if (saved.user !== undefined) next.user = saved.user;
    if (saved.currentRole !== undefined) next.currentRole = saved.currentRole;
    if (saved.loginType !== undefined) next.loginType = saved.loginType;
    set(next);
  },

  clearSession: () => {
    clearSavedSession();
    set({ ...emptySession, loginType: get().loginType });
  },
}));

/** SPEC §4: authenticated means a token is present. */
export const selectIsAuthenticated = (state: SessionState): boolean => !!state.token;

/** Non-React read, for loaders and the API client. */
export function isAuthenticated(): boolean {
  return selectIsAuthenticated(useSessionStore.getState());
}

export function useIsAuthenticated(): boolean {
  return useSessionStore(selectIsAuthenticated);
}
