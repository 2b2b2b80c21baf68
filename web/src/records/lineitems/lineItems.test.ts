import { describe, expect, it } from 'vitest';
import { invoiceLines } from '../kinds.fixture';
import type { KindTab } from '../types';
import { lineColumns, lineItemTabs, linesTotal, sectionTabs } from './lineItems';

const tabs: KindTab[] = [
  { name: 'files', label: 'Files', source: 'files' },
  { name: 'expense', label: 'Expenses', source: 'sublist' },
  { name: 'item', label: 'Line items', source: 'sublist' },
  { name: 'notes', label: 'Notes', source: 'sublist' },
  { name: 'items', label: 'Items (a related list)', source: 'related', kind: 'invoice' },
];

describe('line items', () => {
  it('are the item and expense sublists, items first; the other tabs stay sections', () => {
    expect(lineItemTabs(tabs).map((t) => t.name)).toEqual(['item', 'expense']);
    expect(sectionTabs(tabs).map((t) => t.name)).toEqual(['files', 'notes', 'items']);
    expect(lineItemTabs([{ name: 'item', label: 'Item', source: 'related', kind: 'x' }])).toEqual([]);
  });

  it('read as a document reads them: item, description, quantity, rate, amount; amounts typed as money', () => {
    const columns = lineColumns(invoiceLines.columns);
    expect(columns.map((c) => `${c.name}:${c.type}`)).toEqual(['item:text', 'description:text', 'quantity:number', 'rate:money', 'amount:money']);
    // A type the answer gives is kept.
    expect(lineColumns([{ name: 'amount', label: 'Amount', type: 'quantity' }])[0]!.type).toBe('quantity');
    // Members the order does not know follow, in the answer's order.
    expect(lineColumns([{ name: 'zeta', label: 'Zeta', type: 'text' }, { name: 'amount', label: 'Amount', type: 'text' }, { name: 'alpha', label: 'Alpha', type: 'text' }]).map((c) => c.name)).toEqual([
      'amount',
      'zeta',
      'alpha',
    ]);
  });

  it('add up their amounts to the cent', () => {
    expect(linesTotal(invoiceLines.rows)).toBe(1250.5);
    expect(linesTotal([{ id: 1, amount: 0.1 }, { id: 2, amount: 0.2 }])).toBe(0.3);
    expect(linesTotal([{ id: 1, amount: '12.5' }, { id: 2 }])).toBe(12.5);
    expect(linesTotal([{ id: 1, description: 'no amount' }])).toBeNull();
  });
});
