/**
 * The list page of every record kind (`/<route>/list`; the kind is the route's `model`).
 * Everything it shows is in the URL (see listState.ts): saved list, sort, filter, quick
 * search, page size, the cursors of the pages before this one and the chosen columns.
 * The total count comes from its own, later query (see listCountQuery), so rows show first.
 */
import { Anchor, Button, Group, NativeSelect, Stack, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link, useSearchParams, type LoaderFunctionArgs } from 'react-router';
import { ApiError } from '../api';
import { appQueryClient } from '../app/queryClient';
import { isAuthenticated, useSessionStore } from '../session/store';
import { useAppStore } from '../shell/appState';
import { DataTable } from './DataTable';
import { createPathOf } from './form/links';
import { kindOfPath, useRouteKind } from './kinds';
import { listEditorPath } from './links';
import { ColumnChooser, ExportCsvButton, SavedListPicker, SearchBox } from './ListControls';
import { ListFilterBar } from './ListFilterBar';
import { chosenListId, pageParams } from './listParams';
import {
  DEFAULT_PAGE_SIZE,
  listSearch,
  PAGE_SIZES,
  pageNumber,
  parseListSearch,
  shownColumns,
  withColumns,
  withFilter,
  withList,
  withNextPage,
  withPageSize,
  withPreviousPage,
  withQuery,
  withSortToggled,
  type ListUrlState,
} from './listState';
import { kindsQuery, listConfigsQuery, listCountQuery, listPageQuery } from './queries';
import { formatCount } from './format';
import { EmptyBlock, ErrorBlock, LoadingBlock, RecordErrorBoundary } from './States';
import type { Kind } from './types';
import classes from './records.module.css';

/**
 * Starts fetching the page's rows and saved lists as the navigation begins; the page's
 * hooks read the same cache entries (same factories, same parameters).
 */
export async function loader({ request }: LoaderFunctionArgs): Promise<null> {
  const queryClient = appQueryClient();
  // Runs beside the guard: without a session there is nothing to fetch yet.
  if (!queryClient || !isAuthenticated()) return null;
  const url = new URL(request.url);
  const kinds = await queryClient.ensureQueryData(kindsQuery()).catch(() => undefined);
  const kind = kindOfPath(kinds, url.pathname);
  if (!kind) return null;
  const state = parseListSearch(url.searchParams);
  const configs = queryClient.getQueryData(listConfigsQuery(kind.name).queryKey);
  const listId = chosenListId(state, useAppStore.getState().defaultLists[kind.name], configs);
  void queryClient.prefetchQuery(listConfigsQuery(kind.name));
  void queryClient.prefetchQuery(listPageQuery(pageParams(kind, state, listId)));
  return null;
}

export const ErrorBoundary = RecordErrorBoundary;

export default function RecordListPage() {
  const { kind, kinds, isPending, error, refetch, model } = useRouteKind();
  if (error) return <ErrorBlock error={error} what="the record kinds" onRetry={refetch} />;
  if (isPending) return <LoadingBlock label="Loading…" />;
  if (!kind || !kinds) {
    return <ErrorBlock error={new ApiError('404', `There is no record type "${model ?? ''}".`, 404)} what="this record type" />;
  }
  return <KindList key={kind.name} kind={kind} kinds={kinds} />;
}

function KindList({ kind, kinds }: { kind: Kind; kinds: Kind[] }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const state = useMemo(() => parseListSearch(searchParams), [searchParams]);
  const remembered = useAppStore((s) => s.defaultLists[kind.name]);
  const setDefaultList = useAppStore((s) => s.setDefaultList);
  const role = useSessionStore((s) => s.currentRole);

  const configs = useQuery(listConfigsQuery(kind.name));
  const listId = chosenListId(state, remembered, configs.data);
  const params = pageParams(kind, state, listId);
  const page = useQuery({ ...listPageQuery(params), placeholderData: keepPreviousData });
  // Counting is the slow part of a big list: it starts once this page's rows are in.
  const count = useQuery({ ...listCountQuery(params), enabled: page.isSuccess && !page.isPlaceholderData });

  const [filterOpen, setFilterOpen] = useState(() => !!state.filter);
  const [exportError, setExportError] = useState<string | null>(null);

  const go = (next: ListUrlState, replace = false) => setSearchParams(listSearch(next), { replace });

  const shownListId = page.data?.list.id ?? listId ?? configs.data?.defaultId ?? kind.defaultList;
  const current = configs.data?.lists.find((l) => l.id === shownListId);
  const sort = state.sort ? { field: state.sort, dir: state.dir ?? 'asc' } : (current?.sort ?? null);

  const apiError = page.error instanceof ApiError ? page.error : null;
  const filterError = apiError?.status === 400 && state.filter ? apiError.message : null;
  const showFilter = filterOpen || !!filterError;

  const columns = page.data?.columns ?? [];
  const visibleColumns = shownColumns(columns, state);
  const rows = page.data?.rows ?? [];
  const pageNo = pageNumber(state);
  const size = state.size ?? DEFAULT_PAGE_SIZE;
  const busy = page.isFetching && page.isPlaceholderData;

  function chooseList(id: string) {
    setDefaultList(kind.name, id);
    go(withList(state, id));
  }

  const { cursor: _cursor, pageSize: _pageSize, ...exportParams } = params;
  const plural = kind.plural.toLowerCase();
  const createPath = kind.canCreate ? createPathOf(kind) : undefined;

  return (
    <Stack gap="md" className={classes.page}>
      <Group justify="space-between" align="flex-end" gap="sm" wrap="wrap">
        <div>
          <Title order={1}>{kind.plural}</Title>
          <Text c="dimmed" size="sm" data-testid="list-name">
            {page.data?.list.name ?? current?.name ?? '\u00a0'}
          </Text>
        </div>
        <Group gap="xs">
          {current?.editable && (
            <Button component={Link} to={listEditorPath(kind.name, current.id)} variant="default" size="sm">
              Edit list
            </Button>
          )}
          <Button component={Link} to={listEditorPath(kind.name)} variant="light" size="sm">
            New list
          </Button>
          {createPath && (
            <Button component={Link} to={createPath} size="sm">
              New {kind.label.toLowerCase()}
            </Button>
          )}
        </Group>
      </Group>

      <div className={classes.toolbar}>
        <div className={classes.toolbarGrow}>
          <SavedListPicker lists={configs.data?.lists ?? []} value={shownListId} onChange={chooseList} roleName={role?.name} disabled={!configs.data} />
        </div>
        <div className={classes.toolbarGrow}>
          <SearchBox label={`Search ${plural}`} value={state.q ?? ''} onSearch={(q) => go(withQuery(state, q), true)} />
        </div>
        <Group gap="xs">
          <Button
            variant={state.filter ? 'light' : 'default'}
            onClick={() => setFilterOpen((open) => !open)}
            aria-expanded={showFilter}
            aria-controls="list-filter-panel"
          >
            {state.filter ? 'Filter (on)' : 'Filter'}
          </Button>
          <ColumnChooser
            fields={kind.fields}
            // What the user chose, at once (the table follows when its columns come).
            shown={params.columns ?? visibleColumns.map((c) => c.name)}
            onChange={(cols) => go(withColumns(state, cols), true)}
            customised={!!state.cols || state.hide.length > 0}
            onReset={() => go(withColumns(state, null), true)}
            editorLink={current?.editable ? listEditorPath(kind.name, current.id) : undefined}
            disabled={columns.length === 0}
          />
          <ExportCsvButton params={exportParams} filename={`${kind.route}.csv`} onError={setExportError} />
        </Group>
      </div>

      {showFilter && (
        <div id="list-filter-panel">
          <ListFilterBar key={state.filter ?? ''} fields={kind.fields} value={state.filter ?? ''} onApply={(f) => go(withFilter(state, f))} serverError={filterError} />
        </div>
      )}
      {exportError && <ErrorBlock error={new Error(exportError)} what="the CSV export" />}

      {page.isPending ? (
        <LoadingBlock label={`Loading ${plural}…`} />
      ) : page.error && !filterError ? (
        <ErrorBlock error={page.error} what={plural} onRetry={() => void page.refetch()}>
          {apiError?.status === 404 && state.list && (
            <Button size="compact-sm" variant="light" onClick={() => go({ after: [], hide: [] })}>
              Show the default list
            </Button>
          )}
        </ErrorBlock>
      ) : filterError ? (
        <Text c="dimmed" size="sm">
          Fix the filter above to see {plural}.
        </Text>
      ) : rows.length === 0 ? (
        <EmptyBlock title={state.q || state.filter ? `No ${plural} match.` : `No ${plural} in this list yet.`}>
          <Group gap="xs">
            {state.q && (
              <Button variant="light" size="compact-sm" onClick={() => go(withQuery(state, ''))}>
                Clear the search
              </Button>
            )}
            {state.filter && (
              <Button variant="light" size="compact-sm" onClick={() => go(withFilter(state, ''))}>
                Clear the filter
              </Button>
            )}
            {pageNo > 1 && (
              <Button variant="light" size="compact-sm" onClick={() => go(withPreviousPage(state))}>
                Previous page
              </Button>
            )}
          </Group>
        </EmptyBlock>
      ) : (
        <>
          <DataTable
            caption={`${kind.plural}: ${page.data?.list.name ?? ''}, page ${pageNo}`}
            columns={visibleColumns}
            rows={rows}
            kind={kind}
            kinds={kinds}
            sort={sort}
            onSort={(field) => go(withSortToggled(state, field))}
            busy={busy}
          />
          <Group justify="space-between" gap="sm" wrap="wrap" component="nav" aria-label="Pages">
            <Group gap="xs" aria-live="polite">
              <Text size="sm" c="dimmed">
                Page {pageNo} · rows {(pageNo - 1) * size + 1}–{(pageNo - 1) * size + rows.length}
              </Text>
              {typeof count.data === 'number' && (
                <Text size="sm" fw={500} data-testid="list-total">
                  {formatCount(count.data)}
                </Text>
              )}
            </Group>
            <Group gap="xs">
              <NativeSelect
                aria-label="Rows per page"
                size="sm"
                value={String(size)}
                data={PAGE_SIZES.map((n) => ({ value: String(n), label: `${n} per page` }))}
                onChange={(e) => go(withPageSize(state, Number(e.currentTarget.value)))}
              />
              <Button variant="default" size="sm" disabled={pageNo === 1} onClick={() => go(withPreviousPage(state))}>
                Previous page
              </Button>
              <Button
                variant="default"
                size="sm"
                disabled={!page.data?.hasMore || !page.data.nextCursor || busy}
                onClick={() => page.data?.nextCursor && go(withNextPage(state, page.data.nextCursor))}
              >
                Next page
              </Button>
            </Group>
          </Group>
        </>
      )}
      {current && !current.builtIn && (
        <Text size="xs" c="dimmed">
          {current.visibility === 'role' ? `Shared with ${role?.name ?? 'the role'}.` : 'Only you see this list.'}{' '}
          {current.editable && (
            <Anchor component={Link} to={listEditorPath(kind.name, current.id)} size="xs">
              Edit it
            </Anchor>
          )}
        </Text>
      )}
    </Stack>
  );
}
