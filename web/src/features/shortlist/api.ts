/**
 * The signed-in user's shortlists, kept on the server (GET /api/v1/me/recent and
 * /api/v1/me/favourites): the records they opened last and the ones they starred, newest
 * first, of the kinds their current role may see, each named by the record's current name.
 */
import { api } from '../../lib/api';
import type { SearchResult } from '../records';

/** Which shortlist: the records opened last, or the favourites. */
export type Shelf = 'recent' | 'favourites';

/** A shortlisted record: a link like a search result's, and when it was opened or starred. */
export interface ShelfItem extends SearchResult {
  /** ISO time. */
  at: string;
}

export async function fetchShelf(shelf: Shelf, signal?: AbortSignal): Promise<ShelfItem[]> {
  const answer = await api.get<{ data: ShelfItem[] }>(`/me/${shelf}`, { signal });
  return answer.data;
}

/** Tells the server the user opened record `id` of kind `type` (its view page). */
export async function recordVisit(type: string, id: number): Promise<void> {
  await api.post<void>('/me/recent', undefined, { query: { type, id } });
}

/** Stars (`on`) or unstars record `id` of kind `type`; a full shelf rejects with a 409 that says so. */
export async function setFavourite(type: string, id: number, on: boolean): Promise<void> {
  const options = { query: { type, id } };
  if (on) await api.put<void>('/me/favourites', undefined, options);
  else await api.delete<void>('/me/favourites', options);
}
