/**
 * How values read: the app's one formatter, by the field's type (`GET /api/v1/kinds`).
 * Numbers and dates follow the user's locale (the browser's language); money carries
 * its field's currency; percent fields hold 0–100; quantities always show two decimals,
 * so a column of them lines up; dates from the API's yyyy-mm-dd show without a time-zone
 * shift; booleans read Yes/No. FieldValue.tsx renders the same values as elements (links
 * for references, email, phone and web addresses; badges for statuses).
 */
import type { CellValue, FieldType, RefValue } from './types';

/** The currency of a money field that names none (the API's default base currency). */
export const DEFAULT_CURRENCY = 'USD';

/** What a value's text depends on besides its type. */
export interface FormatOptions {
  /** Money: the ISO 4217 code of the field (KindField.currency). */
  currency?: string;
}

// `undefined` is the user's locale. Formatters are costly to make: one per kind of value.
const LOCALE = undefined;
const quantityFormat = new Intl.NumberFormat(LOCALE, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const numberFormat = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 2 });
const percentFormat = new Intl.NumberFormat(LOCALE, { style: 'percent', maximumFractionDigits: 1 });
const countFormat = new Intl.NumberFormat(LOCALE);
const dateFormat = new Intl.DateTimeFormat(LOCALE, { dateStyle: 'medium', timeZone: 'UTC' });
const dateTimeFormat = new Intl.DateTimeFormat(LOCALE, { dateStyle: 'medium', timeStyle: 'short' });
const moneyFormats = new Map<string, Intl.NumberFormat>();

function moneyFormat(currency: string): Intl.NumberFormat {
  let format = moneyFormats.get(currency);
  if (!format) {
    try {
      format = new Intl.NumberFormat(LOCALE, { style: 'currency', currency });
    } catch {
      // Not an ISO 4217 code: the number, then the code as given.
      const plain = new Intl.NumberFormat(LOCALE, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
      format = { format: (n: number) => `${plain.format(n)} ${currency}` } as Intl.NumberFormat;
    }
    moneyFormats.set(currency, format);
  }
  return format;
}

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2}))?$/;

export function isRef(value: CellValue): value is RefValue {
  return typeof value === 'object' && value !== null && 'id' in value;
}

/** A number from a number or a numeric string (the ERP writes some as text); else null. */
export function toNumber(value: CellValue): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return null;
}

/** 1234.5 → "$1,234.50" (in the field's currency, default USD). */
export function formatMoney(value: CellValue, currency: string = DEFAULT_CURRENCY): string {
  const n = toNumber(value);
  return n === null ? '' : moneyFormat(currency || DEFAULT_CURRENCY).format(n);
}

/** 1.2 → "1.20": always two decimals, so amounts of a column line up. */
export function formatQuantity(value: CellValue): string {
  const n = toNumber(value);
  return n === null ? '' : quantityFormat.format(n);
}

/** A plain figure: 1234 → "1,234", 2.345 → "2.35". */
export function formatNumber(value: CellValue): string {
  const n = toNumber(value);
  return n === null ? '' : numberFormat.format(n);
}

/** A percent field holds 0–100: 95 → "95%", 12.5 → "12.5%". */
export function formatPercent(value: CellValue): string {
  const n = toNumber(value);
  return n === null ? '' : percentFormat.format(n / 100);
}

/** true, "T", "true" → "Yes"; false, "F", "false" → "No" (NetSuite writes checkboxes both ways). */
export function formatBoolean(value: CellValue): string {
  if (value === true || value === 'T' || value === 'true') return 'Yes';
  if (value === false || value === 'F' || value === 'false') return 'No';
  return typeof value === 'string' ? value : '';
}

/** "2024-03-07" → "Mar 7, 2024" (in the user's locale); a timestamp with its time; anything else unchanged. */
export function formatDate(value: CellValue): string {
  if (typeof value !== 'string' || value === '') return '';
  if (ISO_DAY.test(value)) {
    const day = Date.parse(`${value}T00:00:00Z`);
    return Number.isNaN(day) ? value : dateFormat.format(day);
  }
  const instant = Date.parse(value);
  return Number.isNaN(instant) ? value : dateTimeFormat.format(instant);
}

/** A timestamp (RFC 3339) in the user's time zone. */
export function formatDateTime(value: string): string {
  const instant = Date.parse(value);
  return Number.isNaN(instant) ? value : dateTimeFormat.format(instant);
}

const compactCount = new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 });

/**
 * A record count: "1 record", "12,345 records"; an estimate reads "≈ 1.2M records" (its
 * last digits mean nothing).
 */
export function formatCount(n: number, estimated = false): string {
  if (estimated) return `≈ ${compactCount.format(n)} records`;
  return `${countFormat.format(n)} ${n === 1 ? 'record' : 'records'}`;
}

export function formatBytes(size: number): string {
  if (!Number.isFinite(size) || size < 0) return '';
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KB`;
  return `${(size / (1024 * 1024)).toFixed(1)} MB`;
}

/** The text of a value of `type`, as a table cell or a field shows it ("" for none). */
export function formatValue(value: CellValue, type: FieldType | string | undefined, options: FormatOptions = {}): string {
  if (value === null || value === undefined) return '';
  if (isRef(value)) return value.refName;
  switch (type) {
    case 'money':
      return formatMoney(value, options.currency);
    case 'quantity':
      return formatQuantity(value);
    case 'number':
      return formatNumber(value);
    case 'percent':
      return formatPercent(value);
    case 'date':
      return formatDate(value);
    case 'boolean':
      return formatBoolean(value);
    default:
      if (typeof value === 'boolean') return formatBoolean(value);
      // The ERP's plain fields come as text: its dates and timestamps read better formatted.
      if (typeof value === 'string' && ISO_DATE.test(value)) return formatDate(value);
      return String(value);
  }
}

/** Numbers read right-aligned. */
export function isNumeric(type: FieldType | string | undefined): boolean {
  return type === 'money' || type === 'quantity' || type === 'number' || type === 'percent';
}

/** The link a web address field may open: http(s) only (never javascript:, data:, …); else undefined. */
export function safeWebUrl(value: CellValue): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  // NetSuite keeps addresses as typed: "www.example.com" means the web site.
  const candidate = /^[a-z][a-z\d+.-]*:/i.test(text) ? text : /^[\w-]+(\.[\w-]+)+([/?#]|$)/.test(text) ? `https://${text}` : '';
  try {
    const url = new URL(candidate);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** `mailto:` of an email address that looks like one; else undefined. */
export function mailtoHref(value: CellValue): string | undefined {
  if (typeof value !== 'string') return undefined;
  const address = value.trim();
  return /^[^\s@<>()"',;:]+@[^\s@<>()"',;:]+\.[^\s@<>()"',;:]+$/.test(address) ? `mailto:${address}` : undefined;
}

/** `tel:` of a phone number (its digits, a leading + kept); undefined when it has too few digits. */
export function telHref(value: CellValue): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const text = String(value).trim();
  const digits = text.replace(/\D/g, '');
  if (digits.length < 3 || digits.length > 20) return undefined;
  return `tel:${text.startsWith('+') ? '+' : ''}${digits}`;
}
