import { screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../lib/api/errors';
import { expireSession, keepAlive } from '../lib/session/auth';
import { saveCurrentRole, saveDefaultLists, saveTokens, saveUser } from '../lib/session/persist';
import { useSessionStore } from '../lib/session/store';
import { resetAppStore, useAppStore } from '../lib/appState';
import { renderWithProviders } from '../test/render';
import { routes } from './routes';
import { connectSession, whenNavigationSettles } from './startup';

const lead = { _id: 'role-field-lead', id: 1004, name: 'Field Lead', type: 'staff', layout: '', permissions: [] };
const lou = { id: 4, email: 'lou@x.test', fullName: 'Lou Layout', roles: [lead] };

afterEach(() => {
  keepAlive.stop();
  useSessionStore.getState().clearSession();
  resetAppStore();
  vi.unstubAllGlobals();
});

describe('connectSession', () => {
  it('restores the saved session and default lists before the first navigation, then shows a missing layout', async () => {
    saveTokens('tok', 'ref', { issuedAt: Date.now(), expiresAt: Date.now() + 600_000 });
    saveUser(lou);
    saveCurrentRole(lead);
    saveDefaultLists({ project: 'customsearch_9' });
    vi.stubGlobal('fetch', vi.fn());

    const ready = connectSession(() => router);
    const router = createMemoryRouter(routes, { initialEntries: ['/'] });
    renderWithProviders(<RouterProvider router={router} />);
    await ready;

    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(useAppStore.getState().defaultLists).toEqual({ project: 'customsearch_9' });
    // Shown after the first navigation settled, so guard step 1 did not hide it.
    expect(await screen.findByRole('alert')).toHaveTextContent('Missing layout configuration.');
  });

  it('sends the user to /login?redirect=<current path> when the session ends', async () => {
    saveTokens('tok', 'ref', { issuedAt: Date.now(), expiresAt: Date.now() + 600_000 });
    saveUser(lou);
    saveCurrentRole(lead);
    const ready = connectSession(() => router);
    const router = createMemoryRouter(routes, { initialEntries: ['/?tab=files'] });
    renderWithProviders(<RouterProvider router={router} />);
    await ready;
    await screen.findByRole('heading', { name: 'Dashboard' });

    expireSession(new ApiError('511', 'Your session has ended.', 511));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toBe('?redirect=%2F%3Ftab%3Dfiles');
  });
});

describe('whenNavigationSettles', () => {
  it('resolves once the router is idle', async () => {
    const router = createMemoryRouter(
      [
        { path: '/', Component: () => null },
        { path: '/slow', loader: () => new Promise((r) => setTimeout(() => r(null), 20)), Component: () => null },
      ],
      { initialEntries: ['/'] },
    );
    await whenNavigationSettles(router);
    void router.navigate('/slow');
    expect(router.state.navigation.state).toBe('loading');
    await whenNavigationSettles(router);
    expect(router.state.location.pathname).toBe('/slow');
  });
});
