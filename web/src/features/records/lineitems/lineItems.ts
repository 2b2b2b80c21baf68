/**
 * Line items of a transaction (invoice, vendor bill): a sublist of the record's document
 * that the registry lists among the kind's tabs with source "lines", and whose answer
 * gives its columns typed and in the order a document shows them. The record page shows
 * them under its header with their total, and the printable document prints them, rather
 * than as one more tab.
 */
import { currencyOf, toNumber } from '../format';
import { baseCurrency } from '../kinds';
import type { CellValue, Kind, KindTab, ListColumn, Row } from '../types';
import { roundCents } from '../unitTotals';

/** The tabs that are a transaction's lines, in the registry's order. */
export function lineItemTabs(tabs: readonly KindTab[]): KindTab[] {
  return tabs.filter((t) => t.source === 'lines');
}

/** The tabs a record page offers as sections: all but its lines. */
export function sectionTabs(tabs: readonly KindTab[]): KindTab[] {
  return tabs.filter((t) => t.source !== 'lines');
}

/**
 * The currency of a record's lines of `tab` (all of them are in one): the record's own
 * (RecordDetail.currency), else the base currency the kind's declaration of the tab names
 * on its money columns (the tab's answer does not), else the kind's.
 */
export function linesCurrency(kind: Kind, tab: Pick<KindTab, 'name'>, recordCurrency: string | undefined): string | undefined {
  const declared = kind.tabs.find((t) => t.name === tab.name)?.columns?.find((c) => c.type === 'money' && c.currency)?.currency;
  return currencyOf(recordCurrency, declared ?? baseCurrency([kind]));
}

/** The sum of one column over the lines, or null when no line has a value in it. */
export function columnTotal(rows: readonly Row[], column: string): number | null {
  let total: number | null = null;
  for (const row of rows) {
    const n = toNumber(row[column] as CellValue);
    if (n !== null) total = (total ?? 0) + n;
  }
  return total === null ? null : roundCents(total);
}

/**
 * The currency a column's cells read in: for money, the lines' (linesCurrency), else the
 * column's own; nothing for other types.
 */
export function cellCurrency(column: Pick<ListColumn, 'type' | 'currency'>, linesCurrency: string | undefined): string | undefined {
  return column.type === 'money' ? (linesCurrency ?? column.currency) : undefined;
}

/**
 * Which of a record's line sections show, given each one's count of lines (undefined while
 * unknown): a section with no lines is left out once another has some (a bill of expenses
 * does not also say it has no items).
 */
export function sectionsShown(counts: readonly (number | undefined)[]): boolean[] {
  const someLines = counts.some((n) => (n ?? 0) > 0);
  return counts.map((n) => !(someLines && n === 0));
}
