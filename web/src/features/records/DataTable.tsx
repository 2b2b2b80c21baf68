/**
 * The records table of list pages and view tabs. Columns come from the server; the first
 * text column links to the row's view page (when the rows are records of a kind), a
 * reference cell links to the record it names, statuses show as badges and numbers are
 * right-aligned. Sortable headers are buttons and the sorted one carries `aria-sort`; a
 * column the server cannot sort fast has no button and says so. With `selection`, a first
 * column of labelled checkboxes selects rows (the header's selects the page; `x` toggles
 * the row holding the focus). Money reads in its row's currency (`_currency`), else the
 * column's base currency (the kind's field's). The totals row sums the loaded rows
 * (`totals`), or shows the server's totals over the whole result, marked "≈" when
 * estimated and labelled with what they cover (`totalsOf`: "Total of 51 invoices"); either way per unit (a currency, a credit type), one under the other, never
 * added together.
 * A row someone else just changed (a live event) is marked for a moment, its "Updated by"
 * in its title and announced politely. With `editCell`, a cell can carry an editor (a list's
 * inline edit, InlineEdit): a click on its controls, or in the dialog it opens, does not
 * open the row.
 */
import { Checkbox, Table, UnstyledButton, VisuallyHidden } from '@mantine/core';
import type { KeyboardEvent, MouseEvent, ReactNode, Ref } from 'react';
import { Link, useNavigate } from 'react-router';
import { useRowMarks } from '../events';
import { FieldValue } from './FieldValue';
import { currencyOf, formatUnitTotals, formatValue, isNumeric, isRef } from './format';
import { fieldOf, kindByName, totalsFormatOf } from './kinds';
import { viewPath } from './links';
import type { Kind, ListColumn, ListTotals, Row, SortDir } from './types';
import { UnitList } from './UnitList';
import { rowUnit, sumByUnit } from './unitTotals';
import listClasses from './list.module.css';
import classes from './records.module.css';

export interface DataTableProps {
  /** Accessible name of the table (a visually hidden caption). */
  caption: string;
  /** The columns; a money column's `currency` (else the kind's field's) is its base currency. */
  columns: ListColumn[];
  rows: Row[];
  /** The kind the rows are records of; their view pages are linked when given. */
  kind?: Kind;
  /** All kinds, to link references. */
  kinds?: Kind[];
  /** The order the rows are in; shown on that column's header. */
  sort?: { field: string; dir: SortDir } | null;
  /** Makes the sortable columns' headers buttons. */
  onSort?: (field: string) => void;
  /** A newer answer is on its way; the rows shown are the previous ones. */
  busy?: boolean;
  /**
   * A totals row under the numeric columns: `true` sums the rows shown (a tab shows all of
   * its rows), per unit; server totals cover every matching record, per unit too.
   */
  totals?: boolean | ListTotals;
  /**
   * What server totals cover, for the totals row's label ("Total of 51 invoices"): they are
   * over every matching record, not the page. Without it the label is "Total".
   */
  totalsOf?: string;
  /** Makes rows selectable (a checkbox column). */
  selection?: RowSelection;
  /** The table element, made focusable from script (a new page moves the focus to it). */
  tableRef?: Ref<HTMLTableElement>;
  /**
   * Wraps a cell's content (`cell`) in an editor, or answers it as it is: a list's inline
   * edit (InlineEdit's inlineEditCells). `name` is what the row is called (its title cell).
   */
  editCell?: (cell: ReactNode, row: Row, column: ListColumn, name: string) => ReactNode;
}

/** The selected rows of a table, and how to change them. */
export interface RowSelection {
  selected: ReadonlySet<number>;
  /** Select or unselect some rows. */
  onChange: (rows: Row[], selected: boolean) => void;
}

function SortIcon({ dir }: { dir: SortDir | null }) {
  return (
    <svg
      width="14"
      height="14"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2.2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      className={dir ? classes.sortIconActive : classes.sortIcon}
    >
      {dir === 'asc' && <path d="M12 19V5M5 12l7-7 7 7" />}
      {dir === 'desc' && <path d="M12 5v14M19 12l-7 7-7-7" />}
      {dir === null && <path d="M8 9l4-4 4 4M16 15l-4 4-4-4" />}
    </svg>
  );
}

/** The column whose cell links to the row's record: the kind's title field, else the first text column. */
export function linkColumn(columns: ListColumn[], kind: Kind | undefined): string | undefined {
  if (!kind) return undefined;
  const title = kind.fields[0]?.name;
  if (title && columns.some((c) => c.name === title)) return title;
  return (columns.find((c) => c.type === 'text') ?? columns[0])?.name;
}

/** The base currency of a money column: the answer's, else the kind's field's. */
function baseOf(column: ListColumn, kind: Kind | undefined): string | undefined {
  return column.currency || fieldOf(kind, column.name)?.currency;
}

function Cell({ row, column, kind, kinds, rowLink }: { row: Row; column: ListColumn; kind?: Kind; kinds?: Kind[]; rowLink?: string }) {
  const field = fieldOf(kind, column.name);
  const value = row[column.name];
  const currency = column.type === 'money' ? currencyOf(row._currency, baseOf(column, kind)) : undefined;
  if (rowLink && !isRef(value)) return <Link to={rowLink}>{formatValue(value, column.type, { currency }) || '(untitled)'}</Link>;
  return <FieldValue value={value} type={column.type} refKind={kindByName(kinds, field?.ref)} choices={field?.choices} currency={currency} compact />;
}

function ariaSort(dir: SortDir | null): 'ascending' | 'descending' | undefined {
  return dir === 'asc' ? 'ascending' : dir === 'desc' ? 'descending' : undefined;
}

function cellClass(column: ListColumn): string | undefined {
  if (isNumeric(column.type)) return classes.numeric;
  if (column.type === 'text' || column.type === 'reference') return classes.wrap;
  return undefined;
}

/**
 * The totals row's cells: per column, its totals, one text per unit (formatted like its
 * cells: money in its currency, a quantity per credit type with the type's name), or null;
 * the label goes in the first column without one: "Total", or with server totals and `of`
 * what they cover, "Total of 51 invoices" (they are not the page's). Server totals are the answer's; `true`
 * adds up the rows (money per `_currency`, a quantity per its `per` field's value in the row;
 * not at all when the rows lack that field). Null when there is nothing to total.
 */
export function totalsRow(
  columns: ListColumn[],
  rows: Row[],
  totals: boolean | ListTotals | undefined,
  kind?: Kind,
  of?: string,
): { label: string; cells: (string[] | null)[] } | null {
  if (!totals) return null;
  const server = typeof totals === 'object' ? totals : null;
  if (!server && rows.length < 2) return null;
  const cells = columns.map((c) => {
    const how = { ...totalsFormatOf(kind, c.name, c.type), currency: baseOf(c, kind) };
    if (server) {
      const value = server.values[c.name];
      return Array.isArray(value) && value.length > 0 ? formatUnitTotals(value, how) : null;
    }
    if (!isNumeric(c.type)) return null;
    const field = fieldOf(kind, c.name) ?? { type: c.type };
    const sums = sumByUnit(rows, c.name, (row) => rowUnit(row, field));
    return sums && formatUnitTotals(sums, how);
  });
  if (cells.every((c) => c === null)) return null;
  const label = server && of ? `Total of ${of}` : 'Total';
  return { label: server?.estimated ? `≈ ${label}` : label, cells };
}

/** What a row's live mark says: who changed it, or that the sync brought a change made in NetSuite (it names no one). */
function changedBy(by: string): string {
  return by ? `Updated by ${by}` : 'Changed in NetSuite';
}

/** What a row is called (its title cell), for its checkbox's label. */
function rowName(row: Row, column: ListColumn | undefined): string {
  const value = column ? row[column.name] : undefined;
  const text = column ? formatValue(value, column.type) : '';
  return text || `record ${row.id}`;
}

export function DataTable({ caption, columns, rows, kind, kinds, sort, onSort, busy = false, totals, totalsOf, selection, tableRef, editCell }: DataTableProps) {
  const navigate = useNavigate();
  // Rows of a kind link to their view page.
  const rowKind = kind;
  const linked = linkColumn(columns, rowKind);
  const nameColumn = columns.find((c) => c.name === linked);
  const footer = totalsRow(columns, rows, totals, kind, totalsOf);
  const labelAt = footer ? Math.max(0, footer.cells.findIndex((c) => c === null)) : -1;
  const marks = useRowMarks(kind?.name);
  const updatedBy = [...new Set(rows.flatMap((row) => marks.get(row.id) ?? []))];
  const selectedHere = selection ? rows.filter((r) => selection.selected.has(r.id)).length : 0;

  // `x` on a row (its link, say) toggles its selection, as in a mail client.
  function toggleWithKey(event: KeyboardEvent<HTMLTableRowElement>, row: Row) {
    if (!selection || event.key !== 'x' || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target as HTMLElement;
    // Typed in a cell editor's dialog: in a portal (its events reach the row all the same) or in the cell.
    if (!event.currentTarget.contains(target)) return;
    if (target.closest('input:not([type=checkbox]), textarea, select, [contenteditable=true], [role=dialog]')) return;
    event.preventDefault();
    selection.onChange([row], !selection.selected.has(row.id));
  }

  // A click anywhere on a row opens it; keyboard users have the link in its title cell.
  function openRow(event: MouseEvent<HTMLTableRowElement>, id: number) {
    if (!rowKind || event.defaultPrevented) return;
    const target = event.target as HTMLElement;
    // A click in a cell editor's dialog: in a portal (its events reach the row all the same) or in the cell.
    if (!event.currentTarget.contains(target)) return;
    if (target.closest('a, button, input, select, textarea, label, [data-select-cell], [role=dialog]')) return;
    if (window.getSelection()?.toString()) return;
    void navigate(viewPath(rowKind, id));
  }

  return (
    <div className={classes.tableWrap}>
      {/* Explicit roles: on a phone the table is laid out as cards (display: block), which
          would otherwise drop its table semantics. */}
      <Table
        ref={tableRef}
        role="table"
        tabIndex={tableRef ? -1 : undefined}
        className={`${classes.table} ${busy ? classes.busy : ''}`}
        verticalSpacing={6}
        horizontalSpacing="sm"
        aria-busy={busy || undefined}
      >
        <caption>
          <VisuallyHidden>{caption}</VisuallyHidden>
        </caption>
        <Table.Thead role="rowgroup">
          <Table.Tr role="row">
            {selection && (
              <Table.Th role="columnheader" scope="col" className={listClasses.selectCell}>
                <Checkbox
                  aria-label="Select all rows on this page"
                  checked={rows.length > 0 && selectedHere === rows.length}
                  indeterminate={selectedHere > 0 && selectedHere < rows.length}
                  onChange={(e) => selection.onChange(rows, e.currentTarget.checked)}
                  size="xs"
                />
              </Table.Th>
            )}
            {columns.map((column) => {
              const dir = sort?.field === column.name ? sort.dir : null;
              const sortable = !!onSort && !!column.sortable;
              return (
                <Table.Th
                  key={column.name}
                  role="columnheader"
                  scope="col"
                  data-type={column.type}
                  data-sortable={sortable || undefined}
                  aria-sort={sortable ? ariaSort(dir) : undefined}
                  className={isNumeric(column.type) ? classes.numeric : undefined}
                  title={onSort && !column.sortable ? `${column.label} cannot be sorted` : undefined}
                >
                  {sortable ? (
                    <UnstyledButton className={classes.sortButton} onClick={() => onSort(column.name)}>
                      {column.label}
                      <SortIcon dir={dir} />
                      <VisuallyHidden>{dir === 'asc' ? ', sorted ascending' : dir === 'desc' ? ', sorted descending' : ', sortable'}</VisuallyHidden>
                    </UnstyledButton>
                  ) : (
                    <>
                      {column.label}
                      {onSort && <VisuallyHidden>, not sortable</VisuallyHidden>}
                    </>
                  )}
                </Table.Th>
              );
            })}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody role="rowgroup">
          {rows.map((row, index) => {
            const selected = !!selection?.selected.has(row.id);
            return (
              <Table.Tr
                role="row"
                key={`${row.id}-${index}`}
                className={[rowKind && classes.rowLink, marks.has(row.id) && classes.changed, selected && listClasses.selected].filter(Boolean).join(' ') || undefined}
                title={marks.has(row.id) ? changedBy(marks.get(row.id)!) : undefined}
                aria-selected={selection ? selected : undefined}
                onClick={rowKind ? (event) => openRow(event, row.id) : undefined}
                onKeyDown={selection ? (event) => toggleWithKey(event, row) : undefined}
              >
                {selection && (
                  <Table.Td role="cell" className={listClasses.selectCell} data-select-cell>
                    <Checkbox aria-label={`Select ${rowName(row, nameColumn)}`} checked={selected} onChange={(e) => selection.onChange([row], e.currentTarget.checked)} size="xs" />
                  </Table.Td>
                )}
                {columns.map((column, at) => {
                  const cell = <Cell row={row} column={column} kind={kind} kinds={kinds} rowLink={rowKind && column.name === linked ? viewPath(rowKind, row.id) : undefined} />;
                  return (
                    <Table.Td
                      key={column.name}
                      role="cell"
                      data-type={column.type}
                      data-label={column.label}
                      data-title={(linked ? column.name === linked : at === 0) || undefined}
                      className={cellClass(column)}
                    >
                      {editCell ? editCell(cell, row, column, rowName(row, nameColumn)) : cell}
                    </Table.Td>
                  );
                })}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
        {footer && (
          <Table.Tfoot role="rowgroup" data-testid="totals-row">
            <Table.Tr role="row">
              {selection && <Table.Td role="cell" className={listClasses.selectCell} />}
              {columns.map((column, index) => {
                const cell = footer.cells[index] ?? null;
                const className = isNumeric(column.type) || cell !== null ? classes.numeric : undefined;
                // The label heads the row; the totals are its cells, not column headers.
                if (index === labelAt) {
                  return (
                    <Table.Th key={column.name} role="rowheader" scope="row" className={className}>
                      {cell !== null ? (
                        <>
                          {`${footer.label}: `}
                          <UnitList texts={cell} />
                        </>
                      ) : (
                        footer.label
                      )}
                    </Table.Th>
                  );
                }
                return (
                  <Table.Td key={column.name} role="cell" data-label={column.label} className={className}>
                    {cell && <UnitList texts={cell} />}
                  </Table.Td>
                );
              })}
            </Table.Tr>
          </Table.Tfoot>
        )}
      </Table>
      <VisuallyHidden role="status" aria-live="polite">
        {updatedBy.map(changedBy).join('; ')}
      </VisuallyHidden>
    </div>
  );
}
