import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSessionStore } from '../../lib/session/store';
import RecordTabPage from './RecordTabPage';
import RecordViewPage from './RecordViewPage';
import { fakeApi, json, renderRoutes, signIn, type FakeApi } from './testing';
import type { EquipmentSection, RecordDetail, TabRows } from './types';

const routes = [
  {
    path: '/project',
    handle: { model: 'project' },
    children: [{ path: 'view', handle: { isView: true }, Component: RecordViewPage, children: [{ path: ':tab', Component: RecordTabPage }] }],
  },
];

const record: RecordDetail = {
  id: 42,
  type: 'project',
  title: 'Wetland restoration',
  code: 'PRJ-000042',
  status: 'Active',
  erpUrl: null,
  groups: [],
  tabs: [{ name: 'costdetails', label: 'Cost details', source: 'custom', kind: 'vendorbill' }],
  related: [],
};

const bills: TabRows = {
  columns: [
    { name: 'tranid', label: 'Bill number', type: 'text' },
    { name: 'amount', label: 'Amount', type: 'money' },
  ],
  rows: [{ id: 301, tranid: 'BILL-301', amount: 1200 }],
  hasMore: false,
};

const charges: EquipmentSection = {
  columns: [
    { name: 'date', label: 'Date', type: 'date' },
    { name: 'equipment', label: 'Equipment', type: 'text' },
    { name: 'description', label: 'Description', type: 'text' },
    { name: 'hours', label: 'Hours', type: 'quantity' },
    { name: 'rate', label: 'Rate', type: 'money' },
    { name: 'amount', label: 'Amount', type: 'money' },
  ],
  rows: [{ id: 9, date: '2026-03-07', equipment: 'Excavator 320', description: 'Trenching', hours: 6.5, rate: 120, amount: 780 }],
};

let api: FakeApi;

/** Answers the cost-details tab with `tab`. */
function costDetails(tab: TabRows) {
  api.on('GET /netsuite/portal-record', (url) => json({ data: url.searchParams.get('tab') === 'costdetails' ? tab : record }));
}

beforeEach(() => {
  signIn();
  api = fakeApi();
});

afterEach(() => {
  vi.unstubAllGlobals();
  useSessionStore.getState().clearSession();
});

describe('EquipmentCharges on the cost-details tab', () => {
  it('lists the charges under the vendor bills', async () => {
    costDetails({ ...bills, equipment: charges });
    renderRoutes(routes, '/project/view/costdetails?id=42');
    const table = await screen.findByRole('table', { name: 'Equipment charges' });
    const heading = screen.getByRole('heading', { name: 'Equipment charges' });
    const billsTable = screen.getByRole('table', { name: 'Cost details' });
    expect(within(billsTable).getByText('BILL-301')).toBeInTheDocument();
    expect(billsTable.compareDocumentPosition(heading) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Date', 'Equipment', 'Description', 'Hours', 'Rate', 'Amount']);
    const cells = within(within(table).getAllByRole('row')[1]!).getAllByRole('cell').map((td) => td.textContent);
    expect(cells).toEqual(['Mar 7, 2026', 'Excavator 320', 'Trenching', '6.50', '$120.00', '$780.00']);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows the service’s failure in an alert and keeps the vendor bills', async () => {
    costDetails({ ...bills, equipment: { ...charges, rows: [], error: 'The equipment-charge service did not answer in time.' } });
    renderRoutes(routes, '/project/view/costdetails?id=42');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The equipment-charge service did not answer in time.');
    expect(screen.getByRole('heading', { name: 'Equipment charges' })).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Equipment charges' })).toBeNull();
    expect(within(screen.getByRole('table', { name: 'Cost details' })).getByText('BILL-301')).toBeInTheDocument();
  });

  it('shows the charges of a project without vendor bills, and says when there are none', async () => {
    costDetails({ ...bills, rows: [], equipment: charges });
    const { unmount } = renderRoutes(routes, '/project/view/costdetails?id=42');
    expect(await screen.findByRole('table', { name: 'Equipment charges' })).toBeInTheDocument();
    expect(screen.getByText('No cost details yet.')).toBeInTheDocument();
    unmount();

    costDetails({ ...bills, equipment: { ...charges, rows: [] } });
    renderRoutes(routes, '/project/view/costdetails?id=42');
    expect(await screen.findByText('No equipment charges yet.')).toBeInTheDocument();
  });

  it('renders nothing when the service is not configured', async () => {
    costDetails(bills);
    renderRoutes(routes, '/project/view/costdetails?id=42');
    expect(await screen.findByRole('table', { name: 'Cost details' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Equipment charges' })).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
