export { useSessionStore, useIsAuthenticated, isAuthenticated, selectIsAuthenticated, emptySession } from './store';
export type { SessionState, SessionStore } from './store';
export { signIn, trySilentLogin, SignInUnavailableError } from './signIn';
export type { SignInRequest } from './signIn';
export type { Role, User, LoginType } from './types';
