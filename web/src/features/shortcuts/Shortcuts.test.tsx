import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Outlet } from 'react-router';
import { useSessionStore } from '../../lib/session/store';
import { fakeApi, renderRoutes, signIn } from '../records/testing';
import { Shortcuts } from './Shortcuts';

function Shell() {
  return (
    <>
      <header>
        <div role="search">
          <input aria-label="Search records" />
        </div>
      </header>
      <main>
        <Outlet />
      </main>
      <Shortcuts />
    </>
  );
}

const routes = [
  {
    Component: Shell,
    children: [
      { path: '/', Component: () => <h1>Dashboard</h1> },
      { path: '/project/list', Component: () => <input aria-label="Search projects" data-page-search /> },
      { path: '/customer/list', Component: () => <h1>Clients</h1> },
      { path: '/project/view', handle: { isView: true }, Component: () => <h1>Project 42</h1> },
      { path: '/billing/view', handle: { isView: true }, Component: () => <h1>Billing 1</h1> },
      { path: '/project/edit', Component: () => <h1>Edit project</h1> },
    ],
  },
];

// A busy machine renders slowly: wait up to 5 s for what the page shows.
configure({ asyncUtilTimeout: 5000 });

beforeEach(() => {
  signIn();
  fakeApi();
});

afterEach(() => {
  vi.unstubAllGlobals();
  useSessionStore.getState().clearSession();
});

describe('keyboard shortcuts', () => {
  it('g then a letter goes to a list (letters from the registry), g h home', async () => {
    const user = userEvent.setup();
    const { location } = renderRoutes(routes, '/');
    await screen.findByRole('heading', { name: 'Dashboard' });
    // The letters come with the registry.
    await user.keyboard('?');
    const sheet = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    await waitFor(() => expect(within(sheet).getByRole('table', { name: 'Go to' })).toHaveTextContent('gthencClients'));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.keyboard('g');
    expect(screen.getByRole('status')).toHaveTextContent('Go to…');
    await user.keyboard('c');
    await waitFor(() => expect(location()).toBe('/customer/list'));
    await user.keyboard('gh');
    await waitFor(() => expect(location()).toBe('/'));
    // A letter no list has does nothing; a lone letter without g neither.
    await user.keyboard('gz');
    await user.keyboard('p');
    expect(location()).toBe('/');
  });

  it('/ focuses the page’s search, else the navbar’s, and is not typed into it', async () => {
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, '/');
    await screen.findByRole('heading', { name: 'Dashboard' });
    await user.keyboard('/');
    expect(screen.getByLabelText('Search records')).toHaveFocus();
    expect(screen.getByLabelText('Search records')).toHaveValue('');
    // While typing, keys are the box's: g and / are text.
    await user.keyboard('g/c');
    expect(screen.getByLabelText('Search records')).toHaveValue('g/c');
    expect(router.state.location.pathname).toBe('/');
    screen.getByLabelText('Search records').blur();
    await router.navigate('/project/list');
    const own = await screen.findByLabelText('Search projects');
    await user.keyboard('/');
    expect(own).toHaveFocus();
  });

  it('e edits the record shown when the role may, and not otherwise', async () => {
    const user = userEvent.setup();
    const { location, router } = renderRoutes(routes, '/project/view?id=42');
    await screen.findByRole('heading', { name: 'Project 42' });
    await user.keyboard('?');
    expect(await screen.findByRole('table', { name: 'On a record or a list' })).toHaveTextContent('Edit this record');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.keyboard('e');
    await waitFor(() => expect(location()).toBe('/project/edit?id=42'));
    // Billing cannot be edited (canEdit false): e does nothing.
    await router.navigate('/billing/view?id=1');
    await screen.findByRole('heading', { name: 'Billing 1' });
    await user.keyboard('e');
    expect(location()).toBe('/billing/view?id=1');
  });

  it('does nothing with Ctrl or ⌘ held (Ctrl+K is the command palette’s)', async () => {
    const user = userEvent.setup();
    const { location } = renderRoutes(routes, '/project/view?id=42');
    await screen.findByRole('heading', { name: 'Project 42' });
    await user.keyboard('{Control>}e{/Control}{Meta>}g{/Meta}c');
    expect(location()).toBe('/project/view?id=42');
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
