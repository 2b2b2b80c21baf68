import type { PathOption } from '../search';
import type { Shelf, ShelfItem } from './api';

/** A shelf's records as entries of a list (the command palette): each leads to the record's page. */
export function shelfOptions(shelf: Shelf, items: readonly ShelfItem[]): PathOption[] {
  return items.map((item) => ({ key: `${shelf}:${item.type}:${item.id}`, name: item.name, detail: item.detail, to: item.domain }));
}
