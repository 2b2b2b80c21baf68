import { describe, expect, it } from 'vitest';
import {
  currencyAffix,
  currencyName,
  currencyOf,
  formatBoolean,
  fileTypeName,
  formatBytes,
  formatCompact,
  formatCount,
  formatDate,
  formatMoney,
  formatNumber,
  formatPercent,
  formatQuantity,
  formatRecordCount,
  formatUnitTotals,
  formatValue,
  isNumeric,
  joinTotals,
  mailtoHref,
  safeWebUrl,
  telHref,
} from './format';

// The test runtime's locale is en-US: the app formats in the user's locale.
describe('formatValue, by field type', () => {
  it('money: in its own currency; with none known, the bare amount, never a currency it may not be in', () => {
    expect(formatValue(1234.5, 'money')).toBe('1,234.50');
    expect(formatMoney(1234.5, '')).toBe('1,234.50');
    expect(formatValue(1234.5, 'money', { currency: 'EUR' })).toBe('€1,234.50');
    expect(formatValue(1234.5, 'money', { currency: 'CAD' })).toBe('CA$1,234.50');
    expect(formatValue('0', 'money', { currency: 'USD' })).toBe('$0.00');
    expect(formatMoney(-20, 'GBP')).toBe('-£20.00');
    // Not an ISO code: the amount, then the code as given.
    expect(formatMoney(5, 'credits')).toBe('5.00 credits');
  });

  it('percent: a field holds 0–100', () => {
    expect(formatValue(95, 'percent')).toBe('95%');
    expect(formatPercent(12.5)).toBe('12.5%');
    expect(formatPercent('100')).toBe('100%');
  });

  it('quantity: always two decimals, so a column lines up; a unit’s name after it', () => {
    expect(['1.2', 34, 463.2].map((v) => formatValue(v, 'quantity'))).toEqual(['1.20', '34.00', '463.20']);
    expect(formatQuantity(115888.5)).toBe('115,888.50');
    expect(formatValue(34.12, 'quantity', { unit: 'Wetland' })).toBe('34.12 Wetland');
  });

  it('number: a plain figure', () => {
    expect(formatValue(12000, 'number')).toBe('12,000');
    expect(formatNumber(2.345)).toBe('2.35');
  });

  it('date: in the user’s locale, a day without a time-zone shift', () => {
    expect(formatValue('2024-03-07', 'date')).toBe('Mar 7, 2024');
    expect(formatDate('2024-01-01')).toBe('Jan 1, 2024');
    expect(formatDate('not a date')).toBe('not a date');
    expect(formatDate('2024-03-07T10:00:00Z')).toMatch(/^Mar 7, 2024, \d{1,2}:\d{2}/);
  });

  it('boolean: Yes or No, however NetSuite wrote it', () => {
    expect(formatValue(true, 'boolean')).toBe('Yes');
    expect(formatValue(false, 'boolean')).toBe('No');
    expect(formatBoolean('T')).toBe('Yes');
    expect(formatBoolean('F')).toBe('No');
    expect(formatValue(false, 'text')).toBe('No');
  });

  it('reference: the record’s name, never its id', () => {
    expect(formatValue({ id: 123, refName: 'Acme Water' }, 'reference')).toBe('Acme Water');
    expect(formatValue({ id: 123, refName: 'Acme Water' }, 'reference')).not.toContain('123');
  });

  it('text: as is, except the ERP’s ISO dates; none is empty', () => {
    expect(formatValue('Net 30', 'text')).toBe('Net 30');
    expect(formatValue('2024-03-07', 'text')).toBe('Mar 7, 2024');
    expect(formatValue(null, 'money')).toBe('');
    expect(formatValue(undefined, 'text')).toBe('');
    expect(formatValue('abc', 'money')).toBe('');
  });

  it('right-aligns the numeric types', () => {
    expect(['money', 'quantity', 'number', 'percent'].every(isNumeric)).toBe(true);
    expect(['text', 'date', 'email', 'boolean'].some(isNumeric)).toBe(false);
  });
});

describe('money in its own currency, totals per unit', () => {
  it('a value’s currency is its record’s when it names one, else the field’s base currency', () => {
    expect(currencyOf('GBP', 'EUR')).toBe('GBP');
    expect(currencyOf(undefined, 'EUR')).toBe('EUR');
    expect(currencyOf('', 'EUR')).toBe('EUR');
    expect(currencyOf(null, undefined)).toBeUndefined();
  });

  it('money totals: one per currency, no unit being the base currency', () => {
    const totals = [{ total: 12000 }, { unit: 'GBP', total: 3000 }];
    expect(formatUnitTotals(totals, { type: 'money', currency: 'EUR' })).toEqual(['€12,000.00', '£3,000.00']);
    expect(formatUnitTotals([{ unit: '', total: 0 }], { type: 'money', currency: 'EUR' })).toEqual(['€0.00']);
    expect(formatUnitTotals(undefined, { type: 'money' })).toEqual([]);
  });

  it('quantity totals: a unit’s name after each; none beside others is named', () => {
    const how = { type: 'quantity', noUnit: 'no credit type' };
    expect(formatUnitTotals([{ unit: 'Wetland', total: 34.12 }, { unit: 'Stream', total: 0.01 }], how)).toEqual(['34.12 Wetland', '0.01 Stream']);
    expect(formatUnitTotals([{ total: 2 }, { unit: 'Stream', total: 1 }], how)).toEqual(['2.00 (no credit type)', '1.00 Stream']);
    // A quantity of one unit (acres): the number alone.
    expect(formatUnitTotals([{ total: 1.2 }], { type: 'quantity' })).toEqual(['1.20']);
  });

  it('totals in a sentence, short axis figures, and a money input’s symbol', () => {
    expect(joinTotals(['€1.00', '£2.00'])).toBe('€1.00 and £2.00');
    expect(joinTotals(['€1.00'])).toBe('€1.00');
    expect(formatCompact(1_250_000, 'EUR')).toBe('€1.3M');
    expect(formatCompact(1_250_000)).toBe('1.3M');
    // A round figure without the currency's decimals: a tick as short as can be.
    expect(formatCompact(300_000, 'CAD')).toBe('CA$300K');
    expect(formatCompact(0, 'USD')).toBe('$0');
    expect(currencyAffix('GBP')).toEqual({ prefix: '£', suffix: undefined });
    expect(currencyAffix('credits')).toEqual({ suffix: ' credits' });
    expect(currencyAffix(undefined)).toEqual({});
    expect(currencyName('CAD')).toBe('Canadian Dollar (CAD)');
    expect(currencyName('credits')).toBe('credits');
  });
});

describe('counts and sizes', () => {
  it('a count is a whole figure in the user’s locale; a record count says what it counts', () => {
    expect(formatCount(1234)).toBe('1,234');
    expect(formatCount(0)).toBe('0');
    expect(formatRecordCount(1)).toBe('1 record');
    expect(formatRecordCount(12345)).toBe('12,345 records');
    expect(formatRecordCount(1_234_567, true)).toBe('≈ 1.2M records');
    expect(formatRecordCount(1, false, ['invoice', 'invoices'])).toBe('1 invoice');
    expect(formatRecordCount(51, false, ['invoice', 'invoices'])).toBe('51 invoices');
    expect(formatRecordCount(1_234_567, true, ['invoice', 'invoices'])).toBe('≈ 1.2M invoices');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(2 * 1024 * 1024)).toBe('2.0 MB');
    expect(formatBytes(-1)).toBe('');
  });

  it('names a file type as people do, never as a media type with parameters', () => {
    expect(fileTypeName('text/plain; charset=utf-8', 'notes.txt')).toBe('Text file');
    expect(fileTypeName('application/pdf', 'plan.pdf')).toBe('PDF document');
    expect(fileTypeName('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'budget.xlsx')).toBe('Excel workbook');
    expect(fileTypeName('application/zip', 'photos.zip')).toBe('ZIP file');
    expect(fileTypeName('application/octet-stream', 'README')).toBe('File');
  });

  // The one place numbers are formatted: a page that writes its own formatter (a locale
  // such as 'en-US' hard-coded, a bare toLocaleString) reads differently from the rest.
  it('no module but this one formats numbers itself', () => {
    const sources = import.meta.glob<string>(['../**/*.{ts,tsx}', '!../**/*.test.{ts,tsx}', '!./format.ts'], { query: '?raw', import: 'default', eager: true });
    expect(Object.keys(sources).length).toBeGreaterThan(50);
    const offenders = Object.entries(sources)
      .filter(([, text]) => /Intl\.NumberFormat|toLocaleString\(|'en-US'|\.toFixed\(/.test(text))
      .map(([file]) => file);
    expect(offenders).toEqual([]);
  });
});

describe('links of contact fields', () => {
  it('email: mailto: of a plausible address only', () => {
    expect(mailtoHref(' ada@example.com ')).toBe('mailto:ada@example.com');
    expect(mailtoHref('not an address')).toBeUndefined();
    expect(mailtoHref('a@b')).toBeUndefined();
  });

  it('phone: tel: of its digits', () => {
    expect(telHref('+1 (555) 010-2030')).toBe('tel:+15550102030');
    expect(telHref('555-0100')).toBe('tel:5550100');
    expect(telHref('n/a')).toBeUndefined();
  });

  it('url: http and https only, a bare host taken as https', () => {
    expect(safeWebUrl('https://example.com/a?b=1')).toBe('https://example.com/a?b=1');
    expect(safeWebUrl('http://example.com')).toBe('http://example.com/');
    expect(safeWebUrl('www.example.com')).toBe('https://www.example.com/');
    for (const bad of ['javascript:alert(1)', 'JAVASCRIPT:alert(1)', 'data:text/html,x', 'vbscript:x', 'ftp://example.com', 'just words', '']) {
      expect(safeWebUrl(bad), bad).toBeUndefined();
    }
  });
});
