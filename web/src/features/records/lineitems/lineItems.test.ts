import { describe, expect, it } from 'vitest';
import { invoiceLines } from '../kinds.fixture';
import type { KindTab } from '../types';
import { cellCurrency, columnTotal, lineItemTabs, sectionsShown, sectionTabs } from './lineItems';

const tabs: KindTab[] = [
  { name: 'files', label: 'Files', source: 'files' },
  { name: 'item', label: 'Items', source: 'lines', columns: invoiceLines.columns },
  { name: 'notes', label: 'Notes', source: 'sublist' },
  { name: 'expense', label: 'Expenses', source: 'lines', columns: invoiceLines.columns },
  { name: 'items', label: 'Items (a related list)', source: 'related', kind: 'invoice' },
];

describe('line items', () => {
  it('are the lines tabs, in the registry’s order; the other tabs stay sections', () => {
    expect(lineItemTabs(tabs).map((t) => t.name)).toEqual(['item', 'expense']);
    expect(sectionTabs(tabs).map((t) => t.name)).toEqual(['files', 'notes', 'items']);
    // A sublist tab is a section, whatever its name.
    expect(lineItemTabs([{ name: 'item', label: 'Item', source: 'sublist' }])).toEqual([]);
  });

  it('add up a column to the cent', () => {
    expect(columnTotal(invoiceLines.rows, 'amount')).toBe(1250.5);
    expect(columnTotal([{ id: 1, amount: 0.1 }, { id: 2, amount: 0.2 }], 'amount')).toBe(0.3);
    expect(columnTotal([{ id: 1, amount: '12.5' }, { id: 2 }], 'amount')).toBe(12.5);
    expect(columnTotal([{ id: 1, description: 'no amount' }], 'amount')).toBeNull();
  });

  it('leave out a section without lines once another has some, on the record page and its printed form alike', () => {
    expect(sectionsShown([2, 0])).toEqual([true, false]);
    expect(sectionsShown([0, 0])).toEqual([true, true]);
    // While a section's lines are unknown, it shows (loading).
    expect(sectionsShown([undefined, 0])).toEqual([true, true]);
    expect(sectionsShown([undefined, 3, 0])).toEqual([true, true, false]);
  });

  it('read money in the lines’ currency, else the column’s; nothing else has one', () => {
    expect(cellCurrency({ type: 'money', currency: 'USD' }, 'EUR')).toBe('EUR');
    expect(cellCurrency({ type: 'money', currency: 'USD' }, undefined)).toBe('USD');
    expect(cellCurrency({ type: 'number' }, 'EUR')).toBeUndefined();
  });
});
