/**
 * A transaction's lines (lineItems.ts) as a table with formatted amounts and their total:
 * on the record page under its header, and in its printable document.
 */
import { Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { FieldValue } from '../FieldValue';
import { formatMoney, isNumeric } from '../format';
import { recordTabQuery } from '../queries';
import { ErrorBlock, LoadingBlock } from '../States';
import type { Kind, KindTab, ListColumn, Row } from '../types';
import { AMOUNT_COLUMN, lineColumns, linesTotal } from './lineItems';
import classes from './LineItems.module.css';

export interface LineItemsProps {
  kind: Kind;
  id: number;
  tab: KindTab;
  /** The currency of the record's amounts. */
  currency?: string;
  /** Heading level of the section's title (2 on the record page). */
  headingOrder?: 2 | 3;
}

/** Loads the record's lines of one sublist and shows them. */
export function LineItems({ kind, id, tab, currency, headingOrder = 2 }: LineItemsProps) {
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
        <LineItemsTable caption={tab.label} columns={lines.data.columns} rows={lines.data.rows} currency={currency} />
      )}
    </section>
  );
}

/** The lines as a table, the amounts' total in its footer. */
export function LineItemsTable({ caption, columns, rows, currency }: { caption: string; columns: readonly ListColumn[]; rows: readonly Row[]; currency?: string }) {
  const shown = lineColumns(columns);
  const total = linesTotal(rows);
  const amountAt = shown.findIndex((c) => c.name === AMOUNT_COLUMN);
  const numeric = (c: ListColumn) => (isNumeric(c.type) ? classes.numeric : undefined);
  return (
    <div className={classes.wrap}>
      <table className={classes.table}>
        <caption className={classes.srOnly}>{caption}</caption>
        <thead>
          <tr>
            {shown.map((c) => (
              <th key={c.name} scope="col" className={numeric(c)}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              {shown.map((c) => (
                <td key={c.name} className={numeric(c) ?? classes.text}>
                  <FieldValue value={row[c.name]} type={c.type} currency={currency} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
        {total !== null && amountAt > 0 && (
          <tfoot>
            <tr>
              <th scope="row" colSpan={amountAt} className={classes.totalLabel}>
                Total
              </th>
              <td className={`${classes.numeric} ${classes.total}`}>{formatMoney(total, currency)}</td>
              {shown.slice(amountAt + 1).map((c) => (
                <td key={c.name} />
              ))}
            </tr>
          </tfoot>
        )}
      </table>
    </div>
  );
}
