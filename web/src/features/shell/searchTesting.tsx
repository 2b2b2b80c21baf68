/**
 * Test support for the global search: a fake `fetch` answering the search call, a signed-in
 * session, and the navbar box rendered in a memory router inside the app's providers.
 */
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import { useSessionStore } from '../../lib/session/store';
import type { MenuItem, Role } from '../../lib/session/types';
import { GlobalSearch } from './GlobalSearch';
import { renderWithProviders } from '../../test/render';
import { kinds } from '../records/testing';
import type { Shelf, ShelfItem } from '../shortlist';
import type { SearchGroup, SearchResult } from '../records';

const role: Role = { _id: 'role-admin', id: 1001, name: 'Administrator', type: 'admin', layout: 'admin', permissions: [] };

/** Signs Ada in with `menu` as her role's menu. */
export function signIn(menu: MenuItem[] = []): void {
  useSessionStore.getState().setSession({
    token: 'tok',
    refreshToken: 'ref',
    tokenTiming: { issuedAt: Date.now(), expiresAt: Date.now() + 3_600_000 },
    user: { id: 1, email: 'ada@example.com', fullName: 'Ada Admin', roles: [role] },
    currentRole: role,
  });
  useSessionStore.getState().setMenu(menu);
}

export const acme: SearchResult = { name: 'Acme Ltd', domain: '/customer/view?id=12', type: 'customer', id: 12, detail: 'Client C-0012 · Active' };
export const acmeProject: SearchResult = { name: 'Acme wetland survey', domain: '/project/view?id=42', type: 'project', id: 42, detail: 'Project P-0042 · Active' };

type Answer = (query: URLSearchParams, signal: AbortSignal | undefined) => Response | Promise<Response>;

export interface FakeSearch {
  /** The query string of every search call, in order. */
  calls: URLSearchParams[];
  /** The signal of every search call, in order. */
  signals: (AbortSignal | undefined)[];
  /** Replaces how the server answers (by default: `results`). */
  answer(next: Answer): void;
}

export function json(data: unknown, status = 200): Response {
  return new Response(JSON.stringify(data), { status, headers: { 'Content-Type': 'application/json' } });
}

/**
 * A grouped search answer (`groups=true`) of `results`: one group per kind, in the order of
 * their first result, counting the kind's results unless `counts` says otherwise.
 */
export function grouped(results: SearchResult[], text = 'acme', counts: Record<string, Partial<SearchGroup>> = {}): Response {
  const groups: SearchGroup[] = [];
  for (const r of results) {
    if (groups.some((g) => g.type === r.type)) continue;
    groups.push({ type: r.type, count: results.filter((x) => x.type === r.type).length, more: false, ...counts[r.type] });
  }
  return json({ data: { results, groups, text } });
}

/**
 * Installs a fake `fetch`: GET /api/v1/{erp}/{product} answers `results` (grouped),
 * /api/v1/kinds the kinds of the record tests, /api/v1/me/{recent,favourites} `shelves`.
 */
export function fakeSearch(results: SearchResult[] = [acme, acmeProject], shelves: Partial<Record<Shelf, ShelfItem[]>> = {}): FakeSearch {
  let answer: Answer = () => grouped(results);
  const fake: FakeSearch = {
    calls: [],
    signals: [],
    answer: (next) => void (answer = next),
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://portico.test');
      if (url.pathname === '/api/v1/kinds') return json({ data: kinds });
      const shelf = /^\/api\/v1\/me\/(recent|favourites)$/.exec(url.pathname)?.[1] as Shelf | undefined;
      if (shelf && (init?.method ?? 'GET') === 'GET') return json({ data: shelves[shelf] ?? [] });
      if (url.searchParams.get('method') !== 'search') return json({ detail: `No fake for ${url.pathname}` }, 404);
      fake.calls.push(url.searchParams);
      fake.signals.push(init?.signal ?? undefined);
      return answer(url.searchParams, init?.signal ?? undefined);
    }),
  );
  return fake;
}

/** A server answer that never comes, failing with the request's abort. */
export const hanging: Answer = (_query, signal) =>
  new Promise((_resolve, reject) => signal?.addEventListener('abort', () => reject(signal.reason as Error)));

/**
 * Vitest fake timers that Testing Library also sees: its async wrapper (around every
 * user-event call) waits on a setTimeout(0) and advances it only when it finds a `jest`
 * global, so one stands in. Undo with vi.useRealTimers() and vi.unstubAllGlobals().
 */
export function installFakeTimers(): void {
  vi.useFakeTimers();
  vi.stubGlobal('jest', { advanceTimersByTime: (ms: number) => vi.advanceTimersByTime(ms) });
}

/** Renders the navbar search box at `/` (any other path shows "Moved"); `fakeTimers` after {@link installFakeTimers}. */
export function renderSearch(options: { fakeTimers?: boolean } = {}) {
  const router = createMemoryRouter(
    [
      { path: '/', Component: GlobalSearch },
      { path: '*', Component: () => <p>Moved</p> },
    ],
    { initialEntries: ['/'] },
  );
  const user = userEvent.setup(options.fakeTimers ? { advanceTimers: (ms) => vi.advanceTimersByTime(ms) } : {});
  const view = renderWithProviders(<RouterProvider router={router} />);
  return { ...view, router, user };
}
