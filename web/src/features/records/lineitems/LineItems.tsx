/**
 * A transaction's lines (lineItems.ts) as a table with formatted amounts and their total:
 * on the record page under its header, and in its printable document. A record's lines
 * are all in its currency: the record's own (RecordDetail.currency), else the base
 * currency the kind's lines tab names on its money columns (the tab's answer does not).
 */
import { Text, Title } from '@mantine/core';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { FieldValue } from '../FieldValue';
import { isNumeric } from '../format';
import { recordTabQuery } from '../queries';
import { ErrorBlock, LoadingBlock } from '../States';
import type { Kind, KindTab, ListColumn, Row } from '../types';
import { cellCurrency, columnTotal, linesCurrency, sectionsShown } from './lineItems';
import classes from './LineItems.module.css';

export interface LineItemsProps {
  kind: Kind;
  id: number;
  tab: KindTab;
  /** Heading level of the section's title (2 on the record page). */
  headingOrder?: 2 | 3;
  /** The record's currency when it names one (RecordDetail.currency); else the base currency. */
  currency?: string;
}

/**
 * A transaction's lines, a section per sublist (a vendor bill's items and expenses). A
 * sublist with no lines is left out once another has some: a bill of expenses does not
 * also say it has no items.
 */
export function LineSections({ kind, id, tabs, headingOrder, currency }: Omit<LineItemsProps, 'tab'> & { tabs: readonly KindTab[] }) {
  const lines = useQueries({ queries: tabs.map((tab) => recordTabQuery(kind.name, id, tab.name)) });
  const shown = sectionsShown(lines.map((l) => l.data?.rows.length));
  return tabs.map((tab, i) => (shown[i] ? <LineItems key={tab.name} kind={kind} id={id} tab={tab} headingOrder={headingOrder} currency={currency} /> : null));
}

/** Loads the record's lines of one sublist and shows them. */
export function LineItems({ kind, id, tab, headingOrder = 2, currency }: LineItemsProps) {
  const lines = useQuery(recordTabQuery(kind.name, id, tab.name));
  const headingId = useId();
  const label = tab.label.toLowerCase();
  return (
    <section aria-labelledby={headingId} className={classes.section} data-testid="line-items">
      <Title order={headingOrder} size="h4" id={headingId} mb="xs">
        {tab.label}
      </Title>
      {lines.isPending ? (
        <LoadingBlock label={`Loading ${label}…`} rows={2} />
      ) : lines.error ? (
        <ErrorBlock error={lines.error} what={label} onRetry={() => void lines.refetch()} />
      ) : lines.data.rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          This {kind.label.toLowerCase()} has no {label}.
        </Text>
      ) : (
        <LineItemsTable caption={tab.label} columns={lines.data.columns} rows={lines.data.rows} currency={linesCurrency(kind, tab, currency)} />
      )}
    </section>
  );
}

/**
 * The lines as a table, in the answer's columns and order; the footer holds the total of
 * each summable column (the amounts), under a "Total" row header spanning the columns before.
 * Money reads in `currency`, the lines' (linesCurrency), else its column's.
 */
export function LineItemsTable({ caption, columns, rows, currency }: { caption: string; columns: readonly ListColumn[]; rows: readonly Row[]; currency?: string }) {
  const firstTotal = columns.findIndex((c) => c.summable);
  const numeric = (c: ListColumn) => (isNumeric(c.type) ? classes.numeric : undefined);
  const currencyIn = (c: ListColumn) => cellCurrency(c, currency);
  return (
    // Focusable, so a keyboard can scroll the lines sideways where they do not fit.
    <div className={classes.wrap} tabIndex={0} role="group" aria-label={caption}>
      <table className={classes.table}>
        <caption className={classes.srOnly}>{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.name} scope="col" className={numeric(c)} data-total={c.summable || undefined}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              {columns.map((c) => (
                <td key={c.name} className={numeric(c) ?? classes.text} data-total={c.summable || undefined}>
                  <FieldValue value={row[c.name]} type={c.type} currency={currencyIn(c)} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
        {firstTotal > 0 && (
          <tfoot>
            <tr>
              <th scope="row" colSpan={firstTotal} className={classes.totalLabel}>
                Total
              </th>
              {columns.slice(firstTotal).map((c) => (
                <td key={c.name} className={c.summable ? `${classes.numeric} ${classes.total}` : undefined} data-total={c.summable || undefined}>
                  {c.summable && <FieldValue value={columnTotal(rows, c.name)} type={c.type} currency={currencyIn(c)} />}
                </td>
              ))}
            </tr>
          </tfoot>
        )}
      </table>
    </div>
  );
}
