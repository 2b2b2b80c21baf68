import { describe, expect, it } from 'vitest';
import { getCookie, removeCookie, setCookie, type CookieJar } from './cookies';
import {
  asRole,
  asUser,
  clearSavedSession,
  readDefaultLists,
  readLastRole,
  readSavedSession,
  saveCurrentRole,
  saveDefaultLists,
  saveLastRole,
  saveLoginType,
  saveTokens,
  saveUser,
} from './persist';
import type { Role, User } from './types';

/** Records what is written to document.cookie. */
function recordingJar(): CookieJar & { written: string[] } {
  const written: string[] = [];
  let store = '';
  return {
    written,
    get cookie() {
      return store;
    },
    set cookie(value: string) {
      written.push(value);
      const [pair] = value.split(';');
      store = store ? `${store}; ${pair}` : pair!;
    },
  };
}

const role: Role = { _id: 'role-acc', id: 1003, name: 'Accountant', type: 'finance', layout: 'accounting', permissions: ['invoice.view'] };
const user: User = { id: 1, email: 'ada@example.com', fullName: 'Ada Admin', roles: [role] };

describe('cookie helper (SPEC §9)', () => {
  it('defaults to 1 day, SameSite=Lax, path /; Secure on request', () => {
    const jar = recordingJar();
    const now = Date.UTC(2030, 0, 1);
    setCookie('token', 'a b;c', { now, secure: false }, jar);
    expect(jar.written[0]).toBe(`token=a%20b%3Bc; expires=${new Date(now + 86_400_000).toUTCString()}; path=/; SameSite=Lax`);
    setCookie('refreshToken', 'r', { days: 365, now, secure: true }, jar);
    expect(jar.written[1]).toBe(`refreshToken=r; expires=${new Date(now + 365 * 86_400_000).toUTCString()}; path=/; SameSite=Lax; Secure`);
    expect(getCookie('token', jar)).toBe('a b;c');
    expect(getCookie('missing', jar)).toBeNull();
    removeCookie('token', { secure: false }, jar);
    expect(jar.written[2]).toBe('token=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/; SameSite=Lax');
  });
});

describe('saved client state (SPEC §3)', () => {
  it('keeps tokens and login type in cookies, user and role in local storage', () => {
    saveTokens('tok', 'ref', { issuedAt: 1, expiresAt: 2 });
    saveUser(user);
    saveCurrentRole(role);
    saveLoginType('finance');
    saveLastRole(1003);
    expect(getCookie('token')).toBe('tok');
    expect(getCookie('refreshToken')).toBe('ref');
    expect(getCookie('loginType')).toBe('finance');
    expect(getCookie('lastRole')).toBe('1003');
    expect(JSON.parse(localStorage.getItem('user')!)).toEqual(user);
    expect(JSON.parse(localStorage.getItem('currentRole')!)).toEqual(role);
    expect(readSavedSession()).toEqual({
      token: 'tok',
      refreshToken: 'ref',
      timing: { issuedAt: 1, expiresAt: 2 },
      loginType: 'finance',
      user,
      currentRole: role,
    });
    expect(readLastRole()).toBe(1003);
  });

  it('forgets the session but keeps the last role, login type and default lists', () => {
    saveTokens('tok', 'ref', { issuedAt: 1, expiresAt: 2 });
    saveUser(user);
    saveCurrentRole(role);
    saveLoginType('finance');
    saveLastRole(1003);
    saveDefaultLists({ project: 'customsearch_1' });
    clearSavedSession();
    expect(readSavedSession()).toEqual({ token: null, refreshToken: null, timing: null, loginType: 'finance', user: null, currentRole: null });
    expect(readLastRole()).toBe(1003);
    expect(readDefaultLists()).toEqual({ project: 'customsearch_1' });
  });

  it('drops malformed saved values instead of trusting them', () => {
    localStorage.setItem('user', '{not json');
    localStorage.setItem('currentRole', JSON.stringify({ id: '7', name: 'x' }));
    localStorage.setItem('defaultLists', JSON.stringify({ project: 5, vendor: 'v' }));
    document.cookie = 'lastRole=abc; path=/';
    expect(readSavedSession()).toMatchObject({ user: null, currentRole: null });
    expect(readDefaultLists()).toEqual({ vendor: 'v' });
    expect(readLastRole()).toBeNull();
    expect(asUser({ fullName: 'X', roles: [role, { bad: true }] })).toEqual({ id: 0, email: '', fullName: 'X', roles: [role] });
    expect(asRole({ id: 9, name: 'R' })).toEqual({ _id: '9', id: 9, name: 'R', type: '', layout: '', permissions: [] });
  });
});
