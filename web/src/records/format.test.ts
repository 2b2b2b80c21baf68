import { describe, expect, it } from 'vitest';
import {
  formatBoolean,
  formatDate,
  formatMoney,
  formatNumber,
  formatPercent,
  formatQuantity,
  formatValue,
  isNumeric,
  mailtoHref,
  safeWebUrl,
  telHref,
} from './format';

// The test runtime's locale is en-US: the app formats in the user's locale.
describe('formatValue, by field type', () => {
  it('money: with the field’s currency, USD when it names none', () => {
    expect(formatValue(1234.5, 'money')).toBe('$1,234.50');
    expect(formatValue(1234.5, 'money', { currency: 'EUR' })).toBe('€1,234.50');
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

  it('quantity: always two decimals, so a column lines up', () => {
    expect(['1.2', 34, 463.2].map((v) => formatValue(v, 'quantity'))).toEqual(['1.20', '34.00', '463.20']);
    expect(formatQuantity(115888.5)).toBe('115,888.50');
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
