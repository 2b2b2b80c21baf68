/**
 * How values read: the app's one formatter, by the field's type (`GET /api/v1/kinds`).
 * Numbers and dates follow the user's locale (the browser's language); money reads in its
 * own currency (its record's, else the field's base currency: currencyOf), and without a
 * known currency as the bare amount, never in one it may not be in; percent fields hold
 * 0–100; quantities always show two decimals, so a column of them lines up, with their
 * unit's name after them where it varies (credits: "34.12 Wetland"); totals are one text
 * per unit (formatUnitTotals), never one sum; dates from the API's yyyy-mm-dd show without
 * a time-zone shift; booleans read Yes/No. FieldValue.tsx renders the same values as
 * elements (links for references, email, phone and web addresses; badges for statuses),
 * UnitList.tsx totals of several units.
 */
import type { CellValue, FieldType, RefValue, UnitTotal } from './types';

/** What a value's text depends on besides its type. */
export interface FormatOptions {
  /**
   * Money: the ISO 4217 code of the value's currency (currencyOf: its record's own, else
   * the field's). None: the amount alone, with two decimals.
   */
  currency?: string;
  /** Quantities: the name of the value's unit, written after the number ("34.12 Wetland"). */
  unit?: string;
}

/**
 * The currency a money value is in: its record's own (a row's `_currency`, a record page's
 * `currency`) when it names one, else `base`, the field's (the tenant's base currency).
 */
export function currencyOf(own: unknown, base: string | undefined): string | undefined {
  return typeof own === 'string' && own !== '' ? own : base || undefined;
}

/**
 * The currency a declared field's value reads in: for money, its record's own currency
 * (RecordDetail.currency) when it names one, else the field's; nothing for other types.
 */
export function declaredCurrency(field: { type: FieldType | string; currency?: string }, recordCurrency: string | undefined): string | undefined {
  return field.type === 'money' ? currencyOf(recordCurrency, field.currency) : undefined;
}

// `undefined` is the user's locale. Formatters are costly to make: one per kind of value.
const LOCALE = undefined;
const quantityFormat = new Intl.NumberFormat(LOCALE, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const numberFormat = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 2 });
const percentFormat = new Intl.NumberFormat(LOCALE, { style: 'percent', maximumFractionDigits: 1 });
const countFormat = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 0 });
const sizeFormat = new Intl.NumberFormat(LOCALE, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const dateFormat = new Intl.DateTimeFormat(LOCALE, { dateStyle: 'medium', timeZone: 'UTC' });
const dateTimeFormat = new Intl.DateTimeFormat(LOCALE, { dateStyle: 'medium', timeStyle: 'short' });
const compactNumber = new Intl.NumberFormat(LOCALE, { notation: 'compact', maximumFractionDigits: 1 });
const listFormat = new Intl.ListFormat(LOCALE, { type: 'conjunction' });
const currencyNames = new Intl.DisplayNames(LOCALE, { type: 'currency' });

/** What money reads in: a formatter per currency, full and compact (axis ticks), made once. */
interface MoneyFormat {
  full: (n: number) => string;
  compact: (n: number) => string;
  /** What goes before and after the number (the currency's symbol and its space, per locale). */
  affix: CurrencyAffix;
}

/** The text around an amount in a currency: "€" before it in English, " €" after it in German. */
export interface CurrencyAffix {
  prefix?: string;
  suffix?: string;
}

const moneyFormats = new Map<string, MoneyFormat>();

function moneyFormat(currency: string): MoneyFormat {
  let format = moneyFormats.get(currency);
  if (!format) {
    try {
      const full = new Intl.NumberFormat(LOCALE, { style: 'currency', currency });
      const compact = new Intl.NumberFormat(LOCALE, { style: 'currency', currency, notation: 'compact', minimumFractionDigits: 0, maximumFractionDigits: 1 });
      format = { full: (n) => full.format(n), compact: (n) => compact.format(n), affix: affixOf(full.formatToParts(1)) };
    } catch {
      // Not an ISO 4217 code: the number, then the code as given.
      format = { full: (n) => `${quantityFormat.format(n)} ${currency}`, compact: (n) => `${compactNumber.format(n)} ${currency}`, affix: { suffix: ` ${currency}` } };
    }
    moneyFormats.set(currency, format);
  }
  return format;
}

const NUMBER_PARTS = new Set<string>(['integer', 'group', 'decimal', 'fraction']);

/** The parts of an amount before and after its number. */
function affixOf(parts: Intl.NumberFormatPart[]): CurrencyAffix {
  const first = parts.findIndex((p) => NUMBER_PARTS.has(p.type));
  const last = parts.findLastIndex((p) => NUMBER_PARTS.has(p.type));
  const text = (ps: Intl.NumberFormatPart[]) => ps.map((p) => p.value).join('') || undefined;
  return { prefix: text(parts.slice(0, first)), suffix: text(parts.slice(last + 1)) };
}

/** A currency's name with its code: "Canadian Dollar (CAD)" (in the user's locale); a code it does not know as given. */
export function currencyName(currency: string): string {
  let name: string | undefined;
  try {
    name = currencyNames.of(currency);
  } catch {
    // Not a well-formed code.
  }
  return name && name !== currency ? `${name} (${currency})` : currency;
}

/** What a money input shows around the number in `currency` ("€" before it); nothing when none is known. */
export function currencyAffix(currency: string | undefined): CurrencyAffix {
  return currency ? moneyFormat(currency).affix : {};
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

/**
 * 1234.5 in EUR → "€1,234.50" (in the user's locale). Without a currency, the amount alone
 * ("1,234.50"): an amount is never shown in a currency it may not be in.
 */
export function formatMoney(value: CellValue, currency?: string): string {
  const n = toNumber(value);
  if (n === null) return '';
  return currency ? moneyFormat(currency).full(n) : quantityFormat.format(n);
}

/** 1.2 → "1.20": always two decimals, so amounts of a column line up; a unit's name after it ("1.20 Wetland"). */
export function formatQuantity(value: CellValue, unit?: string): string {
  const n = toNumber(value);
  if (n === null) return '';
  return unit ? `${quantityFormat.format(n)} ${unit}` : quantityFormat.format(n);
}

/**
 * An axis tick's short figure: 1234567 → "1.2M"; money in its currency ("$1.2M"), bare
 * without one.
 */
export function formatCompact(n: number, currency?: string): string {
  return currency ? moneyFormat(currency).compact(n) : compactNumber.format(n);
}

/**
 * How the totals of a field read (formatUnitTotals): its type; for money, the base
 * currency (what a total without a unit is in); for a quantity per a unit field, what its
 * records without a unit are called ("no credit type").
 */
export interface TotalsFormat {
  type: FieldType | string | undefined;
  currency?: string;
  noUnit?: string;
}

/**
 * One text per unit, in the order given (the server's: "" first, then by unit): money in
 * its currency (no unit: the base currency), a quantity with its unit's name after it
 * ("34.12 Wetland"; one without a unit beside others says so: "0.50 (no credit type)").
 * Totals of different units are never added. None for no totals.
 */
export function formatUnitTotals(totals: readonly UnitTotal[] | undefined, how: TotalsFormat): string[] {
  if (!totals) return [];
  return totals.map(({ unit, total }) => {
    if (how.type === 'money') return formatMoney(total, unit || how.currency);
    const named = unit || (totals.length > 1 && how.noUnit ? `(${how.noUnit})` : undefined);
    return formatValue(total, how.type, { unit: named });
  });
}

/** Totals of several units in a sentence: "€12,000.00 and £3,000.00" (in the user's locale). */
export function joinTotals(texts: readonly string[]): string {
  return listFormat.format(texts);
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

/**
 * A count as a figure: 1234 → "1,234" (in the user's locale): records, pages, rows,
 * groups, characters. Every count the app shows reads through here.
 */
export function formatCount(n: number): string {
  return countFormat.format(n);
}

/**
 * A record count: "1 record", "12,345 records"; an estimate reads "≈ 1.2M records" (its
 * last digits mean nothing). `nouns` (singular, plural) name what is counted: a kind's
 * "invoice", "invoices".
 */
export function formatRecordCount(n: number, estimated = false, nouns: [string, string] = ['record', 'records']): string {
  if (estimated) return `≈ ${compactNumber.format(n)} ${nouns[1]}`;
  return `${formatCount(n)} ${n === 1 ? nouns[0] : nouns[1]}`;
}

/** A file's size: "512 B", "1.5 KB", "2.0 MB" (in the user's locale). */
export function formatBytes(size: number): string {
  if (!Number.isFinite(size) || size < 0) return '';
  if (size < 1024) return `${formatCount(size)} B`;
  if (size < 1024 * 1024) return `${sizeFormat.format(size / 1024)} KB`;
  return `${sizeFormat.format(size / (1024 * 1024))} MB`;
}

/** What people call the file types the portal takes (writes.ts FILE_EXTENSIONS), by media type. */
const FILE_TYPE_NAMES: Readonly<Record<string, string>> = {
  'application/pdf': 'PDF document',
  'image/png': 'PNG image',
  'image/jpeg': 'JPEG image',
  'image/gif': 'GIF image',
  'text/plain': 'Text file',
  'text/csv': 'CSV file',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'Word document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'Excel workbook',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'PowerPoint presentation',
};

/**
 * A file's type as people name it: "PDF document", "Word document"; for a media type not
 * listed, the file name's extension ("ZIP file"), else "File". Parameters such as
 * "; charset=utf-8" never show.
 */
export function fileTypeName(contentType: string, fileName: string): string {
  const known = FILE_TYPE_NAMES[contentType.split(';')[0]!.trim().toLowerCase()];
  if (known) return known;
  const extension = /\.([a-z0-9]{1,8})$/i.exec(fileName)?.[1];
  return extension ? `${extension.toUpperCase()} file` : 'File';
}

/** The text of a value of `type`, as a table cell or a field shows it ("" for none). */
export function formatValue(value: CellValue, type: FieldType | string | undefined, options: FormatOptions = {}): string {
  if (value === null || value === undefined) return '';
  if (isRef(value)) return value.refName;
  switch (type) {
    case 'money':
      return formatMoney(value, options.currency);
    case 'quantity':
      return formatQuantity(value, options.unit);
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
