import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Kind } from '../records';
import { useSessionStore } from '../../lib/session/store';
import type { Role } from '../../lib/session/types';
import { renderWithProviders } from '../../test/render';
import DashboardPage, { countOf, firstName } from './DashboardPage';
import { cardPath, type Dashboard, type DashboardCard } from './DashboardPage.queries';
import { canView } from '../../components/RequirePermission';

const kind = (name: string, label: string, plural: string, fields: Kind['fields'], owner?: string): Kind => ({
  name,
  route: name,
  label,
  plural,
  erpType: name,
  defaultList: `customsearch_res_${name}_list`,
  fields,
  tabs: [],
  canCreate: false,
  canEdit: false,
  canApprove: false,
  ...(owner ? { owner } : {}),
});

const kinds: Kind[] = [
  kind(
    'project',
    'Project',
    'Projects',
    [
      { name: 'companyname', label: 'Project name', column: 'title', type: 'text' },
      { name: 'entitystatus', label: 'Status', column: 'status', type: 'status', choices: ['Planning', 'Active', 'Closed'] },
      { name: 'projectmanager', label: 'Project manager', column: 'fields.projectmanager', type: 'reference', ref: 'employee' },
      { name: 'projectedtotal', label: 'Contract value', column: 'amount', type: 'money', currency: 'USD' },
    ],
    'projectmanager',
  ),
  kind('billing', 'Billing', 'Billing', [{ name: 'name', label: 'Milestone', column: 'title', type: 'text' }]),
  kind('invoice', 'Invoice', 'Invoices', [
    { name: 'memo', label: 'Description', column: 'title', type: 'text' },
    { name: 'duedate', label: 'Due date', column: 'fields.duedate', type: 'date' },
    { name: 'amountremaining', label: 'Amount remaining', column: 'fields.amountremaining', type: 'money', currency: 'USD' },
  ]),
  kind('vendorbill', 'Vendor bill', 'Vendor bills', [
    { name: 'memo', label: 'Description', column: 'title', type: 'text' },
    { name: 'total', label: 'Amount', column: 'amount', type: 'money', currency: 'USD' },
  ]),
  kind('creditavailability', 'Credit availability', 'Credit availability', [
    { name: 'name', label: 'Credit pool', column: 'title', type: 'text' },
    { name: 'custrecord_res_ca_credit_type', label: 'Credit type', column: 'status', type: 'status', choices: ['Wetland', 'Stream', 'Species', 'Nutrient'] },
    { name: 'custrecord_res_ca_available', label: 'Available credits', column: 'amount', type: 'quantity', per: 'custrecord_res_ca_credit_type' },
  ]),
];

const card = (patch: Partial<DashboardCard> & Pick<DashboardCard, 'label' | 'kind' | 'filter' | 'count'>): DashboardCard => patch;
/** An invoice card: its amount remaining in the base currency, and in others (`more`). */
const money = (label: string, filter: string, count: number, total: number, ...more: { unit: string; total: number }[]): DashboardCard =>
  card({
    label,
    kind: 'invoice',
    filter,
    count,
    amount: 'amountremaining',
    totals: [{ total }, ...more],
    type: 'money',
    columns: ['memo', 'duedate', 'amountremaining'],
    sort: { field: 'duedate', dir: 'asc' },
  });

const open = 'amountremaining gt 0';
const pete: Dashboard = {
  asOf: '2026-11-25',
  employee: { id: 2, refName: 'Pete Manager' },
  mine: [
    {
      kind: 'project',
      all: card({
        label: 'My projects',
        kind: 'project',
        filter: 'projectmanager eq 2',
        count: 3,
        amount: 'projectedtotal',
        totals: [{ total: 250000 }, { unit: 'CAD', total: 50000 }],
        type: 'money',
      }),
      byStatus: [
        card({ label: 'Active', kind: 'project', filter: 'projectmanager eq 2 and entitystatus eq Active', count: 2 }),
        card({ label: 'Closed', kind: 'project', filter: 'projectmanager eq 2 and entitystatus eq Closed', count: 1 }),
      ],
    },
  ],
  projects: {
    all: card({ label: 'My active projects', kind: 'project', filter: 'projectmanager eq 2 and entitystatus eq Active', count: 2 }),
    rows: [
      {
        id: 42,
        name: 'Willow Creek restoration',
        client: { id: 3, refName: 'Acme & Co' },
        open: [
          card({ label: 'Milestones to bill', one: 'Milestone to bill', kind: 'billing', filter: 'custrecord_res_bil_project eq 42 and custrecord_res_bil_status eq Scheduled', count: 4 }),
          card({ label: 'Open invoices', one: 'Open invoice', kind: 'invoice', filter: 'job eq 42 and status eq Open', count: 1 }),
        ],
      },
      { id: 43, name: 'Heron Marsh', open: [] },
    ],
  },
  aging: [],
};

const accountant: Dashboard = {
  asOf: '2026-11-25',
  employee: null,
  mine: [],
  aging: [
    {
      kind: 'invoice',
      label: 'Receivables',
      outstanding: money('Outstanding', open, 5, 235878.48),
      overdue: money('Overdue', `${open} and duedate lt 2026-11-25`, 4, 217525.56),
      buckets: [
        money('Current', `${open} and duedate ge 2026-11-25`, 1, 18352.92),
        money('1–30 days', `${open} and duedate le 2026-11-24 and duedate ge 2026-10-26`, 1, 1821.05),
        money('31–60 days', `${open} and duedate le 2026-10-25 and duedate ge 2026-09-26`, 0, 0),
        money('61–90 days', `${open} and duedate le 2026-09-25 and duedate ge 2026-08-27`, 1, 2501.12),
        money('Over 90 days', `${open} and duedate le 2026-08-26`, 2, 213203.39),
      ],
      undated: 0,
    },
  ],
  credits: card({
    label: 'Credits available',
    kind: 'creditavailability',
    filter: '',
    count: 1000,
    amount: 'custrecord_res_ca_available',
    totals: [{ unit: 'Wetland', total: 115888.5 }],
    type: 'quantity',
  }),
};

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

const fetchMock = vi.fn<typeof fetch>();
let answer: Dashboard | 'fail' = pete;

function requests(): URL[] {
  return fetchMock.mock.calls.map(([url]) => new URL(String(url), 'http://portico.test'));
}

beforeEach(() => {
  answer = pete;
  fetchMock.mockImplementation(async (input) => {
    const url = new URL(String(input), 'http://portico.test');
    // The server answers the kinds the role may see.
    const role = useSessionStore.getState().currentRole;
    if (url.pathname === '/api/v1/kinds') return json({ data: kinds.filter((k) => canView(role, k)) });
    // The user's favourites and recent records (their cards have tests of their own).
    if (/^\/api\/v1\/me\/(recent|favourites)$/.test(url.pathname)) return json({ data: [] });
    if (url.pathname !== '/api/v1/dashboard') return json({ title: 'Not Found', status: 404 }, 404);
    if (answer === 'fail') return json({ title: 'Internal Server Error', status: 500, detail: 'internal error (request 7)' }, 500);
    return json({ data: answer });
  });
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
  useSessionStore.getState().clearSession();
});

const pm: Role = { _id: 'pm', id: 1002, name: 'Project Manager', type: 'staff', layout: 'pm', permissions: ['project.view', 'billing.view', 'invoice.view'] };

function renderAs(role: Role, fullName = 'Pete Manager') {
  useSessionStore.getState().setSession({
    token: 't',
    refreshToken: 'r',
    user: { id: 2, email: 'pete@x.test', fullName, roles: [role] },
    currentRole: role,
  });
  const router = createMemoryRouter([{ path: '/', Component: DashboardPage }], { initialEntries: ['/'] });
  renderWithProviders(<RouterProvider router={router} />);
}

/** The query string a list link carries, decoded. */
const searchOf = (href: string | null) => Object.fromEntries(new URL(href ?? '', 'http://portico.test').searchParams);

describe('DashboardPage', () => {
  it('shows a project manager their own projects, by status, each opening the list with the same filter', async () => {
    renderAs(pm);
    expect(screen.getByText('Welcome, Pete.')).toBeInTheDocument();
    expect(screen.getByText('You are working as Project Manager.')).toBeInTheDocument();

    const mine = await screen.findByTestId('kpi-mine-project');
    expect(within(mine).getByTestId('kpi-value')).toHaveTextContent('3');
    // Their contract value per currency, each read out on its own.
    const value = within(mine).getByRole('list', { name: 'Contract value by currency' });
    expect(within(value).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['$250,000.00', 'CA$50,000.00']);
    expect(within(mine).getByTestId('kpi-amount')).toHaveTextContent(/^Contract value: /);
    const all = within(mine).getByRole('link', { name: 'View my projects' });
    expect(all.getAttribute('href')).toMatch(/^\/project\/list\?/);
    expect(searchOf(all.getAttribute('href'))).toEqual({ list: 'customsearch_res_project_list', filter: 'projectmanager eq 2' });
    const active = within(within(mine).getByRole('list', { name: 'My projects by status' })).getByRole('link', { name: '2 active' });
    expect(searchOf(active.getAttribute('href')).filter).toBe('projectmanager eq 2 and entitystatus eq Active');

    const table = screen.getByRole('region', { name: 'My active projects' });
    const rows = within(table).getAllByTestId('my-project');
    expect(rows.map((r) => within(r).getAllByRole('link')[0]!.textContent)).toEqual(['Willow Creek restoration', 'Heron Marsh']);
    expect(within(rows[0]!).getByRole('link', { name: 'Willow Creek restoration' })).toHaveAttribute('href', '/project/view?id=42');
    expect(rows[0]).toHaveTextContent('Acme & Co');
    const items = within(rows[0]!).getByRole('link', { name: '4 milestones to bill' });
    expect(items.getAttribute('href')).toMatch(/^\/billing\/list\?/);
    expect(searchOf(items.getAttribute('href')).filter).toBe('custrecord_res_bil_project eq 42 and custrecord_res_bil_status eq Scheduled');
    // One of them is named in the singular.
    expect(within(rows[0]!).getByRole('link', { name: '1 open invoice' })).toBeVisible();
    expect(rows[1]).toHaveTextContent('Nothing open');
    expect(searchOf(within(table).getByRole('link', { name: 'View all 2' }).getAttribute('href')).filter).toBe('projectmanager eq 2 and entitystatus eq Active');

    // One request for the figures: no count per status, no capped fetch of rows.
    expect(requests().map((u) => u.pathname).sort()).toEqual(['/api/v1/dashboard', '/api/v1/kinds', '/api/v1/me/favourites', '/api/v1/me/recent']);
    expect(screen.queryByTestId('no-employee')).not.toBeInTheDocument();
  });

  it('shows an accountant what is owed, its aging and the exact credits, each opening its list', async () => {
    answer = accountant;
    renderAs({ ...pm, name: 'Accountant', permissions: ['invoice.view', 'creditavailability.view'] }, 'Ann Counter');
    const outstanding = await screen.findByTestId('kpi-invoice-outstanding');
    expect(within(outstanding).getByTestId('kpi-value')).toHaveTextContent('$235,878.48');
    expect(outstanding).toHaveTextContent('5 invoices with an amount remaining');
    const overdue = screen.getByTestId('kpi-invoice-overdue');
    expect(within(overdue).getByTestId('kpi-value')).toHaveTextContent('4');
    expect(overdue).toHaveTextContent('$217,525.56 past due');
    expect(searchOf(within(overdue).getByRole('link', { name: 'View overdue invoices' }).getAttribute('href'))).toEqual({
      list: 'customsearch_res_invoice_list',
      filter: 'amountremaining gt 0 and duedate lt 2026-11-25',
      sort: 'duedate',
      dir: 'asc',
      cols: 'memo,duedate,amountremaining',
    });

    const aging = screen.getByRole('region', { name: 'Receivables aging' });
    const buckets = within(aging).getAllByTestId('aging-bucket');
    expect(buckets.map((b) => [within(b).getByRole('link').textContent, within(b).getByTestId('aging-amount').textContent])).toEqual([
      ['Current', '$18,352.92'],
      ['1–30 days', '$1,821.05'],
      ['31–60 days', '$0.00'],
      ['61–90 days', '$2,501.12'],
      ['Over 90 days', '$213,203.39'],
    ]);
    expect(buckets[1]).toHaveTextContent('1 invoice');
    expect(searchOf(within(buckets[1]!).getByRole('link').getAttribute('href')).filter).toBe('amountremaining gt 0 and duedate le 2026-11-24 and duedate ge 2026-10-26');

    // The server's exact sum: no "≥", no "largest".
    const credits = screen.getByTestId('kpi-credits');
    expect(within(credits).getByTestId('kpi-value')).toHaveTextContent(/^115,888\.50 Wetland$/);
    expect(credits).toHaveTextContent('across 1,000 credit pools');
    expect(credits).not.toHaveTextContent(/largest|≥/);

    expect(screen.queryByTestId('kpi-mine-project')).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'My active projects' })).not.toBeInTheDocument();
    // The accountant sees no kind with an owner: nothing to say about an employee record.
    expect(screen.queryByTestId('no-employee')).not.toBeInTheDocument();
  });

  it('never adds currencies or credit types: each card, bucket and bar shows a total per unit', async () => {
    const [current, late] = accountant.aging[0]!.buckets;
    answer = {
      ...accountant,
      aging: [
        {
          ...accountant.aging[0]!,
          outstanding: money('Outstanding', open, 7, 20000, { unit: 'CAD', total: 3000.5 }),
          overdue: money('Overdue', `${open} and duedate lt 2026-11-25`, 2, 1821.05, { unit: 'CAD', total: 3000.5 }),
          buckets: [
            money('Current', current!.filter, 5, 18178.95),
            money('1–30 days', late!.filter, 2, 1821.05, { unit: 'CAD', total: 3000.5 }),
          ],
        },
      ],
      credits: {
        ...accountant.credits!,
        totals: [
          { unit: 'Stream', total: 0.01 },
          { unit: 'Wetland', total: 34.12 },
        ],
      },
    };
    renderAs({ ...pm, name: 'Accountant', permissions: ['invoice.view', 'creditavailability.view'] }, 'Ann Counter');

    // Outstanding in two currencies: a list of both, named for screen readers.
    const outstanding = await screen.findByTestId('kpi-invoice-outstanding');
    const byCurrency = within(outstanding).getByRole('list', { name: 'Receivables outstanding by currency' });
    expect(within(byCurrency).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['$20,000.00', 'CA$3,000.50']);
    expect(screen.getByTestId('kpi-invoice-overdue')).toHaveTextContent('$1,821.05 and CA$3,000.50 past due');

    // A bucket with two currencies lists both; its bar is its share of the invoices, since
    // amounts of different currencies are not comparable.
    const buckets = within(screen.getByRole('region', { name: 'Receivables aging' })).getAllByTestId('aging-bucket');
    expect(within(buckets[1]!).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['$1,821.05', 'CA$3,000.50']);
    expect(within(buckets[1]!).getByRole('progressbar')).toHaveAccessibleName('1–30 days: 2 invoices of 7 invoices');

    // Credits per credit type, each with its type's name; never one sum.
    const credits = screen.getByTestId('kpi-credits');
    const byType = within(credits).getByRole('list', { name: 'Credits available by credit type' });
    expect(within(byType).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['0.01 Stream', '34.12 Wetland']);
    expect(credits).not.toHaveTextContent('34.13');
  });

  it('puts what awaits the user’s approval first: one bill in the singular, its amount, opening the list of them', async () => {
    const awaiting = 'approvalstatus eq "Pending Approval" and nextapprover eq $me';
    answer = {
      ...pete,
      approvals: [
        card({
          label: 'Vendor bills awaiting my approval',
          one: 'Vendor bill awaiting my approval',
          kind: 'vendorbill',
          filter: awaiting,
          count: 1,
          amount: 'total',
          totals: [{ unit: 'CAD', total: 1250.5 }],
          type: 'money',
        }),
      ],
    };
    renderAs({ ...pm, permissions: [...pm.permissions, 'vendorbill.view'] });
    const section = await screen.findByRole('region', { name: 'Awaiting my approval' });
    // Before everything else the dashboard shows.
    expect(section.compareDocumentPosition(screen.getByTestId('kpi-mine-project')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    const bills = within(section).getByRole('region', { name: 'Vendor bill awaiting my approval' });
    expect(within(bills).getByTestId('kpi-value')).toHaveTextContent(/^1$/);
    expect(within(bills).getByTestId('kpi-amount')).toHaveTextContent(/^Amount: CA\$1,250\.50$/);
    const link = within(bills).getByRole('link', { name: 'View vendor bills awaiting my approval' });
    expect(link.getAttribute('href')).toMatch(/^\/vendorbill\/list\?/);
    expect(searchOf(link.getAttribute('href'))).toEqual({ list: 'customsearch_res_vendorbill_list', filter: awaiting });
  });

  it('names several in the plural, says when none wait, and shows nothing of approvals to a role that approves nothing', async () => {
    const bills = (count: number) =>
      card({ label: 'Vendor bills awaiting my approval', one: 'Vendor bill awaiting my approval', kind: 'vendorbill', filter: 'x', count, amount: 'total', totals: [{ total: count * 100 }], type: 'money' });
    answer = { ...accountant, approvals: [bills(3)] };
    const role = { ...pm, name: 'Accountant', permissions: ['invoice.view', 'creditavailability.view', 'vendorbill.view'] };
    renderAs(role, 'Ann Counter');
    const three = await screen.findByTestId('kpi-approvals-vendorbill');
    expect(three).toHaveAccessibleName('Vendor bills awaiting my approval');
    expect(within(three).getByTestId('kpi-value')).toHaveTextContent(/^3$/);
    expect(within(three).getByTestId('kpi-amount')).toHaveTextContent('$300.00');
    cleanup();

    // None waiting: no "$0.00" beside the 0.
    answer = { ...accountant, approvals: [bills(0)] };
    renderAs(role, 'Ann Counter');
    const none = await screen.findByTestId('kpi-approvals-vendorbill');
    expect(none).toHaveTextContent('Nothing waits for your decision');
    expect(within(none).queryByTestId('kpi-amount')).toBeNull();
    cleanup();

    answer = { ...accountant, approvals: [] };
    renderAs(role, 'Ann Counter');
    await screen.findByTestId('kpi-invoice-outstanding');
    expect(screen.queryByRole('region', { name: 'Awaiting my approval' })).toBeNull();
  });

  it('says why there is nothing of the user’s own when their sign-in is not an employee', async () => {
    answer = { ...pete, employee: null, mine: [], projects: undefined } as Dashboard;
    renderAs(pm);
    expect(await screen.findByTestId('no-employee')).toHaveTextContent('not linked to an employee record');
    // The role sees projects: the dashboard does not claim it sees none.
    expect(screen.queryByTestId('dashboard-empty')).not.toBeInTheDocument();
  });

  it('says so plainly when the role may see none of it', async () => {
    answer = { asOf: '2026-11-25', employee: null, mine: [], aging: [] };
    renderAs({ ...pm, name: 'Visitor', permissions: [] });
    expect(await screen.findByTestId('dashboard-empty')).toHaveTextContent('The Visitor role sees no projects, balances or credits.');
  });

  it('says, for as long as it lasts, that the role has no menu, and does not point to one', async () => {
    answer = { asOf: '2026-11-25', employee: null, mine: [], aging: [] };
    renderAs({ ...pm, name: 'Visitor', permissions: [] });
    useSessionStore.getState().setMenu([], 'Missing layout configuration.');
    expect(await screen.findByTestId('no-menu')).toHaveTextContent('Missing layout configuration. Until your portal administrator gives the Visitor role a menu');
    expect(await screen.findByTestId('dashboard-empty')).toHaveTextContent('Search (the box at the top) finds the records it may see.');
    expect(screen.getByTestId('dashboard-empty')).not.toHaveTextContent('Use the menu');
  });

  it('shows a failure with a way to try again', async () => {
    answer = 'fail';
    renderAs(pm);
    expect(await screen.findByText('internal error (request 7)')).toBeInTheDocument();
    answer = pete;
    await userEvent.setup().click(screen.getByRole('button', { name: /try again/i }));
    await waitFor(() => expect(screen.getByTestId('kpi-mine-project')).toBeInTheDocument());
  });
});

describe('dashboard helpers', () => {
  it('first names, counts in words and permissions', () => {
    expect(firstName('Ada Admin')).toBe('Ada');
    expect(firstName(undefined)).toBe('');
    expect(countOf(1, kinds[2])).toBe('1 invoice');
    expect(countOf(1234, kinds[2])).toBe('1,234 invoices');
    expect(canView(pm, { route: 'project' })).toBe(true);
    expect(canView(null, { route: 'invoice' })).toBe(false);
  });

  it('opens a card as the built-in list with its filter', () => {
    expect(cardPath(kinds[0]!, pete.mine[0]!.all)).toBe('/project/list?list=customsearch_res_project_list&filter=projectmanager+eq+2');
    expect(cardPath(kinds[4]!, accountant.credits!)).toBe('/creditavailability/list?list=customsearch_res_creditavailability_list');
  });
});
