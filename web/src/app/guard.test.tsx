import { screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as authModule from '../lib/session/auth';
import { useSessionStore } from '../lib/session/store';
import { resetAppStore, useAppStore } from '../lib/appState';
import { renderWithProviders } from '../test/render';
import { hideAlertOnNavigation, requireAuth } from './guard';
import { routes } from './routes';

const role = { _id: 'role-pm', id: 1002, name: 'Project Manager', type: 'staff', layout: 'project-manager', permissions: [] };

function signInAs(fullName = 'Ada Lovelace') {
  useSessionStore.getState().setSession({
    token: 'token',
    refreshToken: 'refresh',
    user: { id: 1, email: 'user@example.com', fullName, roles: [role] },
    currentRole: role,
  });
}

async function redirectOf(promise: Promise<unknown>): Promise<Response> {
  const thrown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(thrown).toBeInstanceOf(Response);
  return thrown as Response;
}

afterEach(() => {
  useSessionStore.getState().clearSession();
  resetAppStore();
});

describe('requireAuth loader', () => {
  it('redirects an unauthenticated user to /login with the full path and search', async () => {
    const response = await redirectOf(requireAuth({ request: new Request('http://portico.test/project/view?id=42&tab=files') }));
    expect(response.status).toBe(302);
    const location = response.headers.get('Location')!;
    expect(location).toBe('/login?redirect=%2Fproject%2Fview%3Fid%3D42%26tab%3Dfiles');
    expect(new URLSearchParams(location.split('?')[1]).get('redirect')).toBe('/project/view?id=42&tab=files');
  });

  it('redirects / to /login?redirect=%2F', async () => {
    const response = await redirectOf(requireAuth({ request: new Request('http://portico.test/') }));
    expect(response.headers.get('Location')).toBe('/login?redirect=%2F');
  });

  it('lets an authenticated user through', async () => {
    signInAs();
    await expect(requireAuth({ request: new Request('http://portico.test/') })).resolves.toBeNull();
  });

  it('shows a spinner while trying a silent login, and continues when it succeeds', async () => {
    const spy = vi.spyOn(authModule, 'trySilentLogin').mockImplementation(async () => {
      expect(useAppStore.getState()).toMatchObject({ isLoading: true, simpleSpinner: true });
      signInAs();
      return true;
    });
    await expect(requireAuth({ request: new Request('http://portico.test/') })).resolves.toBeNull();
    expect(spy).toHaveBeenCalledOnce();
    expect(useAppStore.getState().isLoading).toBe(false);
  });

  it('redirects when the silent login fails', async () => {
    vi.spyOn(authModule, 'trySilentLogin').mockRejectedValue(new Error('network'));
    const response = await redirectOf(requireAuth({ request: new Request('http://portico.test/x?y=1') }));
    expect(response.headers.get('Location')).toBe('/login?redirect=%2Fx%3Fy%3D1');
    expect(useAppStore.getState().isLoading).toBe(false);
  });
});

describe('hideAlertOnNavigation', () => {
  it('hides a visible alert', () => {
    useAppStore.getState().raiseAlert({ message: 'old news' });
    hideAlertOnNavigation();
    expect(useAppStore.getState().showAlert).toBe(false);
  });
});

describe('route table', () => {
  function renderAt(path: string) {
    const router = createMemoryRouter(routes, { initialEntries: [path] });
    renderWithProviders(<RouterProvider router={router} />);
    return router;
  }

  it('sends an unauthenticated visitor of / to the sign-in form', async () => {
    const router = renderAt('/');
    expect(await screen.findByRole('heading', { name: 'Portico' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.search).toBe('?redirect=%2F');
    expect(screen.queryByRole('heading', { name: 'Dashboard' })).not.toBeInTheDocument();
  });

  it('renders the dashboard with the navbar for an authenticated user', async () => {
    signInAs('Grace Hopper');
    const router = renderAt('/');
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByText('Welcome, Grace.')).toBeInTheDocument();
    expect(screen.getByText('You are working as Project Manager.')).toBeInTheDocument();
  });

  it('shows no navbar on the public login route even when authenticated', async () => {
    signInAs();
    renderAt('/login');
    expect(await screen.findByRole('heading', { name: 'Portico' })).toBeInTheDocument();
    expect(screen.queryByRole('banner')).not.toBeInTheDocument();
  });

  it('redirects unknown paths to /404', async () => {
    const router = renderAt('/no/such/page?x=1');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/404'));
    expect(screen.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');
  });

  it('carries the meta flags in the route handles', () => {
    const root = routes[0]!;
    const authenticated = root.children!.find((r) => r.id === 'authenticated')!;
    expect(authenticated.handle).toMatchObject({ requiresAuth: true, showNavbar: true });
    expect(authenticated.loader).toBe(requireAuth);
    expect(authenticated.children![0]).toMatchObject({ path: '/', handle: { model: 'project' } });
    const login = root.children!.find((r) => r.path === '/login')!;
    expect(login.handle).toMatchObject({ requiresAuth: false, showNavbar: false });
  });
});
