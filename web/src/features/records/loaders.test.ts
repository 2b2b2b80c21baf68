import { QueryClient } from '@tanstack/react-query';
import { waitFor } from '@testing-library/react';
import type { LoaderFunctionArgs } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAppQueryClient } from '../../lib/queryClient';
import { useSessionStore } from '../../lib/session/store';
import { resetAppStore, useAppStore } from '../../lib/appState';
import { loader as listLoader } from './RecordListPage';
import { loader as tabLoader } from './RecordTabPage';
import { loader as viewLoader } from './RecordViewPage';
import { listConfigsQuery, listPageQuery, recordFilesQuery, recordQuery, recordTabQuery } from './queries';
import { fakeApi, json, signIn, type FakeApi } from './testing';

const args = (url: string) => ({ request: new Request(`http://portico.test${url}`), params: {} }) as unknown as LoaderFunctionArgs;

let api: FakeApi;
let queryClient: QueryClient;

beforeEach(() => {
  signIn();
  resetAppStore();
  queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  setAppQueryClient(queryClient);
  api = fakeApi();
  api.on('GET /netsuite/portal-list', () => json({ data: { list: { id: 'l', name: 'L' }, columns: [], rows: [], hasMore: false, nextCursor: null } }));
  api.on('GET /netsuite/listConfiguration', () => json({ data: { lists: [], defaultId: 'l' } }));
  api.on('GET /netsuite/portal-record', () => json({ data: { columns: [], rows: [] } }));
  api.on('GET /netsuite/portal-file', () => json({ data: [] }));
});

afterEach(() => {
  setAppQueryClient(null);
  vi.unstubAllGlobals();
  useSessionStore.getState().clearSession();
});

describe('route loaders', () => {
  it('fill the cache entries the list page reads (same factories, same parameters)', async () => {
    useAppStore.getState().setDefaultList('project', 'list-mine');
    await listLoader(args('/project/list?sort=startdate&dir=desc&q=creek&after=c1'));
    const params = { type: 'project', list: 'list-mine', sort: 'startdate', dir: 'desc' as const, q: 'creek', pageSize: 50, cursor: 'c1' };
    await waitFor(() => expect(queryClient.getQueryData(listPageQuery(params).queryKey)).toBeDefined());
    await waitFor(() => expect(queryClient.getQueryData(listConfigsQuery('project').queryKey)).toBeDefined());
  });

  it('start the record and its tab together', async () => {
    await Promise.all([viewLoader(args('/project/view/billing?id=42')), tabLoader(args('/project/view/billing?id=42'))]);
    await waitFor(() => expect(queryClient.getQueryData(recordQuery('project', 42).queryKey)).toBeDefined());
    await waitFor(() => expect(queryClient.getQueryData(recordTabQuery('project', 42, 'billing').queryKey)).toBeDefined());
    await tabLoader(args('/project/view/files?id=42'));
    await waitFor(() => expect(queryClient.getQueryData(recordFilesQuery('project', 42).queryKey)).toBeDefined());
  });

  it('do nothing without a session', async () => {
    useSessionStore.getState().clearSession();
    await listLoader(args('/project/list'));
    expect(api.calls).toEqual([]);
  });
});
