import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setAppQueryClient } from '../../lib/queryClient';
import { ApiError } from '../../lib/api/errors';
import * as authModule from '../../lib/session/auth';
import { useSessionStore } from '../../lib/session/store';
import { resetAppStore, useAppStore } from '../../lib/appState';
import { MENU_ALERT_TITLE } from '../../lib/session/menuAlert';
import { performLogout, performRoleSwitch, type PageDeps } from './sessionActions';

const role = { _id: 'r', id: 1003, name: 'Accountant', type: 'finance', layout: 'accounting', permissions: [] };

function deps(pathname: string) {
  const calls: string[] = [];
  const page: PageDeps & { calls: string[] } = {
    calls,
    navigate: vi.fn(async (to: string) => {
      // Loading is still on while the navigation runs.
      calls.push(`navigate ${to} loading=${useAppStore.getState().isLoading}`);
    }),
    pathname: () => pathname,
    reload: vi.fn(() => calls.push(`reload loading=${useAppStore.getState().isLoading}`)),
  };
  return page;
}

afterEach(() => {
  resetAppStore();
  useSessionStore.getState().clearSession();
});

describe('performRoleSwitch (SPEC §4 role switch)', () => {
  it('loading on, applies the role, goes to /, loading off', async () => {
    const switchRole = vi.spyOn(authModule, 'switchRole').mockImplementation(async () => {
      expect(useAppStore.getState().isLoading).toBe(true);
      return role;
    });
    const page = deps('/project/list');
    await expect(performRoleSwitch(1003, page)).resolves.toBe(true);
    expect(switchRole).toHaveBeenCalledWith(1003);
    expect(page.calls).toEqual(['navigate / loading=true']);
    expect(useAppStore.getState().isLoading).toBe(false);
    expect(page.reload).not.toHaveBeenCalled();
  });

  it('reloads the page fully when already on /', async () => {
    vi.spyOn(authModule, 'switchRole').mockResolvedValue(role);
    const page = deps('/');
    await performRoleSwitch(1003, page);
    expect(page.calls).toEqual(['reload loading=true']);
    expect(page.navigate).not.toHaveBeenCalled();
  });

  it('on failure shows an alert titled with the error name, the message as body, type alert-danger', async () => {
    vi.spyOn(authModule, 'switchRole').mockRejectedValue(new ApiError('403', 'You do not hold that role.', 403));
    const page = deps('/x');
    await expect(performRoleSwitch(9, page)).resolves.toBe(false);
    expect(useAppStore.getState()).toMatchObject({
      isLoading: false,
      showAlert: true,
      alert: expect.objectContaining({ title: '403', message: 'You do not hold that role.', type: 'alert-danger' }),
    });
    expect(page.navigate).not.toHaveBeenCalled();
  });

  it('names a network failure by its error name', async () => {
    vi.spyOn(authModule, 'switchRole').mockRejectedValue(new ApiError('TypeError', 'Failed to fetch'));
    await performRoleSwitch(9, deps('/x'));
    expect(useAppStore.getState().alert).toMatchObject({ title: 'TypeError', message: 'Failed to fetch', type: 'alert-danger' });
  });

  it('shows the new role’s missing layout once on the new page', async () => {
    vi.spyOn(authModule, 'switchRole').mockImplementation(async () => {
      useSessionStore.getState().setSession({ token: 't', refreshToken: 'r', user: { id: 1, email: '', fullName: 'Lou', roles: [] }, currentRole: null });
      useSessionStore.getState().setMenu([], 'Missing layout configuration.');
      return role;
    });
    await performRoleSwitch(1004, deps('/x'));
    expect(useAppStore.getState().alert).toMatchObject({ title: MENU_ALERT_TITLE, message: 'Missing layout configuration.' });
  });
});

describe('performLogout (SPEC §4 logout)', () => {
  it('logs out, then goes to /login, and forgets the cached server answers', async () => {
    const logout = vi.spyOn(authModule, 'logout').mockResolvedValue();
    const client = new QueryClient();
    client.setQueryData(['records', 1001, 'kinds'], [{ name: 'project' }]);
    setAppQueryClient(client);
    const page = deps('/');
    await expect(performLogout(page)).resolves.toBe(true);
    expect(client.getQueryCache().getAll()).toHaveLength(0);
    setAppQueryClient(null);
    expect(logout).toHaveBeenCalled();
    expect(page.navigate).toHaveBeenCalledWith('/login', { replace: true });
    expect(useAppStore.getState().isLoading).toBe(false);
  });

  it('on failure shows a danger alert and stays', async () => {
    vi.spyOn(authModule, 'logout').mockRejectedValue(new ApiError('503', 'Service Unavailable', 503));
    const page = deps('/');
    await expect(performLogout(page)).resolves.toBe(false);
    expect(useAppStore.getState().alert).toMatchObject({ title: '503', message: 'Service Unavailable', type: 'alert-danger' });
    expect(page.navigate).not.toHaveBeenCalled();
  });
});
