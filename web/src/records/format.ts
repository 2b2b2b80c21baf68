/**
 * How values show: money in USD, quantities with up to two decimals, dates from the
 * API's yyyy-mm-dd without a time-zone shift, file sizes in KB/MB.
 */
import type { CellValue, FieldType, RefValue } from './types';

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const quantity = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const dateFormat = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });
const dateTimeFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2}))?$/;

export function isRef(value: CellValue): value is RefValue {
  return typeof value === 'object' && value !== null && 'id' in value;
}

function toNumber(value: CellValue): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value))) return Number(value);
  return null;
}

export function formatMoney(value: CellValue): string {
  const n = toNumber(value);
  return n === null ? '' : money.format(n);
}

export function formatQuantity(value: CellValue): string {
  const n = toNumber(value);
  return n === null ? '' : quantity.format(n);
}

/** "2024-03-07" → "Mar 7, 2024"; anything else unchanged. */
export function formatDate(value: CellValue): string {
  if (typeof value !== 'string' || value === '') return '';
  const day = /^\d{4}-\d{2}-\d{2}$/.test(value) ? Date.parse(`${value}T00:00:00Z`) : NaN;
  if (!Number.isNaN(day)) return dateFormat.format(day);
  const instant = Date.parse(value);
  return Number.isNaN(instant) ? value : dateTimeFormat.format(instant);
}

/** A timestamp (RFC 3339) in the user's time zone. */
export function formatDateTime(value: string): string {
  const instant = Date.parse(value);
  return Number.isNaN(instant) ? value : dateTimeFormat.format(instant);
}

const compactCount = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

/**
 * A record count: "1 record", "12,345 records"; an estimate reads "≈ 1.2M records" (its
 * last digits mean nothing).
 */
export function formatCount(n: number, estimated = false): string {
  if (estimated) return `≈ ${compactCount.format(n)} records`;
  return `${n.toLocaleString('en-US')} ${n === 1 ? 'record' : 'records'}`;
}

export function formatBytes(size: number): string {
  if (!Number.isFinite(size) || size < 0) return '';
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KB`;
  return `${(size / (1024 * 1024)).toFixed(1)} MB`;
}

/** The text of a value of `type`, as a table cell or a field shows it. */
export function formatValue(value: CellValue, type: FieldType | string | undefined): string {
  if (value === null || value === undefined) return '';
  if (isRef(value)) return value.refName;
  switch (type) {
    case 'money':
      return formatMoney(value);
    case 'quantity':
      return formatQuantity(value);
    case 'date':
      return formatDate(value);
    default:
      if (typeof value === 'boolean') return value ? 'Yes' : 'No';
      // The ERP's plain fields come as text: its dates and timestamps read better formatted.
      if (typeof value === 'string' && ISO_DATE.test(value)) return formatDate(value);
      return String(value);
  }
}

/** Numbers read right-aligned. */
export function isNumeric(type: FieldType | string | undefined): boolean {
  return type === 'money' || type === 'quantity';
}
