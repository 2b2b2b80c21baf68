/**
 * Server state of the record pages: one `queryOptions` factory per resource, used by the
 * route loaders (`queryClient.ensureQueryData(...)`) and by the components' hooks alike,
 * so both read and fill the same cache entry.
 *
 * Every key starts with `['records', <role id>]`: what the server answers depends on the
 * current role (a kind another role may not see is a 403), so a role switch never shows
 * the previous role's answers.
 */
import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { isOnline } from '../../lib/offline/online';
import { listConfigsKey, listPagesKey, recordKey, recordsKey } from '../../lib/queryKeys';
import {
  bulkEdit,
  decideApproval,
  createListConfig,
  deleteListConfig,
  fetchFiles,
  fetchKinds,
  fetchKindRoutes,
  fetchListConfigs,
  fetchListCount,
  fetchListPage,
  fetchListTotals,
  fetchRecord,
  fetchRecordTab,
  updateListConfig,
  type ListParams,
} from './api';
import { searchRecords } from './searchApi';
import { countParams, totalsParams } from './listParams';
import type { ApprovalInput, ApprovalResult, BulkEditInput, BulkResult, Kind, ListConfig, ListConfigInput } from './types';

/**
 * The kinds for a route loader: online, fetched (or the cached answer); offline, only what
 * is at hand — a loader never waits for a network that is not there (the page's own
 * queries then show the copy kept on the device, or that there is none).
 */
export async function loaderKinds(queryClient: QueryClient): Promise<Kind[] | undefined> {
  if (!isOnline()) return queryClient.getQueryData(kindsQuery().queryKey);
  return queryClient.ensureQueryData(kindsQuery()).catch(() => undefined);
}

/** The kind registry; it changes only with a new server version. */
export function kindsQuery() {
  return queryOptions({
    queryKey: [...recordsKey(), 'kinds'] as const,
    queryFn: ({ signal }) => fetchKinds(signal),
    staleTime: Infinity,
  });
}

/** Every kind's route, to tell a page the role may not see from one that does not exist. */
export function kindRoutesQuery() {
  return queryOptions({
    queryKey: ['kindRoutes'] as const,
    queryFn: ({ signal }) => fetchKindRoutes(signal),
    staleTime: Infinity,
  });
}

/** One page of a saved list. */
export function listPageQuery(params: ListParams) {
  return queryOptions({
    queryKey: [...listPagesKey(params.type), params] as const,
    queryFn: ({ signal }) => fetchListPage(params, signal),
  });
}

/**
 * How many records a page request's list, filter and search match (`count=true`). Its own
 * entry per list, filter and search: paging, sorting and columns reuse it. Counting a big
 * table is slow, so the page asks for it only after its rows came (see RecordListPage).
 */
export function listCountQuery(params: ListParams) {
  const counted = countParams(params);
  return queryOptions({
    queryKey: [...listPagesKey(params.type), 'count', counted] as const,
    queryFn: ({ signal }) => fetchListCount(counted, signal),
    staleTime: 60_000,
  });
}

/**
 * The sums of a page request's summable columns over every record it matches
 * (`totals=true`): its own entry per list, filter, search and columns, asked after the rows.
 */
export function listTotalsQuery(params: ListParams) {
  const asked = totalsParams(params);
  return queryOptions({
    queryKey: [...listPagesKey(params.type), 'totals', asked] as const,
    queryFn: ({ signal }) => fetchListTotals(asked, signal),
    staleTime: 60_000,
  });
}

/** The saved lists the user may pick for a record type. */
export function listConfigsQuery(type: string) {
  return queryOptions({
    queryKey: listConfigsKey(type),
    queryFn: ({ signal }) => fetchListConfigs(type, signal),
  });
}

export function recordQuery(type: string, id: number) {
  return queryOptions({
    queryKey: [...recordKey(type, id), 'detail'] as const,
    queryFn: ({ signal }) => fetchRecord(type, id, signal),
  });
}

/**
 * A record's name (its title), for showing a reference held as an id (the record lookup).
 * A lookup seeds it with the name of the record picked, so that needs no request.
 */
export function recordNameQuery(type: string, id: number) {
  return queryOptions({
    queryKey: [...recordKey(type, id), 'name'] as const,
    queryFn: async ({ signal }) => (await fetchRecord(type, id, signal)).title,
    staleTime: 5 * 60_000,
  });
}

/** Records of one kind matching `text`, for the record lookup (the global search call, narrowed by type). */
export function recordLookupQuery(type: string, text: string) {
  return queryOptions({
    queryKey: [...recordsKey(), 'lookup', type, text] as const,
    queryFn: ({ signal }) => searchRecords(text, { type, signal }),
  });
}

export function recordTabQuery(type: string, id: number, tab: string) {
  return queryOptions({
    queryKey: [...recordKey(type, id), 'tab', tab] as const,
    queryFn: ({ signal }) => fetchRecordTab(type, id, tab, signal),
  });
}

export function recordFilesQuery(type: string, id: number) {
  return queryOptions({
    queryKey: [...recordKey(type, id), 'files'] as const,
    queryFn: ({ signal }) => fetchFiles(type, id, signal),
  });
}

/** After a saved list changed: the picker and every page of that type's lists refetch. */
export async function invalidateLists(queryClient: QueryClient, type: string): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: listConfigsKey(type) }),
    queryClient.invalidateQueries({ queryKey: listPagesKey(type) }),
  ]);
}

export type SaveListArgs = { type: string; id?: string; input: ListConfigInput };

/** Creates (no id) or updates a saved list; the lists refresh at once. */
export function useSaveListConfig() {
  const queryClient = useQueryClient();
  return useMutation<ListConfig, Error, SaveListArgs>({
    mutationFn: ({ type, id, input }) => (id ? updateListConfig(type, id, input) : createListConfig(type, input)),
    onSuccess: (_saved, { type }) => invalidateLists(queryClient, type),
  });
}

/**
 * A bulk edit of some records of a type; afterwards the type's lists and the records' pages
 * refetch (what was saved shows, whatever failed).
 */
export function useBulkEdit() {
  const queryClient = useQueryClient();
  return useMutation<BulkResult, Error, { type: string; input: BulkEditInput; key: string }>({
    mutationFn: ({ type, input, key }) => bulkEdit(type, input, key),
    onSettled: (_result, _error, { type, input }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: listPagesKey(type) }),
        ...input.ids.map((id) => queryClient.invalidateQueries({ queryKey: recordKey(type, id) })),
      ]),
  });
}

/**
 * Approves or rejects some records of a type. Afterwards (whatever became of them) every
 * record answer of the role is stale — the dashboard's counts of what awaits the user too —
 * and the type's lists and the records' pages refetch at once.
 */
export function useApproval() {
  const queryClient = useQueryClient();
  return useMutation<ApprovalResult, Error, { type: string; input: ApprovalInput; key: string }>({
    mutationFn: ({ type, input, key }) => decideApproval(type, input, key),
    onSettled: async (_result, _error, { type, input }) => {
      await queryClient.invalidateQueries({ queryKey: recordsKey(), predicate: (query) => query.queryKey[2] !== 'kinds', refetchType: 'none' });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: listPagesKey(type) }),
        ...input.ids.map((id) => queryClient.invalidateQueries({ queryKey: recordKey(type, id) })),
      ]);
    },
  });
}

/** Deletes a saved list; the lists refresh at once. */
export function useDeleteListConfig() {
  const queryClient = useQueryClient();
  return useMutation<void, Error, { type: string; id: string }>({
    mutationFn: ({ type, id }) => deleteListConfig(type, id),
    onSuccess: (_void, { type }) => invalidateLists(queryClient, type),
  });
}
