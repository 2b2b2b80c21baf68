import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/errors';
import { fakeIdentity, type FakeIdentity } from '../../test/fakeIdentity';
import { completeLogin, expireSession, keepAlive, logout, signIn, startSession, switchRole, trySilentLogin } from './auth';
import { getCookie } from './cookies';
import { setIdentityForTests } from './identity';
import { IdentityError } from './identityErrors';
import { MISSING_LAYOUT } from './layout';
import { saveCurrentRole, saveLastRole, saveTokens, saveUser } from './persist';
import { useSessionStore } from './store';
import type { MenuItem, Role, User } from './types';

const admin: Role = { _id: 'role-administrator', id: 1001, name: 'Administrator', type: 'admin', layout: 'admin', permissions: ['audit.view'] };
const pm: Role = { _id: 'role-project-manager', id: 1002, name: 'Project Manager', type: 'staff', layout: 'project-manager', permissions: [] };
const accountant: Role = { _id: 'role-accountant', id: 1003, name: 'Accountant', type: 'finance', layout: 'accounting', permissions: [] };
const fieldLead: Role = { _id: 'role-field-lead', id: 1004, name: 'Field Lead', type: 'staff', layout: '', permissions: [] };
const ada: User = { id: 1, email: 'ada.admin@portico.test', fullName: 'Ada Admin', roles: [admin, pm, accountant] };

const menus: Record<string, MenuItem[]> = {
  admin: [{ text: 'Admin', iconCss: 'icon-settings', href: '', items: [{ text: 'Reports', iconCss: '', href: '/reports/list', items: [], separator: false }], separator: false }],
  'project-manager': [{ text: 'My work', iconCss: 'icon-folder', href: '', items: [], separator: false }],
  accounting: [{ text: 'Payables', iconCss: 'icon-receipt', href: '', items: [], separator: false }],
};

const json = (body: unknown, status = 200) =>
  new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': status >= 400 ? 'application/problem+json' : 'application/json', Date: new Date().toUTCString() },
  });
const problem = (status: number, detail: string) => json({ type: 'about:blank', title: 'x', status, detail }, status);

interface Call {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: unknown;
}

/** A fake Portico server: routes by "METHOD /path", records the calls. */
function fakeServer(routes: Record<string, (call: Call) => Response>) {
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://portico.test');
    const call: Call = {
      method: init?.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: (init?.headers ?? {}) as Record<string, string>,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    calls.push(call);
    const route = routes[`${call.method} ${call.path}`];
    if (!route) return problem(404, `no route ${call.method} ${call.path}`);
    return route(call);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, find: (method: string, path: string) => calls.filter((c) => c.method === method && c.path === path) };
}

const hour = () => new Date(Date.now() + 15 * 60_000).toISOString();

function loginAnswer(user: User = ada, currentRole: Role = user.roles[0]!) {
  return json({ data: { token: 'access-1', tokenExpiresAt: hour(), refreshToken: 'refresh-1', user, currentRole } });
}

const layoutRoute = (call: Call) => {
  const id = call.path.split('/').pop()!;
  return menus[id] ? json({ data: { items: menus[id] } }) : problem(404, MISSING_LAYOUT);
};

let identity: FakeIdentity;

beforeEach(() => {
  identity = fakeIdentity();
  setIdentityForTests(identity);
});

afterEach(() => {
  keepAlive.stop();
  useSessionStore.getState().clearSession();
  vi.unstubAllGlobals();
});

describe('signIn (SPEC §4 login steps 1–5)', () => {
  it('signs in with the identity service, exchanges the token, stores the session, loads the role’s menu', async () => {
    const server = fakeServer({ 'GET /api/v1/auth/login': () => loginAnswer(), 'GET /api/v1/layout/configurations/admin': layoutRoute });

    await signIn({ method: 'password', email: 'ada.admin@portico.test', password: 'pw' });

    expect(identity.signInWithPassword).toHaveBeenCalledWith('ada.admin@portico.test', 'pw');
    const [login] = server.find('GET', '/api/v1/auth/login');
    expect(login!.query.get('idToken')).toBe('id-token');
    expect(login!.query.has('oauthIdToken')).toBe(false);
    expect(login!.headers['Authorization']).toBeUndefined();

    const session = useSessionStore.getState();
    expect(session).toMatchObject({ token: 'access-1', refreshToken: 'refresh-1', user: ada, currentRole: admin, loginType: 'admin' });
    expect(session.categories).toEqual(menus['admin']);
    expect(session.menuError).toBeNull();
    expect(session.tokenTiming!.expiresAt).toBeGreaterThan(Date.now() + 14 * 60_000);

    const [layout] = server.find('GET', '/api/v1/layout/configurations/admin');
    expect(layout!.headers).toMatchObject({ Authorization: 'Bearer access-1', 'X-Role-Id': '1001' });
    expect(getCookie('token')).toBe('access-1');
    expect(getCookie('lastRole')).toBe('1001');
    expect(getCookie('loginType')).toBe('admin');
  });

  it('applies the remembered last role when the user still holds it', async () => {
    saveLastRole(1003);
    const server = fakeServer({ 'GET /api/v1/auth/login': () => loginAnswer(), 'GET /api/v1/layout/configurations/accounting': layoutRoute });
    await signIn({ method: 'password', email: 'a@b.c', password: 'pw' });
    expect(useSessionStore.getState()).toMatchObject({ currentRole: accountant, loginType: 'finance', categories: menus['accounting'] });
    expect(server.find('GET', '/api/v1/layout/configurations/accounting')[0]!.headers['X-Role-Id']).toBe('1003');
  });

  it('ignores a remembered role the user no longer holds', async () => {
    saveLastRole(4242);
    fakeServer({ 'GET /api/v1/auth/login': () => loginAnswer(), 'GET /api/v1/layout/configurations/admin': layoutRoute });
    await signIn({ method: 'password', email: 'a@b.c', password: 'pw' });
    expect(useSessionStore.getState().currentRole).toEqual(admin);
  });

  it('sends the provider token too for a work-account sign-in', async () => {
    const server = fakeServer({ 'GET /api/v1/auth/login': () => loginAnswer(), 'GET /api/v1/layout/configurations/admin': layoutRoute });
    await signIn({ method: 'workAccount', workEmail: 'sam@x.test' });
    expect(identity.signInWithWorkAccount).toHaveBeenCalledWith('sam@x.test');
    const [login] = server.find('GET', '/api/v1/auth/login');
    expect(login!.query.get('oauthIdToken')).toBe('oauth-token');
  });

  it('completes an email link with the email it was sent to', async () => {
    fakeServer({ 'GET /api/v1/auth/login': () => loginAnswer(), 'GET /api/v1/layout/configurations/admin': layoutRoute });
    await signIn({ method: 'emailLink', email: 'ada@x.test', link: 'http://portico.test/login?mode=signIn&oobCode=c' });
    expect(identity.signInWithLink).toHaveBeenCalledWith('ada@x.test', 'http://portico.test/login?mode=signIn&oobCode=c');
  });

  it('a role without a layout: signed in, empty menu, "Missing layout configuration." and no layout call', async () => {
    const lou: User = { id: 4, email: 'lou@x.test', fullName: 'Lou Layout', roles: [fieldLead] };
    const server = fakeServer({ 'GET /api/v1/auth/login': () => loginAnswer(lou, fieldLead) });
    await signIn({ method: 'password', email: 'lou@x.test', password: 'pw' });
    expect(useSessionStore.getState()).toMatchObject({ token: 'access-1', categories: [], menuError: 'Missing layout configuration.' });
    expect(server.calls.filter((c) => c.path.startsWith('/api/v1/layout'))).toEqual([]);
  });

  it('a layout the server does not have: the server’s message, empty menu', async () => {
    const odd: Role = { ...pm, layout: 'gone' };
    fakeServer({ 'GET /api/v1/auth/login': () => loginAnswer({ ...ada, roles: [odd] }, odd), 'GET /api/v1/layout/configurations/gone': layoutRoute });
    await signIn({ method: 'password', email: 'a@b.c', password: 'pw' });
    expect(useSessionStore.getState()).toMatchObject({ categories: [], menuError: MISSING_LAYOUT });
  });

  it('a portal refusal (403) rejects with the server’s words and signs the identity user out again', async () => {
    fakeServer({ 'GET /api/v1/auth/login': () => problem(403, 'Your Portico account has no roles yet. Ask your administrator to give you one.') });
    const error = await signIn({ method: 'password', email: 'nora@x.test', password: 'pw' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ name: '403', message: 'Your Portico account has no roles yet. Ask your administrator to give you one.' });
    expect(identity.signOut).toHaveBeenCalled();
    expect(useSessionStore.getState().token).toBeNull();
    expect(getCookie('token')).toBeNull();
  });

  it('too many attempts (429): the server’s message as it comes', async () => {
    fakeServer({ 'GET /api/v1/auth/login': () => problem(429, 'Too many sign-in attempts. Please wait a moment and try again.') });
    await expect(signIn({ method: 'password', email: 'a@b.c', password: 'pw' })).rejects.toMatchObject({
      message: 'Too many sign-in attempts. Please wait a moment and try again.',
    });
  });

  it('user-disabled and user-token-expired sign the user out everywhere (SPEC §8)', async () => {
    for (const code of ['auth/user-disabled', 'auth/user-token-expired']) {
      useSessionStore.getState().setSession({ token: 'old', refreshToken: 'old-r', user: ada, currentRole: admin });
      identity.signOut.mockClear();
      identity.signInWithPassword.mockRejectedValueOnce(new IdentityError(code));
      await expect(signIn({ method: 'password', email: 'a@b.c', password: 'pw' })).rejects.toMatchObject({ code });
      expect(identity.signOut).toHaveBeenCalled();
      expect(useSessionStore.getState().token).toBeNull();
      expect(getCookie('refreshToken')).toBeNull();
    }
  });

  it('a wrong password changes nothing', async () => {
    useSessionStore.getState().setSession({ token: 'old', refreshToken: 'old-r', user: ada, currentRole: admin });
    identity.signInWithPassword.mockRejectedValueOnce(new IdentityError('auth/wrong-password'));
    await expect(signIn({ method: 'password', email: 'a@b.c', password: 'x' })).rejects.toBeInstanceOf(IdentityError);
    expect(identity.signOut).not.toHaveBeenCalled();
    expect(useSessionStore.getState().token).toBe('old');
  });
});

describe('trySilentLogin (guard step 3)', () => {
  it('restores the session from the saved refresh token', async () => {
    saveUser(ada);
    saveCurrentRole(pm);
    document.cookie = 'refreshToken=saved-r; path=/';
    const server = fakeServer({
      'POST /api/v1/auth/refresh': () => json({ data: { token: 'access-2', tokenExpiresAt: hour(), refreshToken: 'refresh-2' } }),
      'GET /api/v1/layout/configurations/project-manager': layoutRoute,
    });
    await expect(trySilentLogin()).resolves.toBe(true);
    expect(server.find('POST', '/api/v1/auth/refresh')[0]!.body).toEqual({ refreshToken: 'saved-r' });
    expect(useSessionStore.getState()).toMatchObject({ token: 'access-2', refreshToken: 'refresh-2', currentRole: pm, user: ada });
    expect(useSessionStore.getState().categories).toEqual(menus['project-manager']);
    expect(getCookie('refreshToken')).toBe('refresh-2');
    expect(identity.currentIdToken).not.toHaveBeenCalled();
  });

  it('fails, and forgets the saved session, when the refresh token is refused', async () => {
    saveUser(ada);
    saveCurrentRole(pm);
    document.cookie = 'refreshToken=revoked; path=/';
    fakeServer({ 'POST /api/v1/auth/refresh': () => problem(511, 'Your session has ended. Please sign in again.') });
    await expect(trySilentLogin()).resolves.toBe(false);
    expect(getCookie('refreshToken')).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
    expect(useSessionStore.getState().token).toBeNull();
  });

  it('falls back to the identity SDK’s persisted user', async () => {
    localStorage.setItem('firebase:authUser::[DEFAULT]', '{}');
    identity.currentIdToken.mockResolvedValue('persisted-id-token');
    const server = fakeServer({ 'GET /api/v1/auth/login': () => loginAnswer(), 'GET /api/v1/layout/configurations/admin': layoutRoute });
    await expect(trySilentLogin()).resolves.toBe(true);
    expect(server.find('GET', '/api/v1/auth/login')[0]!.query.get('idToken')).toBe('persisted-id-token');
  });

  it('lets go of a persisted identity user the portal refuses', async () => {
    localStorage.setItem('firebase:authUser::[DEFAULT]', '{}');
    identity.currentIdToken.mockResolvedValue('nora-token');
    fakeServer({ 'GET /api/v1/auth/login': () => problem(403, 'no roles') });
    await expect(trySilentLogin()).resolves.toBe(false);
    expect(identity.signOut).toHaveBeenCalled();
  });

  it('answers false at once with nothing saved', async () => {
    const server = fakeServer({});
    await expect(trySilentLogin()).resolves.toBe(false);
    expect(server.calls).toEqual([]);
    expect(identity.currentIdToken).not.toHaveBeenCalled();
  });
});

describe('switchRole (SPEC §4)', () => {
  it('asks the server with the current role, then applies the new role and loads its menu', async () => {
    useSessionStore.getState().setSession({ token: 'access-1', refreshToken: 'r', tokenTiming: { issuedAt: Date.now(), expiresAt: Date.now() + 600_000 }, user: ada, currentRole: admin });
    const server = fakeServer({
      'POST /api/v1/auth/role': () => json({ data: { currentRole: accountant } }),
      'GET /api/v1/layout/configurations/accounting': layoutRoute,
    });
    await expect(switchRole(1003)).resolves.toEqual(accountant);
    const [call] = server.find('POST', '/api/v1/auth/role');
    expect(call!.body).toEqual({ roleId: 1003 });
    expect(call!.headers['X-Role-Id']).toBe('1001');
    expect(server.find('GET', '/api/v1/layout/configurations/accounting')[0]!.headers['X-Role-Id']).toBe('1003');
    expect(useSessionStore.getState()).toMatchObject({ currentRole: accountant, categories: menus['accounting'] });
    expect(getCookie('lastRole')).toBe('1003');
    expect(JSON.parse(localStorage.getItem('currentRole')!)).toEqual(accountant);
  });

  it('leaves the role as it was when the server refuses', async () => {
    useSessionStore.getState().setSession({ token: 'access-1', refreshToken: 'r', tokenTiming: { issuedAt: Date.now(), expiresAt: Date.now() + 600_000 }, user: ada, currentRole: admin });
    fakeServer({ 'POST /api/v1/auth/role': () => problem(403, 'You do not hold that role.') });
    await expect(switchRole(9)).rejects.toMatchObject({ name: '403', message: 'You do not hold that role.' });
    expect(useSessionStore.getState().currentRole).toEqual(admin);
  });
});

describe('logout (SPEC §4)', () => {
  beforeEach(() => {
    saveLastRole(1001);
    useSessionStore.getState().setSession({ token: 'access-1', refreshToken: 'refresh-1', user: ada, currentRole: admin, loginType: 'admin' });
  });

  it('signs out of the identity service and the server, and forgets the session', async () => {
    const server = fakeServer({ 'POST /api/v1/auth/logout': () => json(null, 204) });
    await logout();
    expect(identity.signOut).toHaveBeenCalled();
    const [call] = server.find('POST', '/api/v1/auth/logout');
    expect(call!.headers['Authorization']).toBe('Bearer access-1');
    expect(call!.body).toEqual({ refreshToken: 'refresh-1' });
    expect(useSessionStore.getState()).toMatchObject({ token: null, refreshToken: null, user: null, currentRole: null });
    expect([getCookie('token'), getCookie('refreshToken'), localStorage.getItem('user'), localStorage.getItem('currentRole')]).toEqual([null, null, null, null]);
    expect(getCookie('lastRole')).toBe('1001');
  });

  it('keeps the session when the server sign-out fails', async () => {
    fakeServer({ 'POST /api/v1/auth/logout': () => problem(503, 'Service Unavailable') });
    await expect(logout()).rejects.toMatchObject({ name: '503' });
    expect(useSessionStore.getState().token).toBe('access-1');
  });
});

describe('session restore and expiry', () => {
  it('restores token, user, role and login type and re-applies the role (menu rebuilt)', async () => {
    saveTokens('saved-access', 'saved-refresh', { issuedAt: Date.now(), expiresAt: Date.now() + 600_000 });
    saveUser(ada);
    saveCurrentRole(accountant);
    document.cookie = 'loginType=finance; path=/';
    const server = fakeServer({ 'GET /api/v1/layout/configurations/accounting': layoutRoute });
    await startSession({ onExpired: vi.fn() });
    expect(useSessionStore.getState()).toMatchObject({
      token: 'saved-access',
      refreshToken: 'saved-refresh',
      user: ada,
      currentRole: accountant,
      loginType: 'finance',
      categories: menus['accounting'],
    });
    expect(server.calls[0]!.headers).toMatchObject({ Authorization: 'Bearer saved-access', 'X-Role-Id': '1003' });
  });

  it('does not restore a token without its user and role', async () => {
    document.cookie = 'token=stray; path=/';
    await startSession({ onExpired: vi.fn() });
    expect(useSessionStore.getState().token).toBeNull();
  });

  it('a 511 anywhere ends the session once and tells the listener', async () => {
    saveTokens('saved-access', 'saved-refresh', { issuedAt: Date.now(), expiresAt: Date.now() + 600_000 });
    saveUser(ada);
    saveCurrentRole(admin);
    const onExpired = vi.fn();
    fakeServer({
      'GET /api/v1/layout/configurations/admin': () => problem(511, 'Your session has ended. Please sign in again.'),
      'POST /api/v1/auth/refresh': () => problem(511, 'Your session has ended. Please sign in again.'),
    });
    await startSession({ onExpired });
    expect(onExpired).toHaveBeenCalledOnce();
    expect(onExpired.mock.calls[0]![0]).toMatchObject({ status: 511 });
    expect(useSessionStore.getState().token).toBeNull();
    expect(getCookie('token')).toBeNull();
    expireSession(new ApiError('511', 'again', 511));
    expect(onExpired).toHaveBeenCalledOnce();
  });

  it('completeLogin rejects an answer without a user', async () => {
    fakeServer({ 'GET /api/v1/auth/login': () => json({ data: { token: 't', tokenExpiresAt: hour(), refreshToken: 'r' } }) });
    await expect(completeLogin({ idToken: 'x' })).rejects.toMatchObject({ name: '500' });
    expect(useSessionStore.getState().token).toBeNull();
  });
});
