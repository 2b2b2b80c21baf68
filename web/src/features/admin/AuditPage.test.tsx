import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, json, projectKind, renderRoutes, role, kinds, type FakeApi } from '../records/testing';
import { useSessionStore } from '../../lib/session/store';
import { auditChanges, auditSummary, type AuditEvent } from './audit';
import AuditPage from './AuditPage';

const routes = [{ path: '/audit', Component: AuditPage }];

function signInWith(permissions: string[]) {
  const withPerms = { ...role, permissions };
  useSessionStore.getState().setSession({
    token: 'tok',
    refreshToken: 'ref',
    tokenTiming: { issuedAt: Date.now(), expiresAt: Date.now() + 3_600_000 },
    user: { id: 1, email: 'ada@example.com', fullName: 'Ada Admin', roles: [withPerms] },
    currentRole: withPerms,
  });
}

const event = (patch: Partial<AuditEvent>): AuditEvent => ({
  id: 1,
  at: '2026-11-22T10:00:00Z',
  event: 'login',
  userId: 1,
  roleId: 1001,
  ip: '192.0.2.7',
  detail: {},
  user: 'Ada Admin',
  role: 'Administrator',
  ...patch,
});

const edit = event({
  id: 3,
  event: 'record_edit',
  roleId: 1002,
  role: 'Project Manager',
  kind: 'project',
  recordId: 42,
  record: 'Wetland restoration',
  detail: {
    result: 'saved',
    changes: {
      projectedtotal: { before: 1250.5, after: 2000 },
      entitystatus: { before: 'Planning', after: 'Active' },
      customer: { before: { id: 7, refName: 'Acme' }, after: null },
    },
  },
});

const log: AuditEvent[] = [
  edit,
  event({ id: 2, event: 'role_switch', roleId: 1002, role: 'Project Manager', detail: { from: 1003, to: 1002 }, detailNames: { from: 'Accountant', to: 'Project Manager' } }),
  event({ id: 1, detail: { provider: 'password' } }),
];

let api: FakeApi;

beforeEach(() => {
  signInWith(['audit.view']);
  api = fakeApi();
  api.on('GET /audit', (url) => json({ data: url.searchParams.get('userId') === '2' ? [] : log }));
  api.on('GET /audit/users', () =>
    json({
      data: [
        { id: 1, fullName: 'Ada Admin', email: 'ada@example.com' },
        { id: 2, fullName: 'Pete Manager', email: 'pete@example.com' },
      ],
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
  useSessionStore.getState().clearSession();
});

describe('audit events in words', () => {
  it('lists an edit’s fields in the kind’s order, labelled and formatted, before → after', () => {
    expect(auditChanges(edit, projectKind)).toEqual([
      { field: 'entitystatus', label: 'Status', before: 'Planning', after: 'Active' },
      { field: 'customer', label: 'Client', before: 'Acme', after: '(empty)' },
      // An event does not say which currency its record's money is in: the bare amounts.
      { field: 'projectedtotal', label: 'Contract value', before: '1,250.50', after: '2,000.00' },
    ]);
    expect(auditChanges(event({}), projectKind)).toEqual([]);
    // Amounts as the ERP wrote them (text, zero, a value that is no number) still read as amounts, or as written.
    const amounts = event({ detail: { changes: { projectedtotal: { before: '1250.5', after: 0 } } } });
    expect(auditChanges(amounts, projectKind)).toEqual([{ field: 'projectedtotal', label: 'Contract value', before: '1,250.50', after: '0.00' }]);
    const odd = event({ detail: { changes: { projectedtotal: { before: 'n/a', after: '' } } } });
    expect(auditChanges(odd, projectKind)).toEqual([{ field: 'projectedtotal', label: 'Contract value', before: 'n/a', after: '(empty)' }]);
  });

  it('names roles, sign-in methods and results, never ids or JSON', () => {
    expect(auditSummary(log[1]!)).toBe('From Accountant to Project Manager');
    expect(auditSummary(event({ event: 'role_switch', detail: { from: 9, to: 1002 }, detailNames: { to: 'Project Manager' } }))).toBe('From a removed role to Project Manager');
    expect(auditSummary(log[2]!)).toBe('With email and password');
    // A sign-in recorded before sign-ins carried their role.
    expect(auditSummary(event({ role: '', detail: { provider: 'google.com', role: 1002 }, detailNames: { role: 'Project Manager' } }))).toBe('With Google as Project Manager');
    expect(auditSummary(event({ event: 'login_failed', detail: { email: 'x@y.test', reason: 'not_found' } }))).toBe('x@y.test: no portal user has this email');
    expect(auditSummary(edit)).toBe('Saved');
    expect(auditSummary(event({ event: 'feedback', detail: { id: 4, category: 'bug' } }))).toBe('“Something is broken”');
    expect(auditSummary(event({ event: 'report_save', detail: { id: 'r1', name: 'Q3', kind: 'project' } }), kinds)).toBe('Report “Q3” of projects');
  });
});

describe('audit page', () => {
  it('shows names and changes, and narrows to a user picked by name', async () => {
    const user = userEvent.setup();
    renderRoutes(routes, '/audit');
    const rows = await screen.findAllByTestId('audit-row');
    expect(rows).toHaveLength(3);
    const editRow = rows[0]!;
    expect(within(editRow).getByRole('link', { name: 'Wetland restoration' })).toHaveAttribute('href', '/project/view?id=42');
    expect(editRow).toHaveTextContent('Project Manager');
    expect(within(editRow).getByRole('list', { name: 'Changed fields' })).toHaveTextContent('Status: Planning → changed to Active');
    // An amount: two decimals, no currency symbol the record may not be in.
    expect(within(editRow).getByRole('list', { name: 'Changed fields' })).toHaveTextContent('Contract value: 1,250.50 → changed to 2,000.00');
    expect(editRow).not.toHaveTextContent('$');
    expect(editRow).not.toHaveTextContent('{');
    expect(rows[1]).toHaveTextContent('From Accountant to Project Manager');
    expect(rows[2]).toHaveTextContent('Administrator');

    // No "User id" box: a picker of people.
    expect(screen.queryByLabelText('User id')).not.toBeInTheDocument();
    await user.click(screen.getByLabelText('User', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Pete Manager' }));
    await waitFor(() => expect(api.calls.some((c) => c.path === '/audit' && c.params.get('userId') === '2')).toBe(true));
    expect(await screen.findByText('No events match these filters')).toBeInTheDocument();
  });
});
