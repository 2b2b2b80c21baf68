import { describe, expect, it } from 'vitest';
import { chosenListId, pageParams } from './listParams';
import {
  listSearchString,
  pageNumber,
  parseListSearch,
  withFilter,
  withList,
  withNextPage,
  withPageSize,
  withPreviousPage,
  withQuery,
  withSortToggled,
} from './listState';
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

  it('cycles a header’s sort: ascending, descending, the list’s own', () => {
    let state = parseListSearch('?after=c1');
    state = withSortToggled(state, 'startdate');
    expect(listSearchString(state)).toBe('?sort=startdate&dir=asc');
    state = withSortToggled(state, 'startdate');
    expect(listSearchString(state)).toBe('?sort=startdate&dir=desc');
    state = withSortToggled(state, 'startdate');
    expect(listSearchString(state)).toBe('');
    expect(listSearchString(withSortToggled(parseListSearch('?sort=a&dir=desc'), 'b'))).toBe('?sort=b&dir=asc');
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
    expect(pageParams({ name: 'project' }, state, 'l1')).toEqual({
      type: 'project',
      list: 'l1',
      sort: 'startdate',
      dir: 'desc',
      filter: 'entitystatus eq Active',
      q: 'x',
      pageSize: 50,
      cursor: 'c2',
    });
    expect(pageParams({ name: 'project' }, parseListSearch('?size=25'), undefined)).toEqual({ type: 'project', pageSize: 25 });
  });
});
