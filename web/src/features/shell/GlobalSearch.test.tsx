import { act, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSessionStore } from '../../lib/session/store';
import { searchPath } from '../records';
import { acme, acmeProject, fakeSearch, grouped, hanging, installFakeTimers, json, renderSearch, signIn, type FakeSearch } from './searchTesting';

let server: FakeSearch;

beforeEach(() => {
  installFakeTimers();
  signIn();
  server = fakeSearch();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  useSessionStore.getState().clearSession();
});

/** Lets `ms` pass, then lets the answers that came in settle. */
async function wait(ms: number) {
  await act(() => vi.advanceTimersByTimeAsync(ms));
}

function box() {
  return within(screen.getByRole('search')).getByRole('combobox', { name: 'Search records' });
}

function listbox() {
  return screen.getByRole('listbox', { name: 'Search results' });
}

/** Types `text` into the box and lets the debounce and the answer pass. */
async function typeAndSettle(user: ReturnType<typeof renderSearch>['user'], text: string) {
  await user.type(box(), text);
  await wait(1000);
}

describe('GlobalSearch', () => {
  it('is a combobox named "Search records", collapsed at first', () => {
    renderSearch({ fakeTimers: true });
    expect(box()).toHaveAttribute('aria-expanded', 'false');
    expect(box()).toHaveAttribute('aria-autocomplete', 'list');
    expect(box()).toHaveAttribute('aria-controls');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
  });

  it('fires from 4 characters: 3 do not search, 4 do', async () => {
    const { user } = renderSearch({ fakeTimers: true });
    await typeAndSettle(user, 'abc');
    expect(server.calls).toHaveLength(0);
    await typeAndSettle(user, 'd');
    expect(server.calls).toHaveLength(1);
    expect(server.calls[0]!.get('query')).toBe('abcd');
    expect(server.calls[0]!.has('type')).toBe(false);
  });

  it('does not count the prefix: "cus: abc" does not fire, "cus: abcd" does', async () => {
    const { user } = renderSearch({ fakeTimers: true });
    await typeAndSettle(user, 'cus: abc');
    expect(server.calls).toHaveLength(0);
    expect(box()).toHaveAttribute('aria-expanded', 'false');
    await typeAndSettle(user, 'd');
    expect(server.calls.map((q) => q.get('query'))).toEqual(['cus: abcd']);
    expect(box()).toHaveAttribute('aria-expanded', 'true');
  });

  it('shows the results from 6 characters: 5 search without a panel, 6 show it', async () => {
    const { user } = renderSearch({ fakeTimers: true });
    await typeAndSettle(user, 'abcde');
    expect(server.calls).toHaveLength(1);
    expect(box()).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    await typeAndSettle(user, 'f');
    expect(server.calls).toHaveLength(2);
    expect(box()).toHaveAttribute('aria-expanded', 'true');
    expect(within(listbox()).getAllByRole('option')).toHaveLength(4); // two results, each group's "See all"
  });

  it('says how much more to type while the query is too short to show results, as the box\'s description', async () => {
    const { user } = renderSearch({ fakeTimers: true });
    expect(box()).not.toHaveAttribute('aria-describedby');
    await typeAndSettle(user, 'cedar');
    expect(box()).toHaveAccessibleDescription('Type at least 6 characters to see results');
    expect(screen.getByText('Type at least 6 characters to see results')).toBeVisible();
    await typeAndSettle(user, 's');
    expect(box()).toHaveAttribute('aria-expanded', 'true');
    expect(screen.queryByText('Type at least 6 characters to see results')).not.toBeInTheDocument();
    expect(box()).not.toHaveAttribute('aria-describedby');
  });

  it('debounces by 1000 ms after the last change', async () => {
    const { user } = renderSearch({ fakeTimers: true });
    await user.type(box(), 'abcdef');
    await wait(999);
    expect(server.calls).toHaveLength(0);
    await wait(1);
    expect(server.calls).toHaveLength(1);

    // Each change restarts the wait.
    await user.type(box(), 'g');
    await wait(600);
    await user.type(box(), 'h');
    await wait(999);
    expect(server.calls).toHaveLength(1);
    await wait(1);
    expect(server.calls.map((q) => q.get('query'))).toEqual(['abcdef', 'abcdefgh']);
  });

  it('typing clears old results and shows a spinner; the answer replaces it, or "No Results"', async () => {
    const { user } = renderSearch({ fakeTimers: true });
    await typeAndSettle(user, 'acme l');
    expect(within(listbox()).getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Acme LtdClient C-0012 · Active',
      'See all clients1 found',
      'Acme wetland surveyProject P-0042 · Active',
      'See all projects1 found',
    ]);
    expect(screen.queryByText('Searching…')).not.toBeInTheDocument();

    server.answer(() => grouped([]));
    await user.type(box(), 't');
    expect(within(listbox()).queryAllByRole('option')).toHaveLength(0);
    expect(screen.getByRole('status')).toHaveTextContent('Searching…');
    await wait(1000);
    expect(screen.queryByText('Searching…')).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('No Results');
  });

  it('aborts the running request when the text changes, and ignores its answer', async () => {
    const { user } = renderSearch({ fakeTimers: true });
    server.answer(hanging);
    await typeAndSettle(user, 'abcdef');
    expect(server.signals[0]!.aborted).toBe(false);
    server.answer(() => grouped([acme]));
    await user.type(box(), 'g');
    expect(server.signals[0]!.aborted).toBe(true);
    await wait(1000);
    expect(within(listbox()).getAllByRole('option').map((o) => o.textContent)).toEqual(['Acme LtdClient C-0012 · Active', 'See all clients1 found']);
    expect(screen.queryByText('Searching…')).not.toBeInTheDocument();
  });

  it('a failure is logged, empties the results and stops the spinner', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { user } = renderSearch({ fakeTimers: true });
    await typeAndSettle(user, 'abcdef');
    expect(within(listbox()).getAllByRole('option')).toHaveLength(4);

    server.answer(() => json({ detail: 'Search is down' }, 500));
    await typeAndSettle(user, 'g');
    expect(logged).toHaveBeenCalledWith('Global search failed:', expect.objectContaining({ name: '500', message: 'Search is down' }));
    expect(within(listbox()).queryAllByRole('option')).toHaveLength(0);
    expect(screen.queryByText('Searching…')).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('No Results');
  });

  it('blurring the box with no related focus target clears the query', async () => {
    const { user } = renderSearch({ fakeTimers: true });
    await typeAndSettle(user, 'abcdef');
    expect(box()).toHaveAttribute('aria-expanded', 'true');
    await user.click(document.body);
    expect(box()).toHaveValue('');
    expect(box()).toHaveAttribute('aria-expanded', 'false');
  });

  it('clicking a result opens its view page in a new tab and clears the query', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const { user } = renderSearch({ fakeTimers: true });
    await typeAndSettle(user, 'abcdef');
    await user.click(within(listbox()).getByRole('option', { name: /Acme wetland survey/ }));
    expect(open).toHaveBeenCalledExactlyOnceWith('/project/view?id=42', '_blank', 'noopener');
    expect(box()).toHaveValue('');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
  });

  it('keyboard: arrows move the highlight (wrapping), Enter opens it, Escape closes then clears', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const { user } = renderSearch({ fakeTimers: true });
    await typeAndSettle(user, 'abcdef');
    const options = within(listbox()).getAllByRole('option');
    const [first, second] = options as [HTMLElement, HTMLElement];
    const last = options[options.length - 1]!;
    expect(box()).not.toHaveAttribute('aria-activedescendant');

    await user.keyboard('{ArrowDown}');
    expect(box()).toHaveAttribute('aria-activedescendant', first.id);
    expect(first).toHaveAttribute('aria-selected', 'true');
    expect(second).toHaveAttribute('aria-selected', 'false');
    await user.keyboard('{ArrowDown}');
    expect(box()).toHaveAttribute('aria-activedescendant', second.id);
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(box()).toHaveAttribute('aria-activedescendant', last.id);
    await user.keyboard('{ArrowDown}');
    expect(box()).toHaveAttribute('aria-activedescendant', first.id);
    await user.keyboard('{ArrowUp}');
    expect(box()).toHaveAttribute('aria-activedescendant', last.id);
    expect(box()).toHaveFocus();

    await user.keyboard('{Escape}');
    expect(box()).toHaveAttribute('aria-expanded', 'false');
    expect(box()).toHaveValue('abcdef');
    await user.keyboard('{ArrowDown}');
    expect(box()).toHaveAttribute('aria-expanded', 'true');
    await user.keyboard('{Escape}{Escape}');
    expect(box()).toHaveValue('');

    await typeAndSettle(user, 'abcdef');
    await user.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}{Enter}');
    expect(open).toHaveBeenCalledExactlyOnceWith(acmeProject.domain, '_blank', 'noopener');
    expect(box()).toHaveValue('');
    expect(acme.domain).toBe('/customer/view?id=12');
  });

  it('groups the results by kind, each group named with its count and ending with "See all"', async () => {
    server.answer(() => grouped([acmeProject, acme], 'acme wet', { project: { count: 100, more: true } }));
    const { user } = renderSearch({ fakeTimers: true });
    await typeAndSettle(user, 'proj: acme wet');
    const groups = within(listbox()).getAllByRole('group');
    expect(groups.map((g) => g.getAttribute('aria-label'))).toEqual(['Projects · 100+', 'Clients · 1']);
    expect(within(groups[0]!).getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Acme wetland surveyProject P-0042 · Active',
      'See all projects100+ found',
    ]);
    expect(within(groups[1]!).getAllByRole('option').map((o) => o.textContent)).toEqual(['Acme LtdClient C-0012 · Active', 'See all clients1 found']);
    // "See all" looks like the link it is; results do not.
    expect(within(groups[0]!).getByRole('option', { name: /^See all/ })).toHaveAttribute('data-link');
    expect(within(groups[0]!).getByRole('option', { name: /Acme wetland/ })).not.toHaveAttribute('data-link');
    expect(server.calls[0]!.get('groups')).toBe('true');
  });

  it('"See all" opens the kind\'s list, every record of it, filtered by the searched text, in the app', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    server.answer(() => grouped([acmeProject], 'acme wet'));
    const { user, router } = renderSearch({ fakeTimers: true });
    await typeAndSettle(user, 'proj: acme wet');
    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    expect(open).not.toHaveBeenCalled();
    expect(router.state.location.pathname).toBe('/project/list');
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({ list: 'customsearch_res_project_list', q: 'acme wet' });
  });

  it('a kind the list does not find (count 0) keeps its results, without "See all"', async () => {
    server.answer(() => grouped([acme], 'acme', { customer: { count: 0 } }));
    const { user } = renderSearch({ fakeTimers: true });
    await typeAndSettle(user, 'abcdef');
    const group = within(listbox()).getByRole('group', { name: 'Clients' });
    expect(within(group).getAllByRole('option').map((o) => o.textContent)).toEqual(['Acme LtdClient C-0012 · Active']);
  });

  it('asks the search path of the configured ERP and product', async () => {
    const { user } = renderSearch({ fakeTimers: true });
    await typeAndSettle(user, 'abcd');
    expect(vi.mocked(fetch).mock.calls[0]![0]).toBe(`/api/v1${searchPath()}?method=search&query=abcd&groups=true`);
  });
});
