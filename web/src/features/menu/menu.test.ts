import { describe, expect, it } from 'vitest';
import type { MenuItem } from '../../lib/session/types';
import { menuFromRegistry } from './menu';

const leaf = (text: string, href: string): MenuItem => ({ text, href, iconCss: '', items: [], separator: false });
const separator: MenuItem = { text: '', href: '', iconCss: '', items: [], separator: true };
const category = (text: string, items: MenuItem[]): MenuItem => ({ text, href: '', iconCss: '', items, separator: false });

/** What GET /api/v1/kinds answers for a role that sees these kinds (a kind added later included). */
const kinds = [
  { name: 'project', route: 'project' },
  { name: 'customer', route: 'clients' },
  { name: 'customrecord_permit', route: 'permit' },
];

const texts = (items: MenuItem[]): unknown[] => items.map((i) => (i.separator ? '—' : i.items.length ? { [i.text]: texts(i.items) } : `${i.text} ${i.href}`));

describe('the menu read against the kind registry', () => {
  it('opens named actions at the route the registry gives their record type', () => {
    const menu = menuFromRegistry([leaf('Clients', 'action:client-list'), leaf('Edit', 'action:project-edit?id=4'), leaf('Home', 'dashboard')], kinds);
    expect(texts(menu)).toEqual(['Clients /clients/list', 'Edit /project/edit?id=4', 'Home /']);
  });

  it('keeps fixed pages, external links, labels and any kind of the role — a new one included', () => {
    const menu = menuFromRegistry(
      [leaf('Permits', '/permit/list'), leaf('Reports', '/reports/list'), leaf('Feedback', 'feedback'), leaf('Help', 'https://help.example.com'), leaf('Heading', '')],
      kinds,
    );
    expect(texts(menu)).toEqual(['Permits /permit/list', 'Reports /reports/list', 'Feedback /feedback', 'Help https://help.example.com', 'Heading ']);
  });

  it('leaves out what leads to a kind the role does not see, and categories left empty', () => {
    const menu = menuFromRegistry(
      [
        leaf('Projects', '/project/list?filter=x'),
        separator,
        category('Finance', [leaf('Invoices', '/invoice/list'), separator, leaf('Bills', 'action:bill-list')]),
        separator,
        category('People', [leaf('Invoices', '/invoice/list'), separator, leaf('Clients', '/clients/list'), separator]),
        leaf('Nowhere', 'action:no-such-action'),
      ],
      kinds,
    );
    expect(texts(menu)).toEqual(['Projects /project/list?filter=x', '—', { People: ['Clients /clients/list'] }]);
  });
});
