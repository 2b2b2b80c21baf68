export { useSessionStore, useIsAuthenticated, isAuthenticated, selectIsAuthenticated, emptySession } from './store';
export type { SessionState, SessionStore } from './store';
export { signIn, trySilentLogin, completeLogin, switchRole, logout, startSession, expireSession, keepAlive } from './auth';
export type { SignInRequest, SessionExpiredListener } from './auth';
export { buildMenu, MISSING_LAYOUT } from './layout';
export { loadIdentity, preloadIdentity } from './identity';
export type { IdentityClient, IdentityTokens } from './identity';
export { IdentityError, identityErrorMessage, IDENTITY_ERROR_MESSAGES } from './identityErrors';
export type { Role, RoleOption, User, LoginType, MenuItem } from './types';
