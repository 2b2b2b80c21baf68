import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSessionStore } from '../../lib/session/store';
import RecordTabPage from './RecordTabPage';
import { fakeApi, json, projectKind, renderRoutes, signIn } from './testing';
import type { Kind, TabRows } from './types';

const creditLedger: Kind = {
  name: 'creditledger',
  route: 'creditledger',
  label: 'Credit ledger',
  plural: 'Credit ledger',
  erpType: 'customrecord_res_credit_ledger',
  defaultList: 'customsearch_res_creditledger_list',
  fields: [
    { name: 'name', label: 'Entry', column: 'title', type: 'text' },
    { name: 'custrecord_res_cl_type', label: 'Transaction', column: 'status', type: 'status', choices: ['Released', 'Reserved', 'Sold', 'Retired'] },
    { name: 'custrecord_res_cl_credits', label: 'Credits', column: 'amount', type: 'quantity', summable: true, per: 'custrecord_res_cl_credit_type' },
    { name: 'custrecord_res_cl_credit_type', label: 'Credit type', column: 'fields.custrecord_res_cl_credit_type', type: 'text' },
  ],
  tabs: [],
  canCreate: false,
  canEdit: false,
  canApprove: false,
};

const project: Kind = { ...projectKind, tabs: [{ name: 'credits', label: 'Credits', source: 'custom', kind: 'creditledger' }] };

const routes = [{ path: '/project', handle: { model: 'project' }, children: [{ path: 'view/:tab', Component: RecordTabPage }] }];

/** The credits tab as the server answers it. */
const credits: TabRows = {
  columns: [
    { name: 'name', label: 'Entry', type: 'text', sortable: true },
    { name: 'custrecord_res_cl_type', label: 'Transaction', type: 'status', sortable: true },
    { name: 'custrecord_res_cl_credits', label: 'Credits', type: 'quantity', sortable: true },
  ],
  rows: [
    { id: 1, name: 'Release 1', custrecord_res_cl_type: 'Released', custrecord_res_cl_credits: 34 },
    { id: 2, name: 'Sale 1', custrecord_res_cl_type: 'Sold', custrecord_res_cl_credits: 1.2 },
    { id: 3, name: 'Retire 1', custrecord_res_cl_type: 'Retired', custrecord_res_cl_credits: 463.2 },
  ],
  hasMore: false,
  totals: {
    field: 'custrecord_res_cl_type',
    label: 'Transaction',
    amount: 'custrecord_res_cl_credits',
    amountLabel: 'Credits',
    type: 'quantity',
    groups: [
      { status: 'Released', count: 1, totals: [{ unit: 'Wetland', total: 34 }] },
      { status: 'Sold', count: 1, totals: [{ unit: 'Wetland', total: 1.2 }] },
      { status: 'Retired', count: 1, totals: [{ unit: 'Wetland', total: 463.2 }] },
    ],
  },
};

let answer: TabRows = credits;

beforeEach(() => {
  signIn();
  answer = credits;
  const api = fakeApi();
  api.on('GET /kinds', () => json({ data: [project, creditLedger] }));
  api.on('GET /netsuite/portal-record', (url) => {
    if (url.searchParams.get('tab') !== 'credits') return json({ data: { id: 42, type: 'project', title: 'Bank', tabs: project.tabs, groups: [], related: [] } });
    return json({ data: answer });
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  useSessionStore.getState().clearSession();
});

describe('a credits tab', () => {
  it('totals credits by transaction type, with two decimals, and never adds them together', async () => {
    renderRoutes(routes, '/project/view/credits?id=42');
    const totals = await screen.findByRole('table', { name: 'Credits by transaction, over all credits' });
    const rows = within(totals).getAllByTestId('status-total').map((r) => Array.from(r.querySelectorAll('th, td')).map((c) => c.textContent));
    expect(rows).toEqual([
      ['Released', '1', '34.00 Wetland'],
      ['Sold', '1', '1.20 Wetland'],
      ['Retired', '1', '463.20 Wetland'],
    ]);
    const entries = screen.getByRole('table', { name: 'Credits' });
    expect(within(entries).getByText('463.20')).toBeInTheDocument();
    // No grand total adding released, sold and retired credits.
    expect(within(entries).queryByText('Total')).toBeNull();
    expect(screen.queryByText('498.40')).toBeNull();
  });

  it('totals each credit type of a status on its own, and says which credits have none', async () => {
    answer = {
      ...answer,
      totals: {
        ...answer.totals!,
        groups: [
          { status: 'Released', count: 3, totals: [{ unit: '', total: 0.5 }, { unit: 'Stream', total: 0.01 }, { unit: 'Wetland', total: 34.12 }] },
          { status: 'Sold', count: 2500, totals: [{ unit: 'Wetland', total: 1.2 }], estimated: true },
        ],
      },
    };
    renderRoutes(routes, '/project/view/credits?id=42');
    const totals = await screen.findByRole('table', { name: 'Credits by transaction, over all credits' });
    const [released, sold] = within(totals).getAllByTestId('status-total');
    // One item per credit type, each announced on its own; never a sum of them.
    expect(within(released!).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['0.50 (no credit type)', '0.01 Stream', '34.12 Wetland']);
    expect(totals).not.toHaveTextContent('34.63');
    // Too many to count exactly: the count and amount are marked as estimates.
    expect(Array.from(sold!.querySelectorAll('td')).map((c) => c.textContent)).toEqual(['≈ 2,500', '≈ 1.20 Wetland']);
  });
});
