import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { config } from '../../lib/config';
import { useSessionStore } from '../../lib/session/store';
import type { MenuItem, Role } from '../../lib/session/types';
import { renderWithProviders } from '../../test/render';
import { MenuIconFor, hasMenuIcon } from '../../components/icons';
import { Navbar } from './Navbar';
import * as actions from './sessionActions';
import { initials, roleOptions } from './UserMenu';

const admin: Role = { _id: 'a', id: 1001, name: 'Administrator', type: 'admin', layout: 'admin', permissions: [] };
const accountant: Role = { _id: 'c', id: 1003, name: 'Accountant', type: 'finance', layout: 'accounting', permissions: [] };

const leaf = (text: string, href: string, iconCss = ''): MenuItem => ({ text, href, iconCss, items: [], separator: false });
const separator: MenuItem = { text: '', href: '', iconCss: '', items: [], separator: true };

const categories: MenuItem[] = [
  leaf('Dashboard', '/', 'icon-home'),
  {
    text: 'Finance',
    iconCss: 'icon-coins',
    href: '',
    separator: false,
    items: [
      leaf('Invoices', '/invoice/list'),
      separator,
      leaf('Vendor bills', 'vendorbill/list'),
      leaf('ERP', 'https://erp.example.com/app'),
      { text: 'More', iconCss: 'icon-chart', href: '', separator: false, items: [leaf('Budgets', '/budget/list')] },
    ],
  },
  leaf('Help', 'https://help.example.com'),
  { text: 'Named', iconCss: 'icon-chart', href: '', separator: false, items: [leaf('Clients', 'action:client-list'), leaf('Edit 42', 'action:project-edit?id=42')] },
];

function renderNavbar(path = '/') {
  const router = createMemoryRouter(
    [
      { path: '/', Component: Navbar },
      { path: '/budget/list', Component: Navbar },
      { path: '*', Component: () => <p>moved</p> },
    ],
    { initialEntries: [path] },
  );
  const user = userEvent.setup();
  renderWithProviders(<RouterProvider router={router} />);
  return { router, user };
}

/** The wide menu bar (jsdom has no media queries: both the wide and compact menus render). */
function wideBar() {
  return within(screen.getByRole('navigation', { name: 'Main menu' })).getAllByRole('button')[0]!.parentElement!;
}

/** The kinds the role sees (GET /api/v1/kinds answers these, with the rest of each kind). */
const kinds = ['project', 'customer', 'invoice', 'vendorbill', 'budget'].map((name) => ({ name, route: name }));

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) =>
      new URL(String(input), 'http://portico.test').pathname === '/api/v1/kinds'
        ? new Response(JSON.stringify({ data: kinds }), { headers: { 'Content-Type': 'application/json' } })
        : new Response('{}', { status: 404, headers: { 'Content-Type': 'application/problem+json' } }),
    ),
  );
  useSessionStore.getState().setSession({
    token: 't',
    refreshToken: 'r',
    user: { id: 1, email: 'ada.admin@portico.test', fullName: 'Ada Admin', roles: [admin, accountant] },
    currentRole: admin,
  });
  useSessionStore.getState().setMenu(categories);
});

afterEach(() => {
  useSessionStore.getState().clearSession();
  vi.unstubAllGlobals();
});

describe('Navbar', () => {
  it('shows the logo with the product name, linking home, and the environment badge outside Production', () => {
    renderNavbar();
    const banner = screen.getByRole('banner');
    expect(within(banner).getByRole('link', { name: 'Portico home' })).toHaveAttribute('href', '/');
    expect(within(banner).getByText('Portico')).toBeInTheDocument();
    expect(within(banner).getByText('Development')).toBeInTheDocument();
  });

  it("names the company at this address when the deployment serves several, and none with one", () => {
    renderNavbar();
    expect(screen.queryByTestId('company-name')).not.toBeInTheDocument();
    config.companyName = 'Kestrel Consulting';
    try {
      renderNavbar();
      expect(screen.getByTestId('company-name')).toHaveTextContent('Kestrel Consulting');
    } finally {
      config.companyName = '';
    }
  });

  it('builds the category menu from the layout: links, categories, separators, nested and external items', async () => {
    const { user, router } = renderNavbar();
    const bar = within(wideBar());
    expect(bar.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/');
    expect(bar.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');
    const help = bar.getByRole('link', { name: 'Help' });
    expect(help).toHaveAttribute('href', 'https://help.example.com');
    expect(help).toHaveAttribute('target', '_blank');
    expect(help).toHaveAttribute('rel', 'noopener noreferrer');

    await user.click(bar.getByRole('button', { name: 'Finance' }));
    const menu = screen.getByRole('menu', { name: 'Finance' });
    expect(within(menu).getByRole('menuitem', { name: 'Invoices' })).toHaveAttribute('href', '/invoice/list');
    expect(within(menu).getByRole('menuitem', { name: 'Vendor bills' })).toHaveAttribute('href', '/vendorbill/list');
    expect(within(menu).getByRole('menuitem', { name: 'ERP' })).toHaveAttribute('target', '_blank');
    expect(within(menu).getAllByRole('separator')).toHaveLength(1);
    expect(within(menu).getByRole('menuitem', { name: 'More' })).toHaveAttribute('aria-haspopup', 'menu');

    await user.click(within(menu).getByRole('menuitem', { name: 'Vendor bills' }));
    expect(router.state.location.pathname).toBe('/vendorbill/list');
  });

  it('is keyboard-usable: Enter opens, arrows move, Enter follows the link', async () => {
    const { user, router } = renderNavbar();
    within(wideBar()).getByRole('button', { name: 'Finance' }).focus();
    await user.keyboard('{Enter}');
    const menu = screen.getByRole('menu', { name: 'Finance' });
    await user.keyboard('{ArrowDown}');
    expect(within(menu).getByRole('menuitem', { name: 'Invoices' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(within(menu).getByRole('menuitem', { name: 'Vendor bills' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(router.state.location.pathname).toBe('/vendorbill/list');
  });

  it('marks the category that holds the current page', () => {
    renderNavbar('/budget/list');
    const bar = within(wideBar());
    expect(bar.getByRole('button', { name: 'Finance' })).toHaveAttribute('data-current-section', 'true');
    expect(bar.getByRole('button', { name: 'Named' })).not.toHaveAttribute('data-current-section');
    expect(bar.getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute('aria-current');
  });

  it('menu items may name an action instead of a path, opened at the registry’s route', async () => {
    const { user, router } = renderNavbar();
    await user.click(within(wideBar()).getByRole('button', { name: 'Named' }));
    const menu = screen.getByRole('menu', { name: 'Named' });
    expect(await within(menu).findByRole('menuitem', { name: 'Clients' })).toHaveAttribute('href', '/customer/list');
    expect(within(menu).getByRole('menuitem', { name: 'Edit 42' })).toHaveAttribute('href', '/project/edit?id=42');
    await user.click(within(menu).getByRole('menuitem', { name: 'Clients' }));
    expect(router.state.location.pathname).toBe('/customer/list');
  });

  it('has the global search box, a controlled input named "Search records"', async () => {
    const { user } = renderNavbar();
    const search = within(screen.getByRole('search')).getByRole('combobox', { name: 'Search records' });
    await user.type(search, 'acme');
    expect(search).toHaveValue('acme');
  });

  it('offers the whole tree behind one "Menu" button for narrow screens', async () => {
    const { user } = renderNavbar();
    await user.click(screen.getByRole('button', { name: 'Menu' }));
    const menu = screen.getByRole('menu', { name: 'Menu' });
    expect(within(menu).getByRole('group', { name: 'Finance' })).toBeInTheDocument();
    expect(within(menu).getByRole('menuitem', { name: 'Vendor bills' })).toHaveAttribute('href', '/vendorbill/list');
    expect(within(menu).getByRole('menuitem', { name: 'Dashboard' })).toBeInTheDocument();
  });

  it('shows no menu when the role has none', () => {
    act(() => useSessionStore.getState().setMenu([], 'Missing layout configuration.'));
    renderNavbar();
    expect(screen.queryByRole('navigation', { name: 'Main menu' })).not.toBeInTheDocument();
  });

  it('user menu: named by what it shows (full name and role), lists roles with the current one checked', async () => {
    const switchRole = vi.spyOn(actions, 'performRoleSwitch').mockResolvedValue(true);
    const { user } = renderNavbar();
    const button = screen.getByRole('button', { name: 'Ada Admin Administrator' });
    expect(button).not.toHaveAttribute('aria-label');

    await user.click(button);
    const menu = screen.getByRole('menu', { name: 'Ada Admin' });
    const roles = within(menu).getAllByRole('menuitemradio');
    expect(roles.map((r) => [r.textContent, r.getAttribute('aria-checked')])).toEqual([
      ['Administrator', 'true'],
      ['Accountant', 'false'],
    ]);

    // The current role does nothing; another one switches.
    await user.click(roles[0]!);
    expect(switchRole).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Ada Admin Administrator' }));
    await user.click(within(screen.getByRole('menu', { name: 'Ada Admin' })).getByRole('menuitemradio', { name: 'Accountant' }));
    expect(switchRole).toHaveBeenCalledWith(1003, expect.objectContaining({ navigate: expect.any(Function) }));
  });

  it('user menu: Log out', async () => {
    const logout = vi.spyOn(actions, 'performLogout').mockResolvedValue(true);
    const { user } = renderNavbar();
    await user.click(screen.getByRole('button', { name: /^Ada Admin/ }));
    await user.click(screen.getByRole('menuitem', { name: 'Log out' }));
    expect(logout).toHaveBeenCalledOnce();
  });
});

describe('navbar helpers', () => {
  it('initials and role options', () => {
    expect(initials('Ada Admin')).toBe('AA');
    expect(initials('Grace Brewster Murray Hopper')).toBe('GH');
    expect(initials('cher')).toBe('C');
    expect(initials('  ')).toBe('?');
    expect(roleOptions([admin, accountant], 1003).map((r) => r.current)).toEqual([false, true]);
    expect(roleOptions(undefined, 1)).toEqual([]);
  });

  it('maps every iconCss of the demo layouts to an icon, with a neutral fallback', () => {
    for (const name of ['icon-home', 'icon-folder', 'icon-users', 'icon-coins', 'icon-truck', 'icon-settings', 'icon-leaf', 'icon-message', 'icon-receipt', 'icon-chart']) {
      expect(hasMenuIcon(name), name).toBe(true);
    }
    expect(hasMenuIcon('icon-unknown')).toBe(false);
    const { container } = renderWithProviders(
      <>
        <MenuIconFor iconCss="fa icon-truck" />
        <MenuIconFor iconCss="icon-unknown" />
      </>,
    );
    expect([...container.querySelectorAll('[data-icon]')].map((e) => e.getAttribute('data-icon'))).toEqual(['icon-truck', 'fallback']);
    expect(container.querySelectorAll('svg[aria-hidden="true"]')).toHaveLength(2);
  });
});
