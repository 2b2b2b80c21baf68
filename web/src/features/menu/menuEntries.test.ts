import { describe, expect, it } from 'vitest';
import type { MenuItem } from '../../lib/session/types';
import { menuFromRegistry } from './menu';
import { filterByWords, goToOptions } from './menuEntries';

const leaf = (text: string, href: string): MenuItem => ({ text, href, iconCss: '', items: [], separator: false });
const separator: MenuItem = { text: '', href: '', iconCss: '', items: [], separator: true };

const menu: MenuItem[] = [
  leaf('Dashboard', '/'),
  {
    text: 'Finance',
    iconCss: '',
    href: '',
    separator: false,
    items: [
      leaf('Invoices', 'invoice/list'),
      separator,
      leaf('ERP', 'https://erp.example.com'),
      leaf('Nowhere', 'action:no-such-action'),
      { text: 'More', iconCss: '', href: '', separator: false, items: [leaf('Budgets', 'action:budget-list')] },
    ],
  },
  leaf('Clients', 'action:client-list'),
];

/** The role's kinds (GET /api/v1/kinds): named actions open their record type's route. */
const kinds = [
  { name: 'invoice', route: 'invoice' },
  { name: 'budget', route: 'budget' },
  { name: 'customer', route: 'customer' },
];

describe('go-to entries of the command palette', () => {
  it('lists every item that leads somewhere, with its categories as detail', () => {
    expect(goToOptions(menuFromRegistry(menu, kinds)).map(({ name, detail, target }) => ({ name, detail, target }))).toEqual([
      { name: 'Dashboard', detail: undefined, target: { kind: 'internal', to: '/' } },
      { name: 'Invoices', detail: 'Finance', target: { kind: 'internal', to: '/invoice/list' } },
      { name: 'ERP', detail: 'Finance', target: { kind: 'external', href: 'https://erp.example.com' } },
      { name: 'Budgets', detail: 'Finance › More', target: { kind: 'internal', to: '/budget/list' } },
      { name: 'Clients', detail: undefined, target: { kind: 'internal', to: '/customer/list' } },
    ]);
    expect(new Set(goToOptions(menuFromRegistry(menu, kinds)).map((o) => o.key)).size).toBe(5);
  });

  it('keeps the entries whose name or categories hold every word of the text', () => {
    const all = goToOptions(menuFromRegistry(menu, kinds));
    const names = (query: string) => filterByWords(all, query).map((o) => o.name);
    expect(names('')).toHaveLength(5);
    expect(names('  INV ')).toEqual(['Invoices']);
    expect(names('finance')).toEqual(['Invoices', 'ERP', 'Budgets']);
    expect(names('more bud')).toEqual(['Budgets']);
    expect(names('cus: acme')).toEqual([]);
  });
});
