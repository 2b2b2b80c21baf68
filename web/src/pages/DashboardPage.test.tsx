import { screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Kind } from '../records/types';
import { useSessionStore } from '../session/store';
import type { Role } from '../session/types';
import { resetAppStore, useAppStore } from '../shell/appState';
import { renderWithProviders } from '../test/render';
import DashboardPage, { firstName } from './DashboardPage';
import { canView, dashboardPlan } from './DashboardPage.queries';

const kinds: Kind[] = [
  {
    name: 'project',
    route: 'project',
    label: 'Project',
    plural: 'Projects',
    erpType: 'job',
    defaultList: 'customsearch_res_project_list',
    fields: [
      { name: 'companyname', label: 'Project name', column: 'title', type: 'text' },
      { name: 'entityid', label: 'Project ID', column: 'code', type: 'text' },
      { name: 'entitystatus', label: 'Status', column: 'status', type: 'status', choices: ['Planning', 'Active', 'Closed'] },
      { name: 'customer', label: 'Client', column: 'parent_id', type: 'reference', ref: 'customer' },
      { name: 'startdate', label: 'Start date', column: 'occurred_on', type: 'date' },
    ],
    tabs: [],
    canCreate: false,
    canEdit: true,
  },
  {
    name: 'invoice',
    route: 'invoice',
    label: 'Invoice',
    plural: 'Invoices',
    erpType: 'invoice',
    defaultList: 'customsearch_res_invoice_list',
    fields: [
      { name: 'memo', label: 'Description', column: 'title', type: 'text' },
      { name: 'status', label: 'Status', column: 'status', type: 'status', choices: ['Open', 'Paid in full', 'Overdue', 'Voided'] },
    ],
    tabs: [],
    canCreate: false,
    canEdit: false,
  },
  {
    name: 'creditavailability',
    route: 'creditavailability',
    label: 'Credit availability',
    plural: 'Credit availability',
    erpType: 'customrecord_res_credit_availability',
    defaultList: 'customsearch_res_creditavailability_list',
    fields: [
      { name: 'name', label: 'Credit pool', column: 'title', type: 'text' },
      { name: 'custrecord_res_ca_available', label: 'Available credits', column: 'amount', type: 'quantity' },
    ],
    tabs: [],
    canCreate: false,
    canEdit: false,
  },
];

const everything: Role = {
  _id: 'a',
  id: 1001,
  name: 'Administrator',
  type: 'admin',
  layout: 'admin',
  permissions: ['project.view', 'invoice.view', 'creditavailability.view'],
};

const counts: Record<string, number> = {
  'project|entitystatus eq Planning': 4,
  'project|entitystatus eq Active': 12,
  'project|entitystatus eq Closed': 9,
  'invoice|status eq Open': 7,
  'invoice|status eq Overdue': 3,
};

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

const fetchMock = vi.fn<typeof fetch>();
let listFails = false;

function requests(): URL[] {
  return fetchMock.mock.calls.map(([url]) => new URL(String(url), 'http://portico.test'));
}

beforeEach(() => {
  listFails = false;
  fetchMock.mockImplementation(async (input) => {
    const url = new URL(String(input), 'http://portico.test');
    if (url.pathname === '/api/v1/kinds') return json({ data: kinds });
    if (url.pathname !== '/api/v1/netsuite/portal-list') return json({ title: 'Not Found', status: 404 }, 404);
    if (listFails) return json({ title: 'Internal Server Error', status: 500, detail: 'internal error (request 7)' }, 500);
    const q = url.searchParams;
    const type = q.get('type')!;
    if (type === 'creditavailability') {
      return json({
        data: {
          list: { id: 'x', name: 'All' },
          columns: [{ name: 'custrecord_res_ca_available', label: 'Available credits', type: 'quantity', sortable: true }],
          rows: [
            { id: 1, custrecord_res_ca_available: 120.5 },
            { id: 2, custrecord_res_ca_available: 30 },
          ],
          hasMore: false,
          nextCursor: null,
          total: 2,
        },
      });
    }
    if (q.get('pageSize') === '8') {
      return json({
        data: {
          list: { id: q.get('list') ?? 'customsearch_res_project_list', name: q.get('list') ? 'My projects' : 'All projects' },
          columns: [
            { name: 'companyname', label: 'Project name', type: 'text', sortable: true },
            { name: 'entitystatus', label: 'Status', type: 'status', sortable: true },
            { name: 'customer', label: 'Client', type: 'reference', sortable: true },
            { name: 'startdate', label: 'Start date', type: 'date', sortable: true },
          ],
          rows: [{ id: 42, companyname: 'Willow Creek restoration', entitystatus: 'Active', customer: { id: 3, refName: 'Acme &amp; Co' }, startdate: '2024-03-04' }],
          hasMore: false,
          nextCursor: null,
        },
      });
    }
    return json({ data: { list: { id: 'x', name: 'All' }, columns: [], rows: [], hasMore: true, nextCursor: 'c', total: counts[`${type}|${q.get('filter')}`] ?? 0 } });
  });
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
  useSessionStore.getState().clearSession();
  resetAppStore();
});

function renderAs(role: Role) {
  useSessionStore.getState().setSession({
    token: 't',
    refreshToken: 'r',
    user: { id: 1, email: 'ada@x.test', fullName: 'Ada Admin', roles: [role] },
    currentRole: role,
  });
  const router = createMemoryRouter([{ path: '/', Component: DashboardPage }], { initialEntries: ['/'] });
  renderWithProviders(<RouterProvider router={router} />);
}

describe('DashboardPage', () => {
  it('greets the user and shows the figures the role may see', async () => {
    renderAs(everything);
    expect(screen.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
    expect(screen.getByText('Welcome, Ada.')).toBeInTheDocument();
    expect(screen.getByText('You are working as Administrator.')).toBeInTheDocument();

    const active = await screen.findByTestId('kpi-active-projects');
    await waitFor(() => expect(within(active).getByText('12')).toBeInTheDocument());
    expect(active).toHaveTextContent('of 25 projects');
    expect(within(active).getByRole('link', { name: 'View active projects' })).toHaveAttribute(
      'href',
      '/project/list?filter=entitystatus+eq+Active',
    );

    const invoices = screen.getByTestId('kpi-invoices');
    await waitFor(() => expect(within(invoices).getByText('10')).toBeInTheDocument());
    const badges = within(invoices).getByRole('list', { name: 'Outstanding invoices by status' });
    expect(within(badges).getByRole('link', { name: '7 open' })).toHaveAttribute('href', '/invoice/list?filter=status+eq+Open');
    expect(within(badges).getByRole('link', { name: '3 overdue' })).toHaveAttribute('href', '/invoice/list?filter=status+eq+Overdue');

    const credits = screen.getByTestId('kpi-credits');
    await waitFor(() => expect(within(credits).getByText('150.50')).toBeInTheDocument());
    expect(credits).toHaveTextContent('across 2 credit pools');

    const byStatus = screen.getByRole('region', { name: 'Projects by status' });
    await waitFor(() => expect(within(byStatus).getByRole('progressbar', { name: 'Active: 12 of 25' })).toBeInTheDocument());
    expect(within(byStatus).getByRole('link', { name: 'Closed' })).toHaveAttribute('href', '/project/list?filter=entitystatus+eq+Closed');

    const table = await screen.findByRole('region', { name: 'Your active projects' });
    expect(await within(table).findByRole('link', { name: 'Willow Creek restoration' })).toHaveAttribute('href', '/project/view?id=42');
    const items = within(within(table).getByRole('list', { name: 'Your active projects' })).getAllByRole('listitem');
    expect(items).toHaveLength(1);
    // Client and start date under the name; every row is active, so no status.
    expect(items[0]).toHaveTextContent('Acme & Co · started Mar 4, 2024');
    expect(items[0]).not.toHaveTextContent('Active');
    expect(table).toHaveTextContent('from your list “All projects”');
  });

  it('counts through the built-in lists, and shows active projects through the user’s own default list', async () => {
    useAppStore.setState({ defaultLists: { project: 'my-list' } });
    renderAs(everything);
    const table = await screen.findByRole('region', { name: 'Your active projects' });
    await within(table).findByText('from your list “My projects”', { exact: false });
    const lists = requests().filter((u) => u.pathname.endsWith('portal-list'));
    const tableCall = lists.find((u) => u.searchParams.get('pageSize') === '8')!;
    expect(tableCall.searchParams.get('list')).toBe('my-list');
    expect(tableCall.searchParams.get('sort')).toBe('startdate');
    expect(tableCall.searchParams.get('dir')).toBe('desc');
    for (const call of lists.filter((u) => u.searchParams.get('count') === 'true')) {
      expect(call.searchParams.get('list'), call.search).toMatch(/^customsearch_res_/);
    }
    expect(within(table).getByRole('link', { name: 'View all' })).toHaveAttribute('href', '/project/list?list=my-list&filter=entitystatus+eq+Active');
  });

  it('asks only for what the role may see', async () => {
    renderAs({ ...everything, name: 'Field Lead', permissions: ['project.view'] });
    await screen.findByTestId('kpi-active-projects');
    expect(screen.queryByTestId('kpi-invoices')).not.toBeInTheDocument();
    expect(screen.queryByTestId('kpi-credits')).not.toBeInTheDocument();
    await waitFor(() => expect(within(screen.getByTestId('kpi-active-projects')).getByText('12')).toBeInTheDocument());
    const types = new Set(requests().map((u) => u.searchParams.get('type')).filter(Boolean));
    expect([...types]).toEqual(['project']);
  });

  it('says so plainly when the role may see none of it', async () => {
    renderAs({ ...everything, name: 'Visitor', permissions: [] });
    expect(await screen.findByTestId('dashboard-empty')).toHaveTextContent('The Visitor role may not see projects, invoices or credits.');
    expect(requests().filter((u) => u.pathname.endsWith('portal-list'))).toHaveLength(0);
  });

  it('shows a failure where it happened, with a way to try again', async () => {
    listFails = true;
    renderAs(everything);
    const active = await screen.findByTestId('kpi-active-projects');
    expect(await within(active).findByText('internal error (request 7)')).toBeInTheDocument();
    listFails = false;
    within(active).getByRole('button', { name: 'Try again' }).click();
    await waitFor(() => expect(within(active).getByText('12')).toBeInTheDocument());
  });

  it('shows an error when the kind registry cannot be read', async () => {
    fetchMock.mockImplementation(async () => json({ title: 'Service Unavailable', status: 503 }, 503));
    renderAs(everything);
    expect(await screen.findByTestId('load-error')).toHaveTextContent('Service Unavailable');
  });
});

describe('dashboard helpers', () => {
  it('first names and permissions', () => {
    expect(firstName('Ada Admin')).toBe('Ada');
    expect(firstName(undefined)).toBe('');
    expect(canView(everything, { route: 'invoice' })).toBe(true);
    expect(canView({ permissions: [] }, { route: 'invoice' })).toBe(false);
    expect(canView(null, { route: 'invoice' })).toBe(false);
  });

  it('plans only what the registry supports', () => {
    const plan = dashboardPlan(kinds, everything, {});
    expect(plan.projects?.statuses.map((s) => s.filter)).toEqual([
      'entitystatus eq Planning',
      'entitystatus eq Active',
      'entitystatus eq Closed',
    ]);
    expect(plan.invoices?.outstanding.map((s) => s.status)).toEqual(['Open', 'Overdue']);
    expect(plan.credits?.field.name).toBe('custrecord_res_ca_available');
    expect(dashboardPlan([], everything, {})).toEqual({});
  });
});
