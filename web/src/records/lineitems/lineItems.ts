/**
 * Line items of a transaction (invoice, vendor bill): NetSuite keeps them in the record's
 * `item` sublist (what was sold or bought: item, description, quantity, rate, amount) and
 * `expense` sublist (account, memo, amount). The registry lists such a sublist among the
 * kind's tabs (source "sublist"); the record page shows it as the record's lines with a
 * total, and the printable document prints them, rather than as one more tab.
 */
import { toNumber } from '../format';
import type { CellValue, FieldType, KindTab, ListColumn, Row } from '../types';

/** NetSuite's transaction sublists of lines, in the order a document shows them. */
export const LINE_SUBLISTS: readonly string[] = ['item', 'expense'];

/** The tabs that are line-item sublists, items first. */
export function lineItemTabs(tabs: readonly KindTab[]): KindTab[] {
  return LINE_SUBLISTS.flatMap((name) => tabs.filter((t) => t.source === 'sublist' && t.name === name));
}

/** The tabs a record page offers as sections: all but its line-item sublists. */
export function sectionTabs(tabs: readonly KindTab[]): KindTab[] {
  const lines = new Set(lineItemTabs(tabs));
  return tabs.filter((t) => !lines.has(t));
}

/** The sublist member holding a line's amount: what the total adds up. */
export const AMOUNT_COLUMN = 'amount';

/**
 * How NetSuite's line members read when the answer types them only as text (a sublist's
 * members are not declared in the registry). A column the answer types otherwise keeps
 * its type.
 */
const MEMBER_TYPES: Readonly<Record<string, FieldType>> = {
  amount: 'money',
  rate: 'money',
  grossamt: 'money',
  tax1amt: 'money',
  quantity: 'number',
};

/** The order of the members a document shows; others follow in the answer's order. */
const MEMBER_ORDER = ['item', 'account', 'description', 'memo', 'quantity', 'units', 'rate', 'amount'];

/** Members that number or key a line and say nothing to a reader. */
const HIDDEN_MEMBERS = new Set(['line', 'id']);

/** The columns of a line-item table: readable order, typed amounts, no line keys. */
export function lineColumns(columns: readonly ListColumn[]): ListColumn[] {
  const rank = (name: string) => {
    const at = MEMBER_ORDER.indexOf(name);
    return at < 0 ? MEMBER_ORDER.length : at;
  };
  return columns
    .filter((c) => !HIDDEN_MEMBERS.has(c.name))
    .map((c) => ({ ...c, type: c.type === 'text' ? (MEMBER_TYPES[c.name] ?? c.type) : c.type }))
    .sort((a, b) => rank(a.name) - rank(b.name));
}

/** The sum of the lines' amounts, or null when no line has one. */
export function linesTotal(rows: readonly Row[]): number | null {
  let total: number | null = null;
  for (const row of rows) {
    const n = toNumber(row[AMOUNT_COLUMN] as CellValue);
    if (n !== null) total = (total ?? 0) + n;
  }
  // Cents, without the float noise of adding many of them.
  return total === null ? null : Math.round(total * 100) / 100;
}
