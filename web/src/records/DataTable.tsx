/**
 * The records table of list pages and view tabs. Columns come from the server; the first
 * text column links to the row's view page (when the rows are records of a kind), a
 * reference cell links to the record it names, statuses show as badges and numbers are
 * right-aligned. Sortable headers are buttons and the sorted one carries `aria-sort`.
 * A row someone else just changed (a live event) is marked for a moment, its "Updated by"
 * in its title and announced politely.
 */
import { Badge, Table, UnstyledButton, VisuallyHidden } from '@mantine/core';
import type { MouseEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { useRowMarks } from '../events/hooks';
import { formatValue, isNumeric, isRef } from './format';
import { fieldOf, kindByName } from './kinds';
import { hasViewPage, viewPath } from './links';
import { statusColor } from './status';
import type { CellValue, Kind, ListColumn, Row, SortDir } from './types';
import classes from './records.module.css';

export interface DataTableProps {
  /** Accessible name of the table (a visually hidden caption). */
  caption: string;
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
  /** Totals row under money/quantity columns. */
  totals?: boolean;
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

function Cell({ value, column, kind, kinds, rowLink }: { value: CellValue; column: ListColumn; kind?: Kind; kinds?: Kind[]; rowLink?: string }) {
  if (isRef(value)) {
    const target = kindByName(kinds, fieldOf(kind, column.name)?.ref);
    const href = target ? viewPath(target, value.id) : undefined;
    return href ? <Link to={href}>{value.refName}</Link> : <>{value.refName}</>;
  }
  const text = formatValue(value, column.type);
  if (rowLink) return <Link to={rowLink}>{text || '(untitled)'}</Link>;
  if (column.type === 'status' && text) {
    return (
      <Badge variant="light" radius="sm" size="sm" className={classes.statusBadge} color={statusColor(text, fieldOf(kind, column.name)?.choices)}>
        {text}
      </Badge>
    );
  }
  return <>{text}</>;
}

function ariaSort(dir: SortDir | null): 'ascending' | 'descending' | undefined {
  return dir === 'asc' ? 'ascending' : dir === 'desc' ? 'descending' : undefined;
}

function cellClass(column: ListColumn): string | undefined {
  if (isNumeric(column.type)) return classes.numeric;
  if (column.type === 'text' || column.type === 'reference') return classes.wrap;
  return undefined;
}

function sum(rows: Row[], column: string): number {
  return rows.reduce((total, row) => total + (typeof row[column] === 'number' ? (row[column] as number) : 0), 0);
}

export function DataTable({ caption, columns, rows, kind, kinds, sort, onSort, busy = false, totals = false }: DataTableProps) {
  const navigate = useNavigate();
  // Rows link to their view page when the kind has one.
  const rowKind = kind && hasViewPage(kind) ? kind : undefined;
  const linked = linkColumn(columns, rowKind);
  const showTotals = totals && rows.length > 1 && columns.some((c) => isNumeric(c.type));
  const marks = useRowMarks(kind?.name);
  const updatedBy = [...new Set(rows.flatMap((row) => marks.get(row.id) ?? []))];

  // A click anywhere on a row opens it; keyboard users have the link in its title cell.
  function openRow(event: MouseEvent<HTMLTableRowElement>, id: number) {
    const href = rowKind ? viewPath(rowKind, id) : undefined;
    if (!href || event.defaultPrevented) return;
    const target = event.target as HTMLElement;
    if (target.closest('a, button, input, select, textarea')) return;
    if (window.getSelection()?.toString()) return;
    void navigate(href);
  }

  return (
    <div className={classes.tableWrap}>
      <Table className={`${classes.table} ${busy ? classes.busy : ''}`} verticalSpacing={6} horizontalSpacing="sm" aria-busy={busy || undefined}>
        <caption>
          <VisuallyHidden>{caption}</VisuallyHidden>
        </caption>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => {
              const dir = sort?.field === column.name ? sort.dir : null;
              const sortable = !!onSort && !!column.sortable;
              return (
                <Table.Th key={column.name} scope="col" data-type={column.type} aria-sort={sortable ? ariaSort(dir) : undefined} className={isNumeric(column.type) ? classes.numeric : undefined}>
                  {sortable ? (
                    <UnstyledButton className={classes.sortButton} onClick={() => onSort(column.name)}>
                      {column.label}
                      <SortIcon dir={dir} />
                      <VisuallyHidden>{dir === 'asc' ? ', sorted ascending' : dir === 'desc' ? ', sorted descending' : ', sortable'}</VisuallyHidden>
                    </UnstyledButton>
                  ) : (
                    column.label
                  )}
                </Table.Th>
              );
            })}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row, index) => (
            <Table.Tr
              key={`${row.id}-${index}`}
              className={[rowKind && classes.rowLink, marks.has(row.id) && classes.changed].filter(Boolean).join(' ') || undefined}
              title={marks.has(row.id) ? `Updated by ${marks.get(row.id)}` : undefined}
              onClick={rowKind ? (event) => openRow(event, row.id) : undefined}
            >
              {columns.map((column) => (
                <Table.Td key={column.name} data-type={column.type} className={cellClass(column)}>
                  <Cell value={row[column.name]} column={column} kind={kind} kinds={kinds} rowLink={rowKind && column.name === linked ? viewPath(rowKind, row.id) : undefined} />
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
        {showTotals && (
          <Table.Tfoot>
            <Table.Tr>
              {columns.map((column, index) => (
                <Table.Th key={column.name} scope={index === 0 ? 'row' : undefined} className={isNumeric(column.type) ? classes.numeric : undefined}>
                  {index === 0 ? 'Total' : isNumeric(column.type) ? formatValue(sum(rows, column.name), column.type) : ''}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Tfoot>
        )}
      </Table>
      <VisuallyHidden role="status" aria-live="polite">
        {updatedBy.length > 0 ? `Updated by ${updatedBy.join(', ')}` : ''}
      </VisuallyHidden>
    </div>
  );
}
