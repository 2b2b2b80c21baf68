/**
 * Line items of a transaction (invoice, vendor bill): a sublist of the record's document
 * that the registry lists among the kind's tabs with source "lines", and whose answer
 * gives its columns typed and in the order a document shows them. The record page shows
 * them under its header with their total, and the printable document prints them, rather
 * than as one more tab.
 */
import { toNumber } from '../format';
import type { CellValue, KindTab, Row } from '../types';

/** The tabs that are a transaction's lines, in the registry's order. */
export function lineItemTabs(tabs: readonly KindTab[]): KindTab[] {
  return tabs.filter((t) => t.source === 'lines');
}

/** The tabs a record page offers as sections: all but its lines. */
export function sectionTabs(tabs: readonly KindTab[]): KindTab[] {
  return tabs.filter((t) => t.source !== 'lines');
}

/** The sum of one column over the lines, or null when no line has a value in it. */
export function columnTotal(rows: readonly Row[], column: string): number | null {
  let total: number | null = null;
  for (const row of rows) {
    const n = toNumber(row[column] as CellValue);
    if (n !== null) total = (total ?? 0) + n;
  }
  // Cents, without the float noise of adding many of them.
  return total === null ? null : Math.round(total * 100) / 100;
}
