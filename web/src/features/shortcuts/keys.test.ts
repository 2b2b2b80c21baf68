import { describe, expect, it } from 'vitest';
import { kinds as fixtureKinds } from '../records/testing';
import type { Kind } from '../records';
import { actionOf, goLetters, isTyping, searchBox, type KeyPress } from './keys';

function kind(name: string, plural: string): Kind {
  return { name, route: name, label: plural, plural, erpType: name, defaultList: `l-${name}`, fields: [], tabs: [], canCreate: false, canEdit: false, canApprove: false };
}

// The registry's kinds, in its order.
const registry = [
  kind('project', 'Projects'),
  kind('projectrequest', 'Project requests'),
  kind('customer', 'Clients'),
  kind('vendor', 'Vendors'),
  kind('vendorbill', 'Vendor bills'),
  kind('invoice', 'Invoices'),
  kind('vendorquestionnaire', 'Vendor questionnaires'),
  kind('genericresource', 'Generic resources'),
  kind('employee', 'Employees'),
  kind('billing', 'Billing'),
  kind('billing-summary', 'Billing summaries'),
  kind('budget', 'Budgets'),
  kind('creditledger', 'Credit ledger'),
  kind('creditavailability', 'Credit availability'),
  kind('opportunity', 'Opportunities'),
];

function press(key: string, extra: Partial<KeyPress> = {}): KeyPress {
  return { key, ctrlKey: false, metaKey: false, altKey: false, target: document.body, defaultPrevented: false, ...extra };
}

describe('go-to letters', () => {
  it('gives each kind a letter of its own from its name, home keeps h', () => {
    const letters = Object.fromEntries(goLetters(registry).map((t) => [t.label, t.letter]));
    expect(letters).toEqual({
      Dashboard: 'h',
      Projects: 'p',
      'Project requests': 'r',
      Clients: 'c',
      Vendors: 'v',
      'Vendor bills': 'b',
      Invoices: 'i',
      'Vendor questionnaires': 'q',
      'Generic resources': 'g',
      Employees: 'e',
      Billing: 'l',
      'Billing summaries': 's',
      Budgets: 'u',
      'Credit ledger': 'd',
      'Credit availability': 'a',
      Opportunities: 'o',
    });
    const all = goLetters(registry).map((t) => t.letter);
    expect(new Set(all).size).toBe(all.length);
  });

  it('follows the registry the role sees, the same way each time', () => {
    expect(goLetters(fixtureKinds).map((t) => `${t.letter}:${t.label}`)).toEqual(['h:Dashboard', 'p:Projects', 'c:Clients', 'b:Billing']);
    expect(goLetters(fixtureKinds)).toEqual(goLetters(fixtureKinds));
  });
});

describe('key presses', () => {
  it('maps the keys to their shortcuts', () => {
    expect(actionOf(press('/'), false, false)).toEqual({ kind: 'search' });
    expect(actionOf(press('?'), false, false)).toEqual({ kind: 'sheet' });
    expect(actionOf(press('e'), false, false)).toEqual({ kind: 'edit' });
    expect(actionOf(press('g'), false, false)).toEqual({ kind: 'go-wait' });
    expect(actionOf(press('p'), true, false)).toEqual({ kind: 'go', letter: 'p' });
    expect(actionOf(press('Enter'), true, false)).toBeNull();
    expect(actionOf(press('p'), false, false)).toBeNull();
  });

  it('leaves alone typing, modified keys (Ctrl+K is the palette’s) and keys under a dialog', () => {
    const input = document.createElement('input');
    const textarea = document.createElement('textarea');
    const checkbox = Object.assign(document.createElement('input'), { type: 'checkbox' });
    const editable = document.createElement('div');
    editable.setAttribute('contenteditable', 'true');
    const combo = document.createElement('div');
    combo.setAttribute('role', 'combobox');
    for (const target of [input, textarea, editable, combo]) expect(actionOf(press('/', { target }), false, false)).toBeNull();
    expect(isTyping(checkbox)).toBe(false);
    expect(actionOf(press('e', { target: checkbox }), false, false)).toEqual({ kind: 'edit' });
    expect(actionOf(press('k', { ctrlKey: true }), false, false)).toBeNull();
    expect(actionOf(press('g', { metaKey: true }), false, false)).toBeNull();
    expect(actionOf(press('e', { defaultPrevented: true }), false, false)).toBeNull();
    expect(actionOf(press('?'), false, true)).toBeNull();
  });

  it('finds the page’s own search before the navbar’s', () => {
    const root = document.createElement('div');
    root.innerHTML = '<header><div role="search"><input id="global"></div></header><main><input id="list" data-page-search></main>';
    expect(searchBox(root)?.id).toBe('list');
    root.querySelector('main')!.innerHTML = '';
    expect(searchBox(root)?.id).toBe('global');
  });
});
