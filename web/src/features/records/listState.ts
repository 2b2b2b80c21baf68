/**
 * A list page's state lives in its URL, so Back works and a link can be shared:
 *
 *   /project/list?list=<saved list>&sort=<field>&dir=asc|desc&filter=<expr>&q=<text>
 *                &size=<rows per page>&after=<cursor>&after=<cursor>...&cols=<field>,<field>
 *
 * `after` is the stack of cursors that led to the current page: page N+1 is fetched with
 * the N-th cursor; Previous pops one. Changing what the list shows (list, sort, filter,
 * search, page size) starts again at page 1.
 */
import type { SortDir } from './types';

export const PAGE_SIZES = [25, 50, 100, 200] as const;
export const DEFAULT_PAGE_SIZE = 50;

export interface ListUrlState {
  /** Saved list id; absent = the remembered default, else the server's. */
  list?: string;
  sort?: string;
  dir?: SortDir;
  /** The user's filter expression, on top of the saved list's own. */
  filter?: string;
  /** Quick text search. */
  q?: string;
  size?: number;
  /** Cursors of the pages before this one. */
  after: string[];
  /**
   * The columns the column chooser picked, in order: any fields of the kind, instead of the
   * saved list's own. Absent = the saved list's columns.
   */
  cols?: string[];
  /** Columns hidden from the saved list's own (older links; the chooser writes `cols`). */
  hide: string[];
}

function names(value: string | null): string[] {
  return (value ?? '').split(',').filter((c) => c !== '');
}

function nonEmpty(value: string | null): string | undefined {
  return value !== null && value.trim() !== '' ? value : undefined;
}

/** Reads the state from a URL's search; anything malformed is dropped. */
export function parseListSearch(search: URLSearchParams | string): ListUrlState {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const dir = params.get('dir');
  const size = Number(params.get('size'));
  const state: ListUrlState = {
    after: params.getAll('after').filter((c) => c !== ''),
    hide: names(params.get('hide')),
  };
  const cols = names(params.get('cols'));
  const list = nonEmpty(params.get('list'));
  const sort = nonEmpty(params.get('sort'));
  const filter = nonEmpty(params.get('filter'));
  const q = nonEmpty(params.get('q'));
  if (list) state.list = list;
  if (sort) {
    state.sort = sort;
    state.dir = dir === 'desc' ? 'desc' : 'asc';
  }
  if (filter) state.filter = filter.trim();
  if (q) state.q = q.trim();
  if ((PAGE_SIZES as readonly number[]).includes(size)) state.size = size;
  if (cols.length) state.cols = cols;
  return state;
}

/** The URL search for the state, in a fixed order, without empty parts. */
export function listSearch(state: ListUrlState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.list) params.set('list', state.list);
  if (state.sort) {
    params.set('sort', state.sort);
    params.set('dir', state.dir ?? 'asc');
  }
  if (state.filter) params.set('filter', state.filter);
  if (state.q) params.set('q', state.q);
  if (state.size && state.size !== DEFAULT_PAGE_SIZE) params.set('size', String(state.size));
  for (const cursor of state.after) params.append('after', cursor);
  if (state.cols?.length) params.set('cols', state.cols.join(','));
  if (state.hide.length) params.set('hide', state.hide.join(','));
  return params;
}

/** `?…` for the state, or "" when it is all defaults. */
export function listSearchString(state: ListUrlState): string {
  const qs = listSearch(state).toString();
  return qs ? `?${qs}` : '';
}

/** Another saved list: its own sort and filter apply, from page 1. */
export function withList(state: ListUrlState, list: string): ListUrlState {
  return { after: [], hide: [], size: state.size, list };
}

export interface Sort {
  field: string;
  dir: SortDir;
}

/**
 * The order a list shows: the URL's, else the saved list's own, else the kind's default
 * (transactions newest first), else none.
 */
export function shownSort(state: ListUrlState, listSort: Sort | null | undefined, kindSort: Sort | null | undefined): Sort | null {
  if (state.sort) return { field: state.sort, dir: state.dir ?? 'asc' };
  return listSort ?? kindSort ?? null;
}

/** The direction a first click sorts a column of `type` in: dates and amounts newest or largest first. */
export function firstDir(type: string | undefined): SortDir {
  return ['date', 'money', 'quantity', 'number', 'percent'].includes(type ?? '') ? 'desc' : 'asc';
}

/**
 * A click on a sortable header: the column the list is sorted by turns around; another
 * column sorts in its first direction (`first`). An order that is the list's own (`own`)
 * leaves the URL, so the URL says only what the user changed.
 */
export function withSortToggled(state: ListUrlState, field: string, shown: Sort | null = shownSort(state, null, null), first: SortDir = 'asc', own?: Sort | null): ListUrlState {
  const dir: SortDir = shown?.field === field ? (shown.dir === 'asc' ? 'desc' : 'asc') : first;
  return withSort(state, own?.field === field && own.dir === dir ? null : { field, dir });
}

/** Sorted by `sort`, from page 1; null = the saved list's own order. */
export function withSort(state: ListUrlState, sort: Sort | null): ListUrlState {
  const next: ListUrlState = { ...state, after: [] };
  if (sort) {
    next.sort = sort.field;
    next.dir = sort.dir;
  } else {
    delete next.sort;
    delete next.dir;
  }
  return next;
}

export function withFilter(state: ListUrlState, filter: string): ListUrlState {
  const next: ListUrlState = { ...state, after: [] };
  if (filter.trim()) next.filter = filter.trim();
  else delete next.filter;
  return next;
}

export function withQuery(state: ListUrlState, q: string): ListUrlState {
  const next: ListUrlState = { ...state, after: [] };
  if (q.trim()) next.q = q.trim();
  else delete next.q;
  return next;
}

export function withPageSize(state: ListUrlState, size: number): ListUrlState {
  return { ...state, size, after: [] };
}

export function withNextPage(state: ListUrlState, cursor: string): ListUrlState {
  return withCursors(state, [cursor]);
}

/** Pages further on: the cursors that lead from this page to the one wanted, in order. */
export function withCursors(state: ListUrlState, cursors: readonly string[]): ListUrlState {
  return { ...state, after: [...state.after, ...cursors] };
}

/** Page `n` (1-based) of those before this one: its cursor is in the URL already. */
export function withPage(state: ListUrlState, n: number): ListUrlState {
  return { ...state, after: state.after.slice(0, Math.max(0, Math.min(n, pageNumber(state)) - 1)) };
}

export function withPreviousPage(state: ListUrlState): ListUrlState {
  return { ...state, after: state.after.slice(0, -1) };
}

/**
 * The columns the user picked, in order; none = back to the saved list's own. Rows stay the
 * same, so the page does too.
 */
export function withColumns(state: ListUrlState, cols: readonly string[] | null): ListUrlState {
  const next: ListUrlState = { ...state, hide: [] };
  if (cols?.length) next.cols = [...cols];
  else delete next.cols;
  return next;
}

/**
 * Which of a page's columns show, in order: the chosen ones (`cols`) the server answered,
 * else all of them, less the hidden ones.
 */
export function shownColumns<C extends { name: string }>(columns: readonly C[], state: ListUrlState): C[] {
  const chosen = state.cols ? state.cols.flatMap((name) => columns.filter((c) => c.name === name)) : columns;
  return chosen.filter((c) => !state.hide.includes(c.name));
}

/** The cursor that fetches the current page (undefined on page 1). */
export function currentCursor(state: ListUrlState): string | undefined {
  return state.after.at(-1);
}

/** 1-based number of the current page. */
export function pageNumber(state: ListUrlState): number {
  return state.after.length + 1;
}
