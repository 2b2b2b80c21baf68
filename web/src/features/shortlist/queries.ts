import { queryOptions } from '@tanstack/react-query';
import { fetchShelf, type Shelf } from './api';
import { recordsKey } from '../../lib/queryKeys';

/**
 * The prefix of the shortlists' cache entries. Under the role's record key: what a shelf
 * answers depends on the kinds the role may see, and a role switch must not show the
 * previous role's entries.
 */
export function shelvesKey() {
  return [...recordsKey(), 'shortlist'] as const;
}

export function shelfQuery(shelf: Shelf) {
  return queryOptions({
    queryKey: [...shelvesKey(), shelf] as const,
    queryFn: ({ signal }) => fetchShelf(shelf, signal),
    staleTime: 30_000,
  });
}
