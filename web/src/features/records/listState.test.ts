import { describe, expect, it } from 'vitest';
import { chosenListId, countParams, pageParams, totalsParams } from './listParams';
import {
  firstDir,
  listSearchString,
  pageNumber,
  shownSort,
  withCursors,
  withPage,
  withSort,
  parseListSearch,
  withFilter,
  withList,
  withNextPage,
  withPageSize,
  withPreviousPage,
  withQuery,
  shownColumns,
  withColumns,
  withSortToggled,
} from './listState';
import { projectKind } from './testing';
import type { ListConfig } from './types';

describe('list URL state', () => {
  it('reads every part from the URL and writes it back in a fixed order', () => {
    const search = '?list=l1&sort=startdate&dir=desc&filter=entitystatus+eq+Active&q=wetland&size=100&after=c1&after=c2&hide=customer%2Cstartdate';
    const state = parseListSearch(search);
    expect(state).toEqual({
      list: 'l1',
      sort: 'startdate',
      dir: 'desc',
      filter: 'entitystatus eq Active',
      q: 'wetland',
      size: 100,
      after: ['c1', 'c2'],
      hide: ['customer', 'startdate'],
    });
    expect(listSearchString(state)).toBe(search);
    expect(pageNumber(state)).toBe(3);
  });

  it('drops malformed parts', () => {
    expect(parseListSearch('?dir=sideways&size=7&after=&q=%20%20&list=')).toEqual({ after: [], hide: [] });
    expect(parseListSearch('?sort=x&dir=bogus')).toEqual({ sort: 'x', dir: 'asc', after: [], hide: [] });
    expect(listSearchString({ after: [], hide: [], size: 50 })).toBe('');
  });

  it('turns a header’s sort round, the list’s own order leaving the URL', () => {
    const own = { field: 'companyname', dir: 'asc' as const };
    let state = parseListSearch('?after=c1');
    // Another column: its first direction, from page 1.
    state = withSortToggled(state, 'startdate', shownSort(state, own, null), firstDir('date'), own);
    expect(listSearchString(state)).toBe('?sort=startdate&dir=desc');
    state = withSortToggled(state, 'startdate', shownSort(state, own, null), firstDir('date'), own);
    expect(listSearchString(state)).toBe('?sort=startdate&dir=asc');
    // The list's own column turns round; back to its own direction, the URL says nothing.
    state = withSortToggled(state, 'companyname', shownSort(state, own, null), firstDir('text'), own);
    expect(listSearchString(state)).toBe('');
    state = withSortToggled(state, 'companyname', shownSort(state, own, null), firstDir('text'), own);
    expect(listSearchString(state)).toBe('?sort=companyname&dir=desc');
    expect(listSearchString(withSort(state, null))).toBe('');
  });

  it('shows the URL’s sort, else the saved list’s, else the kind’s default', () => {
    const kindSort = { field: 'trandate', dir: 'desc' as const };
    expect(shownSort(parseListSearch('?sort=duedate&dir=desc'), { field: 'a', dir: 'asc' }, kindSort)).toEqual({ field: 'duedate', dir: 'desc' });
    expect(shownSort(parseListSearch(''), { field: 'a', dir: 'asc' }, kindSort)).toEqual({ field: 'a', dir: 'asc' });
    expect(shownSort(parseListSearch(''), undefined, kindSort)).toEqual(kindSort);
    expect(shownSort(parseListSearch(''), undefined, undefined)).toBeNull();
    expect(firstDir('money')).toBe('desc');
    expect(firstDir('reference')).toBe('asc');
  });

  it('goes back to any page before for free, and forward by the cursors read', () => {
    const state = withCursors(parseListSearch('?q=a'), ['c1', 'c2', 'c3']);
    expect(pageNumber(state)).toBe(4);
    expect(withPage(state, 2).after).toEqual(['c1']);
    expect(withPage(state, 1).after).toEqual([]);
    expect(withPage(state, 9).after).toEqual(['c1', 'c2', 'c3']);
    expect(withCursors(withPage(state, 2), ['x', 'y']).after).toEqual(['c1', 'x', 'y']);
  });

  it('starts at page 1 when what the list shows changes, and keeps the cursor stack when paging', () => {
    const paged = withNextPage(withNextPage(parseListSearch('?q=a&hide=x'), 'c1'), 'c2');
    expect(paged.after).toEqual(['c1', 'c2']);
    expect(withPreviousPage(paged).after).toEqual(['c1']);
    expect(withFilter(paged, ' entitystatus eq Active ').after).toEqual([]);
    expect(withFilter(paged, ' ').filter).toBeUndefined();
    expect(withQuery(paged, 'b').after).toEqual([]);
    expect(withPageSize(paged, 100)).toMatchObject({ size: 100, after: [] });
    expect(withList({ ...paged, sort: 'x', dir: 'desc', size: 25 }, 'l2')).toEqual({ list: 'l2', size: 25, after: [], hide: [] });
  });
});

describe('list requests', () => {
  const lists = (ids: string[]) => ({ defaultId: ids[0]!, lists: ids.map((id) => ({ id }) as ListConfig) });

  it('uses the URL’s list, else the remembered default while it exists, else the server’s', () => {
    expect(chosenListId(parseListSearch('?list=a'), 'b', lists(['b']))).toBe('a');
    expect(chosenListId(parseListSearch(''), 'b', undefined)).toBe('b');
    expect(chosenListId(parseListSearch(''), 'b', lists(['x', 'b']))).toBe('b');
    expect(chosenListId(parseListSearch(''), 'gone', lists(['x']))).toBeUndefined();
    expect(chosenListId(parseListSearch(''), undefined, undefined)).toBeUndefined();
  });

  it('asks for the current page with the state’s sort, filter and search', () => {
    const state = parseListSearch('?sort=startdate&dir=desc&filter=entitystatus+eq+Active&q=x&after=c1&after=c2&hide=y');
    expect(pageParams(projectKind, state, 'l1')).toEqual({
      type: 'project',
      list: 'l1',
      sort: 'startdate',
      dir: 'desc',
      filter: 'entitystatus eq Active',
      q: 'x',
      pageSize: 50,
      cursor: 'c2',
    });
    expect(pageParams(projectKind, parseListSearch('?size=25'), undefined)).toEqual({ type: 'project', pageSize: 25 });
  });

  it('asks for the chosen columns, once each and only fields of the kind', () => {
    const state = parseListSearch('?cols=startdate,bogus,companyname,startdate');
    expect(pageParams(projectKind, state, undefined).columns).toEqual(['startdate', 'companyname']);
    expect(pageParams(projectKind, parseListSearch('?cols=bogus'), undefined).columns).toBeUndefined();
  });

  it('counts by list, filter and search only, so paging, sorting and columns reuse the count', () => {
    const state = parseListSearch('?list=l1&sort=startdate&dir=desc&filter=entitystatus+eq+Active&q=x&after=c1&cols=companyname');
    expect(countParams(pageParams(projectKind, state, 'l1'))).toEqual({ type: 'project', list: 'l1', filter: 'entitystatus eq Active', q: 'x' });
    expect(countParams(pageParams(projectKind, parseListSearch('?size=100&after=c1'), undefined))).toEqual({ type: 'project' });
  });
});

describe('chosen columns', () => {
  const columns = [{ name: 'companyname' }, { name: 'entitystatus' }, { name: 'customer' }];

  it('round-trips through the URL and keeps the page', () => {
    const state = withColumns(parseListSearch('?after=c1&hide=customer'), ['startdate', 'companyname']);
    expect(listSearchString(state)).toBe('?after=c1&cols=startdate%2Ccompanyname');
    expect(parseListSearch(listSearchString(state))).toEqual(state);
    expect(listSearchString(withColumns(state, null))).toBe('?after=c1');
    expect(withList(state, 'l2').cols).toBeUndefined();
  });

  it('shows the chosen columns the page has, in the chosen order, less hidden ones', () => {
    expect(shownColumns(columns, parseListSearch(''))).toEqual(columns);
    expect(shownColumns(columns, parseListSearch('?hide=entitystatus')).map((c) => c.name)).toEqual(['companyname', 'customer']);
    expect(shownColumns(columns, parseListSearch('?cols=customer,startdate,companyname')).map((c) => c.name)).toEqual(['customer', 'companyname']);
  });

  it('totals by list, filter, search and columns, not by page or order', () => {
    const params = pageParams(projectKind, parseListSearch('?filter=entitystatus+eq+Active&sort=startdate&after=c1&cols=companyname,projectedtotal'), 'l1');
    expect(totalsParams(params)).toEqual({ type: 'project', list: 'l1', filter: 'entitystatus eq Active', columns: ['companyname', 'projectedtotal'] });
  });
});
