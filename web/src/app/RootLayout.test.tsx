import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { useSessionStore } from '../lib/session/store';
import { resetAppStore, useAppStore } from '../lib/appState';
import { renderWithProviders } from '../test/render';
import { meta } from '../lib/meta';
import { MAIN_CONTENT_ID, RootLayout } from './RootLayout';

const role = { _id: 'r', id: 1, name: 'Staff', type: 'staff', layout: 'x', permissions: [] };

function signIn() {
  useSessionStore.getState().setSession({
    token: 't',
    refreshToken: 'r',
    user: { id: 1, email: 'a@b.c', fullName: 'Ada Admin', roles: [role] },
    currentRole: role,
  });
}

/** The root layout over three routes: public bare, private with navbar, public with navbar. */
function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      {
        Component: RootLayout,
        children: [
          { path: '/public', handle: meta({ requiresAuth: false, showNavbar: false, title: 'Public' }), Component: () => <p>public page</p> },
          { path: '/private', handle: meta({ requiresAuth: true, showNavbar: true, title: 'Private' }), Component: () => <p>private page</p> },
          { path: '/open', handle: meta({ requiresAuth: false, showNavbar: true }), Component: () => <p>open page</p> },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  renderWithProviders(<RouterProvider router={router} />);
  return router;
}

afterEach(() => {
  useSessionStore.getState().clearSession();
  resetAppStore();
});

describe('RootLayout (SPEC §2)', () => {
  it('shows the navbar only when the route has showNavbar and the user is authenticated', async () => {
    signIn();
    renderAt('/private');
    expect(await screen.findByRole('banner')).toBeInTheDocument();
    expect(screen.getByText('private page')).toBeInTheDocument();
    expect(document.querySelector('[data-layout]')).toHaveAttribute('data-layout', 'navbar');
    expect(document.title).toBe('Private · Portico');
  });

  it('no navbar on a route without showNavbar, even when authenticated', async () => {
    signIn();
    renderAt('/public');
    expect(await screen.findByText('public page')).toBeInTheDocument();
    expect(screen.queryByRole('banner')).not.toBeInTheDocument();
    expect(document.querySelector('[data-layout]')).toHaveAttribute('data-layout', 'bare');
  });

  it('no navbar for an unauthenticated user, even on a showNavbar route; the view shows when auth is not required', async () => {
    renderAt('/open');
    expect(await screen.findByText('open page')).toBeInTheDocument();
    expect(screen.queryByRole('banner')).not.toBeInTheDocument();
  });

  it('does not render a route that requires auth for an unauthenticated user', async () => {
    renderAt('/private');
    expect(await screen.findByTestId('alert-area')).toBeInTheDocument();
    expect(screen.queryByText('private page')).not.toBeInTheDocument();
  });

  it('always has the alert area, and the loading overlay while loading', async () => {
    renderAt('/public');
    expect(await screen.findByTestId('alert-area')).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'Loading' })).not.toBeInTheDocument();
    act(() => useAppStore.getState().startLoading());
    expect(screen.getByRole('status', { name: 'Loading' })).toBeInTheDocument();
  });

  it('starts with a skip link that moves focus to the routed view', async () => {
    renderAt('/public');
    await screen.findByText('public page');
    const user = userEvent.setup();
    await user.tab();
    const skip = screen.getByRole('link', { name: 'Skip to content' });
    expect(skip).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(document.getElementById(MAIN_CONTENT_ID)).toHaveFocus();
    expect(screen.getByRole('main')).toHaveFocus();
  });
});
