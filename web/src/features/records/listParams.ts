/**
 * From a list page's URL state to the API request, in one place, so the route loader and
 * the page ask for exactly the same thing (and hit the same cache entry).
 */
import type { ListParams } from './api';
import { currentCursor, DEFAULT_PAGE_SIZE, type ListUrlState } from './listState';
import type { Kind, ListConfigs } from './types';

/**
 * Which saved list to show: the URL's; else the one the user chose before for this kind
 * (SPEC §4 default lists), while it still exists; else none, and the server answers with
 * the tenant's default.
 */
export function chosenListId(state: ListUrlState, remembered: string | undefined, configs: ListConfigs | undefined): string | undefined {
  if (state.list) return state.list;
  if (remembered && (!configs || configs.lists.some((l) => l.id === remembered))) return remembered;
  return undefined;
}

/** The page request for the state. Chosen columns that are not fields of the kind are left out. */
export function pageParams(kind: Pick<Kind, 'name' | 'fields'>, state: ListUrlState, listId: string | undefined): ListParams {
  const params: ListParams = { type: kind.name, pageSize: state.size ?? DEFAULT_PAGE_SIZE };
  if (listId) params.list = listId;
  const columns = state.cols?.filter((name, i, all) => all.indexOf(name) === i && kind.fields.some((f) => f.name === name));
  if (columns?.length) params.columns = columns;
  if (state.sort) {
    params.sort = state.sort;
    params.dir = state.dir ?? 'asc';
  }
  if (state.filter) params.filter = state.filter;
  if (state.q) params.q = state.q;
  const cursor = currentCursor(state);
  if (cursor) params.cursor = cursor;
  return params;
}

/**
 * The count request of a page request: only what decides which records match (type, saved
 * list, filter, search), so paging, sorting or choosing columns reuses the cached count.
 */
export function countParams({ type, list, filter, q }: ListParams): ListParams {
  const params: ListParams = { type };
  if (list) params.list = list;
  if (filter) params.filter = filter;
  if (q) params.q = q;
  return params;
}

/**
 * The totals request of a page request: what decides the matching records and which
 * columns are answered (their summable ones are totalled), not the order or the page.
 */
export function totalsParams(params: ListParams): ListParams {
  const asked = countParams(params);
  if (params.columns) asked.columns = params.columns;
  return asked;
}
