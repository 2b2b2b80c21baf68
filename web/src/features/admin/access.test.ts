import { describe, expect, it } from 'vitest';
import {
  addItem,
  addLayout,
  addRole,
  addUser,
  hrefProblem,
  kindPermissions,
  moveItem,
  newUserProblem,
  problemsAt,
  removeItem,
  removeLayout,
  removeRole,
  ruleExample,
  GENERIC_RULE_EXAMPLE,
  setPermission,
  setRule,
  setUserDisabled,
  setUserRole,
  updateItem,
  type MenuItem,
} from './access';
import { file } from './testing';
import type { Kind, KindField } from '../records';
import { customerKind, projectKind } from '../records/testing';

describe('users', () => {
  it('adds a user with the next id, lower-case email and no role', () => {
    const next = addUser(file, ' Sam@Acme.Test ', ' Sam Single ');
    expect(next.users!.at(-1)).toEqual({ id: 3, email: 'sam@acme.test', fullName: 'Sam Single', roles: [] });
    expect(file.users).toHaveLength(2);
  });

  it('says what is wrong with a new user', () => {
    expect(newUserProblem(file, 'nope', 'X')).toMatch(/email address/);
    expect(newUserProblem(file, 'ADA@acme.test', 'Ada again')).toMatch(/already exists/);
    expect(newUserProblem(file, 'sam@acme.test', ' ')).toMatch(/full name/);
    expect(newUserProblem(file, 'sam@acme.test', 'Sam')).toBeNull();
  });

  it('grants a role last and revokes it', () => {
    let next = setUserRole(file, 2, 1002, true);
    next = setUserRole(next, 2, 1001, true);
    expect(next.users![1]!.roles).toEqual([1002, 1001]);
    expect(setUserRole(next, 2, 1002, false).users![1]!.roles).toEqual([1001]);
  });

  it('disables and enables, leaving no disabled member when enabled', () => {
    const off = setUserDisabled(file, 2, true);
    expect(off.users![1]!.disabled).toBe(true);
    expect('disabled' in setUserDisabled(off, 2, false).users![1]!).toBe(false);
  });
});

describe('roles', () => {
  const pm = file.roles![1]!;

  it('offers create and edit only for kinds that have them', () => {
    expect(kindPermissions({ route: 'invoice', plural: 'Invoices', canCreate: false, canEdit: false, canApprove: false }).map((p) => p.name)).toEqual(['invoice.view']);
    expect(kindPermissions({ route: 'project', plural: 'Projects', canCreate: true, canEdit: true, canApprove: false }).map((p) => p.action)).toEqual(['view', 'create', 'edit']);
    expect(kindPermissions({ route: 'vendorbill', plural: 'Vendor bills', canCreate: false, canEdit: false, canApprove: true }).map((p) => p.name)).toEqual(['vendorbill.view', 'vendorbill.approve']);
  });

  it('drops a rule with its permission', () => {
    const next = setPermission(pm, 'invoice.view', false);
    expect(next.permissions).toEqual([]);
    expect(next.rules).toBeUndefined();
    expect(setPermission(pm, 'project.view', true).permissions).toEqual(['invoice.view', 'project.view']);
  });

  it('sets a rule, and an empty one removes it', () => {
    expect(setRule(pm, 'invoice.view', 'total gt 5').rules).toEqual({ 'invoice.view': 'total gt 5' });
    expect(setRule(pm, 'invoice.view', '  ').rules).toBeUndefined();
  });

  it('adds a role with free ids and removes one with its grants', () => {
    const { file: next, role } = addRole(file, 'Field Lead!');
    expect(role).toMatchObject({ id: 1003, _id: 'role-field-lead', name: 'Field Lead!', permissions: [] });
    expect(next.roles).toHaveLength(3);
    const gone = removeRole(file, 1001);
    expect(gone.roles!.map((r) => r.id)).toEqual([1002]);
    expect(gone.users![0]!.roles).toEqual([]);
  });

  it('finds the problems at a place in the file', () => {
    const problems = [
      { field: 'roles[1].rules.invoice.view', message: 'Unknown field' },
      { field: 'roles[10]', message: 'not this one' },
      { field: 'users', message: 'lock-out' },
    ];
    expect(problemsAt(problems, 'roles[1]')).toEqual(['Unknown field']);
    expect(problemsAt(problems, 'roles[1].rules.invoice.view')).toEqual(['Unknown field']);
  });
});

describe('menus', () => {
  const items: MenuItem[] = [
    { text: 'Home', href: '/' },
    { text: 'Finance', items: [{ text: 'Invoices', href: '/invoice/list' }, { text: 'Bills', href: '/vendorbill/list' }] },
  ];

  it('renames, moves, adds and removes at any depth without changing the original', () => {
    expect(updateItem(items, [1, 0], { text: 'Sales invoices' })[1]!.items![0]!.text).toBe('Sales invoices');
    expect(moveItem(items, [1, 1], -1)[1]!.items!.map((i) => i.text)).toEqual(['Bills', 'Invoices']);
    expect(moveItem(items, [0], -1)).toEqual(items);
    expect(moveItem(items, [0], 1).map((i) => i.text)).toEqual(['Finance', 'Home']);
    expect(addItem(items, [1], { separator: true })[1]!.items).toHaveLength(3);
    expect(addItem(items, null, { text: 'Help', href: 'https://help.example.com' })).toHaveLength(3);
    expect(removeItem(items, [1, 0])[1]!.items!.map((i) => i.text)).toEqual(['Bills']);
    expect(items[1]!.items).toHaveLength(2);
  });

  it('adds an empty menu under an id made from its name, unique, and deletes one', () => {
    const first = addLayout(file, 'Field Lead');
    expect(first.id).toBe('field-lead');
    expect(first.file.layouts!.at(-1)).toEqual({ id: 'field-lead', name: 'Field Lead', items: [] });
    expect(addLayout(first.file, 'field lead!').id).toBe('field-lead-2');
    expect(addLayout(file, 'Ω').id).toBe('menu');
    expect(removeLayout(first.file, 'field-lead').layouts).toEqual(file.layouts);
    expect(file.layouts).toHaveLength(1);
  });

  it('accepts portal paths and https links only', () => {
    expect(hrefProblem('/project/list')).toBeNull();
    expect(hrefProblem('https://example.com')).toBeNull();
    expect(hrefProblem('')).toBeNull();
    expect(hrefProblem('//evil.example')).not.toBeNull();
    expect(hrefProblem('javascript:alert(1)')).not.toBeNull();
  });
});

describe('ruleExample', () => {
  const project: Kind = { ...projectKind, owner: 'projectmanager' };
  const status: KindField = { name: 'status', label: 'Status', column: 'status', type: 'status', choices: ['Open', 'Paid in full'] };
  const kind = (name: string, fields: KindField[], extra: Partial<Kind> = {}): Kind => ({ ...customerKind, name, route: name, fields, ...extra });
  const invoice = kind('invoice', [
    status,
    { name: 'entity', label: 'Client', column: 'parent_id', type: 'reference', ref: 'customer' },
    { name: 'job', label: 'Project', column: 'project_id', type: 'reference', ref: 'project' },
  ]);
  const approval = { status: 'approvalstatus', nextApprover: 'nextapprover', pending: 'Pending Approval', approved: 'Approved', rejected: 'Rejected', awaiting: '' };
  const bill = kind('vendorbill', [status], { approval });
  const kinds = [project, customerKind, invoice, bill];

  it('is true of the kind: its owner, an owner one reference away, a status, an approval’s next approver', () => {
    expect(ruleExample(kinds, 'project', 'view')).toBe('e.g. projectmanager eq $me');
    // The invoice's client has no owner; its project has.
    expect(ruleExample(kinds, 'invoice', 'view')).toBe('e.g. job.projectmanager eq $me');
    expect(ruleExample(kinds, 'vendorbill', 'approve')).toBe('e.g. nextapprover eq $me');
    // No owner anywhere near: a status, quoted when it has spaces.
    expect(ruleExample(kinds, 'vendorbill', 'view')).toBe('e.g. status eq Open');
    expect(ruleExample([kind('invoice', [{ ...status, choices: ['Paid in full'] }])], 'invoice', 'edit')).toBe('e.g. status eq "Paid in full"');
  });

  it('is the grammar when nothing is known of the kind', () => {
    expect(ruleExample(undefined, 'project', 'view')).toBe(GENERIC_RULE_EXAMPLE);
    expect(ruleExample(kinds, 'customer', 'view')).toBe(GENERIC_RULE_EXAMPLE);
    expect(ruleExample(kinds, 'nosuchkind', 'view')).toBe(GENERIC_RULE_EXAMPLE);
  });
});
