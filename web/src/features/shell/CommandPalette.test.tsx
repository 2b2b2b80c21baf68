import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSessionStore } from '../../lib/session/store';
import type { MenuItem } from '../../lib/session/types';
import { heron, ibis } from '../shortlist/testing';
import { acme, fakeSearch, renderSearch, signIn, type FakeSearch } from './searchTesting';

const leaf = (text: string, href: string): MenuItem => ({ text, href, iconCss: '', items: [], separator: false });
const menu: MenuItem[] = [
  leaf('Dashboard', '/'),
  { text: 'Work', iconCss: '', href: '', separator: false, items: [leaf('Projects', '/project/list'), leaf('Billing', 'billing/list')] },
];

let server: FakeSearch;

beforeEach(() => {
  signIn(menu);
  server = fakeSearch([acme]);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  useSessionStore.getState().clearSession();
});

async function openPalette(user: ReturnType<typeof renderSearch>['user']) {
  await user.keyboard('{Control>}k{/Control}');
  const dialog = await screen.findByRole('dialog', { name: 'Command palette' });
  const input = within(dialog).getByRole('combobox', { name: 'Search records and pages' });
  return { dialog, input };
}

describe('CommandPalette', () => {
  it('Ctrl+K opens it from anywhere, even the navbar box; Escape closes it', async () => {
    const { user } = renderSearch();
    await user.click(screen.getByRole('combobox', { name: 'Search records' }));
    const { input } = await openPalette(user);
    expect(input).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await user.keyboard('{Meta>}k{/Meta}');
    expect(await screen.findByRole('dialog', { name: 'Command palette' })).toBeInTheDocument();
  });

  it('offers the role\'s menu items as "Go to" entries, filtered by the text; Enter goes there in-app', async () => {
    const { user, router } = renderSearch();
    const { dialog, input } = await openPalette(user);
    const goTo = within(dialog).getByRole('group', { name: 'Go to' });
    expect(within(goTo).getAllByRole('option').map((o) => o.textContent)).toEqual(['Dashboard', 'ProjectsWork', 'BillingWork']);

    await user.type(input, 'bill');
    expect(within(goTo).getAllByRole('option').map((o) => o.textContent)).toEqual(['BillingWork']);
    expect(server.calls).toHaveLength(0);
    await user.keyboard('{ArrowDown}');
    expect(input).toHaveAttribute('aria-activedescendant', within(goTo).getByRole('option').id);
    await user.keyboard('{Enter}');
    expect(router.state.location.pathname).toBe('/billing/list');
  });

  it('searches records with the same thresholds; a result opens in a new tab and closes the palette', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const { user } = renderSearch();
    const { dialog, input } = await openPalette(user);
    await user.type(input, 'acme');
    expect(within(dialog).queryByRole('group', { name: 'Records' })).not.toBeInTheDocument();
    expect(input).toHaveAccessibleDescription('Type at least 6 characters to see results');
    await user.type(input, ' ltd');
    const records = await within(dialog).findByRole('group', { name: 'Clients · 1' }, { timeout: 3000 });
    expect(server.calls.map((q) => q.get('query'))).toEqual(['acme ltd']);
    expect(within(dialog).queryByRole('group', { name: 'Go to' })).not.toBeInTheDocument();
    expect(within(records).getAllByRole('option').map((o) => o.textContent)).toEqual(['Acme LtdClient C-0012 · Active', 'See all clients1 found']);

    await user.click(within(records).getByRole('option', { name: /Acme Ltd/ }));
    expect(open).toHaveBeenCalledExactlyOnceWith('/customer/view?id=12', '_blank', 'noopener');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('lists the favourites, then the recent records, before "Go to"; Enter opens one in the app', async () => {
    server = fakeSearch([acme], { favourites: [heron], recent: [ibis, heron] });
    const { user, router } = renderSearch();
    const { dialog, input } = await openPalette(user);
    const favourites = await within(dialog).findByRole('group', { name: 'Favourites' });
    expect(within(favourites).getAllByRole('option').map((o) => o.textContent)).toEqual(['Heron MarshProject · PRJ-7 · Active']);
    const recent = within(dialog).getByRole('group', { name: 'Recent' });
    expect(within(recent).getAllByRole('option').map((o) => o.textContent)).toEqual(['Ibis HoldingsClient', 'Heron MarshProject · PRJ-7 · Active']);
    expect(within(dialog).getAllByRole('group').map((g) => g.getAttribute('aria-label'))).toEqual(['Favourites', 'Recent', 'Go to']);

    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    expect(router.state.location.pathname + router.state.location.search).toBe('/customer/view?id=9');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(input).not.toBeInTheDocument();
  });

  it('the text narrows the favourites and recent records too', async () => {
    server = fakeSearch([acme], { favourites: [heron], recent: [ibis, heron] });
    const { user } = renderSearch();
    const { dialog, input } = await openPalette(user);
    await within(dialog).findByRole('group', { name: 'Favourites' });
    await user.type(input, 'ibis');
    expect(within(dialog).queryByRole('group', { name: 'Favourites' })).not.toBeInTheDocument();
    expect(within(within(dialog).getByRole('group', { name: 'Recent' })).getAllByRole('option').map((o) => o.textContent)).toEqual(['Ibis HoldingsClient']);
  });
});
