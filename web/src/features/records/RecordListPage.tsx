/**
 * The list page of every record kind (`/<route>/list`; the kind is the route's `model`).
 * Everything it shows is in the URL (see listState.ts): saved list, sort, filter, quick
 * search, page size, the cursors of the pages before this one and the chosen columns (any
 * field of the kind). The count and the totals of the summable columns (over the whole
 * result) come from their own, later queries, so rows show first. Rows can be selected
 * (kept while paging, dropped when the list, filter or search changes) to export them,
 * set a field on them all (BulkActions) or, for a kind that goes through approval, approve
 * or reject them (ApprovalDialog). When the role may edit the kind, a cell of a field a form
 * edits has its inline editor (InlineEdit). A new page scrolls to the top and takes the focus.
 */
import { Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useSearchParams, type LoaderFunctionArgs } from 'react-router';
import { ApiError } from '../../lib/api';
import { appQueryClient } from '../../lib/queryClient';
import { isAuthenticated, useSessionStore } from '../../lib/session/store';
import { useAppStore } from '../../lib/appState';
import { DataTable } from './DataTable';
import { createPathOf } from './form/links';
import { kindOfPath, useRouteKind } from './kinds';
import { listEditorPath } from './links';
import { downloadSelectedCsv, fetchListPage, saveDownload } from './api';
import { BulkEditDialog, bulkEditableFields, MAX_SELECTION, SelectionBar } from './BulkActions';
import { canDecide } from './approval/approval';
import { ApprovalDialog } from './approval/ApprovalDialog';
import { filterableFields } from './filter';
import { formatRecordCount } from './format';
import { fieldOf } from './kinds';
import { ColumnChooser, ExportCsvButton, SavedListPicker, SearchBox } from './ListControls';
import { newListPath } from './listEditor';
import { inlineEditCells } from './InlineEdit';
import { ListFilterBar } from './ListFilterBar';
import { chosenListId, pageParams } from './listParams';
import {
  DEFAULT_PAGE_SIZE,
  firstDir,
  listSearch,
  pageNumber,
  parseListSearch,
  shownColumns,
  shownSort,
  withColumns,
  withCursors,
  withFilter,
  withList,
  withNextPage,
  withPage,
  withPageSize,
  withPreviousPage,
  withQuery,
  withSort,
  withSortToggled,
  type ListUrlState,
  type Sort,
} from './listState';
import { lastPageOf, Pager, usePageWalk } from './Pager';
import { listConfigsQuery, listCountQuery, listPageQuery, listTotalsQuery, loaderKinds } from './queries';
import { EmptyBlock, ErrorBlock, LoadingBlock, RecordErrorBoundary } from './States';
import { DeviceCopyNote, NoDeviceCopy } from './offline/DeviceCopyNote';
import type { ApprovalDecision, Kind, ListColumn, Row } from './types';
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
  const kinds = await loaderKinds(queryClient);
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

/** How a sort reads: "Due date, newest first". */
export function sortSentence(sort: Sort, column: Pick<ListColumn, 'label' | 'type'> | undefined): string {
  const type = column?.type;
  const words =
    type === 'date'
      ? ['oldest first', 'newest first']
      : ['money', 'quantity', 'number', 'percent'].includes(type ?? '')
        ? ['smallest first', 'largest first']
        : ['A to Z', 'Z to A'];
  return `${column?.label ?? sort.field}, ${sort.dir === 'asc' ? words[0] : words[1]}`;
}

const NO_ROWS: ReadonlyMap<number, Row> = new Map();

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
  const settled = page.isSuccess && !page.isPlaceholderData;

  const [filterOpen, setFilterOpen] = useState(() => !!state.filter);
  const [exportError, setExportError] = useState<string | null>(null);

  const go = (next: ListUrlState, replace = false) => setSearchParams(listSearch(next), { replace });

  const shownListId = page.data?.list.id ?? listId ?? configs.data?.defaultId ?? kind.defaultList;
  const current = configs.data?.lists.find((l) => l.id === shownListId);
  const ownSort = current?.sort ?? kind.defaultSort ?? null;
  const sort = shownSort(state, current?.sort, kind.defaultSort);

  const apiError = page.error instanceof ApiError ? page.error : null;
  const filterError = apiError?.status === 400 && state.filter ? apiError.message : null;
  const showFilter = filterOpen || !!filterError;

  const columns = page.data?.columns ?? [];
  const visibleColumns = shownColumns(columns, state);
  const shownNames = params.columns ?? visibleColumns.map((c) => c.name);
  const rows = page.data?.rows ?? [];
  const pageNo = pageNumber(state);
  const size = state.size ?? DEFAULT_PAGE_SIZE;
  const busy = page.isFetching && page.isPlaceholderData;

  // Counting and totalling are the slow parts of a big list: they start once the rows are in.
  const count = useQuery({ ...listCountQuery(params), enabled: settled });
  const summable = visibleColumns.some((c) => fieldOf(kind, c.name)?.summable);
  const totals = useQuery({ ...listTotalsQuery(params), enabled: settled && summable });

  // The selection: rows by id, in the order picked; for one list, filter and search.
  const scope = JSON.stringify([shownListId, state.filter ?? '', state.q ?? '']);
  const [selection, setSelection] = useState<{ scope: string; rows: ReadonlyMap<number, Row> }>({ scope, rows: NO_ROWS });
  const selectedRows = selection.scope === scope ? selection.rows : NO_ROWS;
  const selectedIds = useMemo(() => new Set(selectedRows.keys()), [selectedRows]);
  const [selectionNote, setSelectionNote] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const [deciding, setDeciding] = useState<ApprovalDecision | null>(null);
  const [exporting, setExporting] = useState(false);
  const [selectingAll, setSelectingAll] = useState(false);
  const canBulkEdit = kind.canEdit && bulkEditableFields(kind, kinds).length > 0;
  // The cells of the fields a form edits carry a pencil (inline edit), when the role may edit.
  const editCell = useMemo(() => inlineEditCells(kind), [kind]);

  function select(changed: Row[], on: boolean) {
    const next = new Map(selectedRows);
    let refused = 0;
    for (const row of changed) {
      if (!on) next.delete(row.id);
      else if (next.has(row.id) || next.size < MAX_SELECTION) next.set(row.id, row);
      else refused++;
    }
    setSelectionNote(refused ? `At most ${MAX_SELECTION} records can be selected at a time.` : null);
    setSelection({ scope, rows: next });
  }

  /** Selects every record the list matches, read at once (they are at most MAX_SELECTION). */
  async function selectAllMatching() {
    setSelectingAll(true);
    try {
      const all = await fetchListPage({ ...params, cursor: undefined, pageSize: MAX_SELECTION });
      select(all.rows, true);
    } catch (error) {
      setSelectionNote(`The matching records could not be selected: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      setSelectingAll(false);
    }
  }

  function keepSelected(ids: number[]) {
    setSelection({ scope, rows: new Map([...selectedRows].filter(([id]) => ids.includes(id))) });
  }

  async function exportSelected() {
    setExporting(true);
    setExportError(null);
    try {
      saveDownload(await downloadSelectedCsv({ type: kind.name, list: params.list, columns: shownNames }, [...selectedRows.keys()]), `${kind.route}-selected.csv`);
    } catch (error) {
      setExportError(error instanceof Error ? error.message : String(error));
    } finally {
      setExporting(false);
    }
  }

  // A page the user pages to (Next, Previous, First, a jump) starts at its top, the focus
  // on its table.
  const tableRef = useRef<HTMLTableElement>(null);
  const shownPage = useRef(pageNo);
  const paging = useRef(false);
  const goPage = (next: ListUrlState) => {
    paging.current = true;
    go(next);
  };
  useEffect(() => {
    if (!settled || shownPage.current === pageNo) return;
    shownPage.current = pageNo;
    if (!paging.current) return;
    paging.current = false;
    window.scrollTo({ top: 0 });
    tableRef.current?.focus({ preventScroll: true });
  }, [settled, pageNo]);

  const walk = usePageWalk({
    params,
    narrow: kind.fields[0]?.name,
    current: pageNo,
    here: page.data && settled ? page.data : undefined,
    lastPage: lastPageOf(count.data, size),
    estimated: count.data?.estimated,
    onBack: (n) => goPage(withPage(state, n)),
    onCursors: (cursors) => goPage(withCursors(state, cursors)),
  });

  function chooseList(id: string) {
    setDefaultList(kind.name, id);
    go(withList(state, id));
  }

  const { cursor: _cursor, pageSize: _pageSize, ...exportParams } = params;
  const plural = kind.plural.toLowerCase();
  // The totals are over every matching record, not the page: the label says how many.
  const totalsOf = count.data ? formatRecordCount(count.data.total, count.data.estimated, [kind.label.toLowerCase(), plural]) : `all matching ${plural}`;
  const createPath = kind.canCreate ? createPathOf(kind) : undefined;
  const fromView = newListPath(kind.name, { columns: shownNames, sort: sort ?? undefined, filter: state.filter });

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
          <Button component={Link} to={fromView} variant="light" size="sm">
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
            shown={shownNames}
            onChange={(cols) => go(withColumns(state, cols), true)}
            customised={!!state.cols || state.hide.length > 0}
            onReset={() => go(withColumns(state, null), true)}
            editorLink={fromView}
            disabled={columns.length === 0}
          />
          <ExportCsvButton params={exportParams} filename={`${kind.route}.csv`} onError={setExportError} />
        </Group>
      </div>

      {showFilter && (
        <div id="list-filter-panel">
          <ListFilterBar
            key={state.filter ?? ''}
            fields={filterableFields(kind.fields)}
            value={state.filter ?? ''}
            onApply={(f) => go(withFilter(state, f))}
            serverError={filterError}
          />
        </div>
      )}
      {exportError && <ErrorBlock error={new Error(exportError)} what="the CSV export" />}
      {selectedRows.size > 0 && (
        <SelectionBar
          kind={kind}
          count={selectedRows.size}
          matching={count.data}
          onSelectAll={() => void selectAllMatching()}
          selectingAll={selectingAll}
          canEdit={canBulkEdit}
          canApprove={canDecide(kind)}
          exporting={exporting}
          onExport={() => void exportSelected()}
          onEdit={() => setEditing(true)}
          onDecide={setDeciding}
          onClear={() => select([...selectedRows.values()], false)}
        />
      )}
      {selectionNote && (
        <Text size="sm" role="status">
          {selectionNote}
        </Text>
      )}

      <DeviceCopyNote queryKey={listPageQuery(params).queryKey} dataUpdatedAt={page.dataUpdatedAt} what="this list" />
      {page.isPending ? (
        page.fetchStatus === 'paused' ? (
          <NoDeviceCopy what={`this list of ${plural}`} />
        ) : (
          <LoadingBlock label={`Loading ${plural}…`} />
        )
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
          {sort && (
            <Group gap="xs" justify="flex-end" data-testid="list-sort">
              <Text size="sm" c="dimmed">
                Sorted by {sortSentence(sort, visibleColumns.find((c) => c.name === sort.field) ?? fieldOf(kind, sort.field))}
              </Text>
              {state.sort && (
                <Button variant="subtle" size="compact-xs" onClick={() => go(withSort(state, null))}>
                  Use the list’s order
                </Button>
              )}
            </Group>
          )}
          <DataTable
            caption={`${kind.plural}: ${page.data?.list.name ?? ''}, page ${pageNo}`}
            columns={visibleColumns}
            rows={rows}
            kind={kind}
            kinds={kinds}
            sort={sort}
            onSort={(field) => go(withSortToggled(state, field, sort, firstDir(visibleColumns.find((c) => c.name === field)?.type), ownSort))}
            busy={busy}
            totals={totals.data}
            totalsOf={totalsOf}
            selection={{ selected: selectedIds, onChange: select }}
            tableRef={tableRef}
            editCell={editCell}
          />
          <Pager
            page={pageNo}
            size={size}
            rowsOnPage={rows.length}
            count={count.data}
            hasNext={!!page.data?.hasMore && !!page.data.nextCursor}
            busy={busy}
            walk={walk}
            onFirst={() => goPage(withPage(state, 1))}
            onPrevious={() => goPage(withPreviousPage(state))}
            onNext={() => page.data?.nextCursor && goPage(withNextPage(state, page.data.nextCursor))}
            onSize={(n) => go(withPageSize(state, n))}
          />
        </>
      )}
      {editing && (
        <BulkEditDialog kind={kind} kinds={kinds} rows={[...selectedRows.values()]} opened onClose={() => setEditing(false)} onDone={keepSelected} />
      )}
      {deciding && (
        <ApprovalDialog
          kind={kind}
          decision={deciding}
          ids={[...selectedRows.keys()]}
          report
          onClose={() => setDeciding(null)}
          onDecided={(result) => keepSelected(result.results.filter((r) => !r.saved).map((r) => r.id))}
        />
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
