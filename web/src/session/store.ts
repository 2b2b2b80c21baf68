import { create } from 'zustand';
import type { LoginType, Role, User } from './types';

/**
 * The client session (SPEC §3/§4). Persistence (cookies for the tokens and login type,
 * local storage for user and role) is added with the sign-in issue; for now it lives in memory.
 */
export interface SessionState {
  token: string | null;
  refreshToken: string | null;
  user: User | null;
  currentRole: Role | null;
  loginType: LoginType | null;
}

export interface SessionActions {
  /** Stores what `GET /api/v1/auth/login` answered. */
  setSession(session: {
    token: string;
    refreshToken: string;
    user: User;
    currentRole: Role | null;
    loginType?: LoginType | null;
  }): void;
  /** Forgets everything: tokens, user and role. */
  clearSession(): void;
}

export type SessionStore = SessionState & SessionActions;

export const emptySession: SessionState = {
  token: null,
  refreshToken: null,
  user: null,
  currentRole: null,
  loginType: null,
};

export const useSessionStore = create<SessionStore>()((set) => ({
  ...emptySession,
  setSession: ({ token, refreshToken, user, currentRole, loginType = null }) =>
    set({ token, refreshToken, user, currentRole, loginType }),
  clearSession: () => set({ ...emptySession }),
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
