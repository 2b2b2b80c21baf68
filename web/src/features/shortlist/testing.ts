/** Test support for the shortlists: a fake of /api/v1/me/{recent,favourites} behind `fetch`. */
import { vi } from 'vitest';
import type { Shelf, ShelfItem } from './api';

export const heron: ShelfItem = { name: 'Heron Marsh', domain: '/project/view?id=7', type: 'project', id: 7, detail: 'Project · PRJ-7 · Active', at: '2026-05-01T10:00:00Z' };
export const ibis: ShelfItem = { name: 'Ibis Holdings', domain: '/customer/view?id=9', type: 'customer', id: 9, detail: 'Client', at: '2026-05-02T10:00:00Z' };

export interface FakeShelves {
  shelves: Record<Shelf, ShelfItem[]>;
  /** Every call: method and path with query. */
  calls: string[];
  /** The status the next PUT/DELETE answers with (204 by default), and its problem detail. */
  refuse(status: number, detail: string): void;
}

function json(data: unknown, status = 200): Response {
  return new Response(JSON.stringify(data), { status, headers: { 'Content-Type': status >= 400 ? 'application/problem+json' : 'application/json' } });
}

/**
 * Installs a fake `fetch` for the shortlist calls. GETs answer the shelves; a POST to
 * recent and a PUT/DELETE of a favourite answer 204 and change the shelves (the item named
 * from `known`), unless {@link FakeShelves.refuse} says otherwise.
 */
export function fakeShelves(initial: Partial<Record<Shelf, ShelfItem[]>> = {}, known: ShelfItem[] = [heron, ibis]): FakeShelves {
  const fake: FakeShelves & { refusal?: { status: number; detail: string } } = {
    shelves: { recent: [...(initial.recent ?? [])], favourites: [...(initial.favourites ?? [])] },
    calls: [],
    refuse: (status, detail) => void (fake.refusal = { status, detail }),
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://portico.test');
      const method = init?.method ?? 'GET';
      fake.calls.push(`${method} ${url.pathname}${url.search}`);
      const shelf = /^\/api\/v1\/me\/(recent|favourites)$/.exec(url.pathname)?.[1] as Shelf | undefined;
      if (!shelf) return json({ detail: `No fake for ${url.pathname}` }, 404);
      if (method === 'GET') return json({ data: fake.shelves[shelf] });
      if (fake.refusal) {
        const { status, detail } = fake.refusal;
        fake.refusal = undefined;
        return json({ title: 'Refused', status, detail }, status);
      }
      const type = url.searchParams.get('type');
      const id = Number(url.searchParams.get('id'));
      const rest = fake.shelves[shelf].filter((i) => !(i.type === type && i.id === id));
      const item = known.find((i) => i.type === type && i.id === id);
      fake.shelves[shelf] = method === 'DELETE' || !item ? rest : [item, ...rest];
      return new Response(null, { status: 204 });
    }),
  );
  return fake;
}
