import { describe, expect, it } from 'vitest';
import type { MenuItem } from '../../lib/session/types';
import { containsPath, inAppPath, isExternalHref } from './CategoryMenu';

const leaf = (text: string, href: string): MenuItem => ({ text, iconCss: '', href, separator: false, items: [] });
const separator: MenuItem = { text: '', iconCss: '', href: '', separator: true, items: [] };

describe('category menu helpers', () => {
  it('tells in-app paths from external links', () => {
    expect(isExternalHref('https://x.test')).toBe(true);
    expect(isExternalHref('HTTP://x.test')).toBe(true);
    expect(isExternalHref('/project/list')).toBe(false);
    expect(inAppPath('project/list')).toBe('/project/list');
    expect(inAppPath('/project/list')).toBe('/project/list');
  });

  it('finds the current page in a category, at any depth', () => {
    const finance: MenuItem = {
      text: 'Finance',
      iconCss: '',
      href: '',
      separator: false,
      items: [
        leaf('Invoices', '/invoice/list'),
        separator,
        leaf('Vendor bills', 'vendorbill/list'),
        { text: 'More', iconCss: '', href: '', separator: false, items: [leaf('Budgets', '/budget/list')] },
      ],
    };
    expect(containsPath(finance, '/vendorbill/list')).toBe(true);
    expect(containsPath(finance, '/budget/list')).toBe(true);
    expect(containsPath(finance, '/project/list')).toBe(false);
    expect(containsPath(leaf('Dashboard', '/'), '/')).toBe(false);
  });
});
