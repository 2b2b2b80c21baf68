/**
 * Totals the app adds up itself (a tab's rows, a transaction's lines), per unit as the
 * server's are (UnitTotal): money per currency, credits per credit type, never one sum.
 */
import { isRef, toNumber } from './format';
import type { CellValue, KindField, Row, UnitTotal } from './types';

/** A sum of amounts in cents, without the float noise of adding many of them. */
export function roundCents(n: number): number {
  return Math.round(n * 100) / 100;
}

/**
 * What unit a row's value of `field` is in, as the server names it in totals: a money
 * value's record currency (`_currency`, "" for the base currency); a quantity's value of its
 * `per` field ("" for none); "" for a quantity of one unit. Null when the row cannot say (it
 * does not carry the `per` field): such values are never added up.
 */
export function rowUnit(row: Row, field: Pick<KindField, 'type' | 'per'> | undefined): string | null {
  if (field?.type === 'money') return row._currency ?? '';
  if (!field?.per) return '';
  if (!(field.per in row)) return null;
  const unit: CellValue = row[field.per];
  if (isRef(unit)) return unit.refName;
  return unit === null || unit === undefined ? '' : String(unit);
}

/**
 * The totals of `column` over `rows`, per unit (`unitOf`; null: the row cannot say, and the
 * column is not totalled), ordered as the server's ("" first, then by unit). Null when a
 * row's unit is unknown; `[{ total: 0 }]` over no values.
 */
export function sumByUnit(rows: readonly Row[], column: string, unitOf: (row: Row) => string | null): UnitTotal[] | null {
  const sums = new Map<string, number>();
  for (const row of rows) {
    const n = toNumber(row[column] as CellValue);
    if (n === null) continue;
    const unit = unitOf(row);
    if (unit === null) return null;
    sums.set(unit, (sums.get(unit) ?? 0) + n);
  }
  if (sums.size === 0) return [{ total: 0 }];
  return [...sums]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([unit, total]) => (unit ? { unit, total: roundCents(total) } : { total: roundCents(total) }));
}
