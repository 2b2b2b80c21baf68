import { getCookie, removeCookie, setCookie } from './cookies';
import type { LoginType, Role, User } from './types';

/**
 * Saved client state (SPEC §3 and §9):
 * - cookies: token (1 day); refreshToken, loginType and the last role (365 days);
 *   all SameSite=Lax, Secure on https;
 * - local storage: user, currentRole and defaultLists (JSON).
 * Also in local storage, `tokenTiming`: when the access token was issued and expires, in
 * this browser's clock, so a reloaded page knows when to refresh it (the keep-alive of
 * SPEC §9), and other tabs learn of a rotation through its storage event.
 */
export const COOKIE = {
  token: 'token',
  refreshToken: 'refreshToken',
  loginType: 'loginType',
  lastRole: 'lastRole',
} as const;

export const STORAGE = {
  user: 'user',
  currentRole: 'currentRole',
  defaultLists: 'defaultLists',
  tokenTiming: 'tokenTiming',
} as const;

export const TOKEN_COOKIE_DAYS = 1;
export const LONG_COOKIE_DAYS = 365;

/** Issue and expiry of the access token, ms since epoch in this browser's clock. */
export interface TokenTiming {
  issuedAt: number;
  expiresAt: number;
}

export interface SavedTokens {
  token: string | null;
  refreshToken: string | null;
  timing: TokenTiming | null;
}

export interface SavedSession extends SavedTokens {
  loginType: LoginType | null;
  user: User | null;
  currentRole: Role | null;
}

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

function readJson(key: string): unknown {
  const raw = storage()?.getItem(key);
  if (!raw) return null;
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}

function writeJson(key: string, value: unknown): void {
  try {
    storage()?.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or disabled: the session still works for this page.
  }
}

function remove(key: string): void {
  try {
    storage()?.removeItem(key);
  } catch {
    // ignore
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A role as saved; anything malformed is dropped rather than trusted. */
export function asRole(value: unknown): Role | null {
  if (!isObject(value)) return null;
  const { _id, id, name, type, layout, permissions } = value;
  if (typeof id !== 'number' || typeof name !== 'string') return null;
  return {
    _id: typeof _id === 'string' ? _id : String(id),
    id,
    name,
    type: typeof type === 'string' ? type : '',
    layout: typeof layout === 'string' ? layout : '',
    permissions: Array.isArray(permissions) ? permissions.filter((p): p is string => typeof p === 'string') : [],
  };
}

export function asUser(value: unknown): User | null {
  if (!isObject(value)) return null;
  const { id, email, fullName, roles } = value;
  if (typeof fullName !== 'string' || !Array.isArray(roles)) return null;
  return {
    id: typeof id === 'number' ? id : 0,
    email: typeof email === 'string' ? email : '',
    fullName,
    roles: roles.map(asRole).filter((r): r is Role => r !== null),
  };
}

function asTiming(value: unknown): TokenTiming | null {
  if (!isObject(value)) return null;
  const { issuedAt, expiresAt } = value;
  if (typeof issuedAt !== 'number' || typeof expiresAt !== 'number' || !(expiresAt > issuedAt)) return null;
  return { issuedAt, expiresAt };
}

export function readSavedTokens(): SavedTokens {
  return {
    token: getCookie(COOKIE.token),
    refreshToken: getCookie(COOKIE.refreshToken),
    timing: asTiming(readJson(STORAGE.tokenTiming)),
  };
}

export function readSavedSession(): SavedSession {
  return {
    ...readSavedTokens(),
    loginType: getCookie(COOKIE.loginType),
    user: asUser(readJson(STORAGE.user)),
    currentRole: asRole(readJson(STORAGE.currentRole)),
  };
}

export function saveTokens(token: string, refreshToken: string, timing: TokenTiming): void {
  setCookie(COOKIE.token, token, { days: TOKEN_COOKIE_DAYS });
  setCookie(COOKIE.refreshToken, refreshToken, { days: LONG_COOKIE_DAYS });
  // Written last: other tabs react to this key's storage event and read the cookies.
  writeJson(STORAGE.tokenTiming, timing);
}

export function saveUser(user: User): void {
  writeJson(STORAGE.user, user);
}

export function saveCurrentRole(role: Role): void {
  writeJson(STORAGE.currentRole, role);
}

export function saveLoginType(loginType: LoginType): void {
  setCookie(COOKIE.loginType, loginType, { days: LONG_COOKIE_DAYS });
}

/** SPEC §6: the last role used, applied at the next login if still held. */
export function saveLastRole(roleId: number): void {
  setCookie(COOKIE.lastRole, String(roleId), { days: LONG_COOKIE_DAYS });
}

export function readLastRole(): number | null {
  const raw = getCookie(COOKIE.lastRole);
  if (!raw || !/^\d+$/.test(raw)) return null;
  return Number(raw);
}

/**
 * Forgets the session (SPEC §4 logout): token, refresh token, user and current role. The
 * last role, the login type and the default lists stay: they are preferences.
 */
export function clearSavedSession(): void {
  removeCookie(COOKIE.token);
  removeCookie(COOKIE.refreshToken);
  remove(STORAGE.currentRole);
  remove(STORAGE.tokenTiming);
  // Last: other tabs take the removal of the user as "signed out".
  remove(STORAGE.user);
}

export function readDefaultLists(): Record<string, string> {
  const value = readJson(STORAGE.defaultLists);
  if (!isObject(value)) return {};
  const lists: Record<string, string> = {};
  for (const [kind, id] of Object.entries(value)) if (typeof id === 'string') lists[kind] = id;
  return lists;
}

export function saveDefaultLists(lists: Record<string, string>): void {
  writeJson(STORAGE.defaultLists, lists);
}
