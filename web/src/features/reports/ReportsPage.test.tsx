import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { meta } from '../../lib/meta';
import { fakeApi, json, problem, renderRoutes, role, type FakeApi } from '../records/testing';
import type { Report, ReportRun } from './types';
import { useSessionStore } from '../../lib/session/store';
import ReportsPage from './ReportsPage';

vi.mock('./ReportChart', () => ({
  default: ({ chart, rows }: { chart: string; rows: unknown[] }) => <div data-testid="chart">{`${chart} chart of ${rows.length}`}</div>,
}));

const routes = [
  { path: '/reports/list', handle: meta({ isList: true }), Component: ReportsPage },
  { path: '/reports/create', handle: meta({ isCreate: true }), Component: ReportsPage },
  { path: '/reports/:reportId', handle: meta({ isView: true }), Component: ReportsPage },
];

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

const saved: Report = {
  id: 'report-1',
  type: 'project',
  name: 'Projects by status',
  columns: ['companyname'],
  filter: '',
  sort: { field: 'companyname', dir: 'asc' },
  visibility: 'role',
  builtIn: false,
  editable: true,
  report: { groupBy: 'entitystatus', aggregates: [{ fn: 'count' }, { fn: 'sum', field: 'projectedtotal' }], order: 'key', chart: 'bar' },
};

const grouped: ReportRun = {
  report: saved,
  grouped: true,
  columns: [
    { name: 'key', label: 'Status', type: 'text' },
    { name: 'v0', label: 'Count', type: 'quantity' },
    { name: 'v1', label: 'Sum of Contract value', type: 'money' },
  ],
  rows: [
    { id: 1, key: 'Active', v0: 3, v1: 1500 },
    { id: 2, key: 'Closed', v0: 1, v1: 200 },
  ],
  hasMore: false,
  total: 2,
};

let api: FakeApi;

beforeEach(() => {
  signInWith(['reports.view', 'project.view', 'customer.view']);
  api = fakeApi();
  api.on('POST /reports/run', () => json({ data: grouped }));
  api.on('GET /reports/run', () => json({ data: grouped }));
  api.on('GET /reports', () => json({ data: [saved] }));
  api.on('POST /reports', () => json({ data: saved }, 201));
});

afterEach(() => {
  vi.unstubAllGlobals();
  useSessionStore.getState().clearSession();
});

describe('report builder', () => {
  it('previews a grouped report while building, then saves and opens it', async () => {
    const user = userEvent.setup();
    const view = renderRoutes(routes, '/reports/create');
    await user.type(await screen.findByLabelText(/^Name/), 'Projects by status');
    await user.selectOptions(screen.getByLabelText('Group by'), 'entitystatus');
    expect(screen.getByLabelText('Aggregate 1')).toHaveValue('count');
    await user.click(screen.getByRole('button', { name: 'Add aggregate' }));
    expect(screen.getByLabelText('Aggregate 2 field')).toHaveValue('projectedtotal');

    const preview = await screen.findByRole('table', { name: 'Projects by status' }, { timeout: 3000 });
    expect(within(preview).getByText('Active')).toBeInTheDocument();
    expect(await screen.findByTestId('chart')).toHaveTextContent('bar chart of 2');
    await waitFor(() => {
      const runs = api.calls.filter((c) => c.method === 'POST' && c.path === '/reports/run');
      expect(runs.at(-1)?.body).toMatchObject({ report: { groupBy: 'entitystatus', chart: 'bar', aggregates: [{ fn: 'count' }, { fn: 'sum', field: 'projectedtotal' }] } });
    });

    await user.click(screen.getByRole('button', { name: 'Save report' }));
    await waitFor(() => expect(view.location()).toBe('/reports/report-1'));
    const save = api.calls.find((c) => c.method === 'POST' && c.path === '/reports');
    expect(save?.params.get('type')).toBe('project');
    expect(save?.body).toMatchObject({ name: 'Projects by status', visibility: 'private', report: { order: 'key' } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Projects by status' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Edit' })).toHaveAttribute('href', '/reports/report-1?edit=1');
  });

  it('checks the rules before saving and shows the server’s field errors', async () => {
    api.on('POST /reports', () => problem(422, 'Check the highlighted fields.', [{ field: 'report.aggregates[0]', message: 'Aggregate refused.' }]));
    const user = userEvent.setup();
    renderRoutes(routes, '/reports/create');
    await user.click(await screen.findByRole('button', { name: 'Save report' }));
    expect(await screen.findByText('Give the report a name.')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Name/)).toHaveFocus();
    expect(api.calls.some((c) => c.method === 'POST' && c.path === '/reports')).toBe(false);

    await user.type(screen.getByLabelText(/^Name/), 'By status');
    await user.selectOptions(screen.getByLabelText('Group by'), 'entitystatus');
    await user.click(screen.getByRole('button', { name: 'Save report' }));
    expect(await screen.findByText('Aggregate refused.')).toBeInTheDocument();
  });

  it('lists the reports and asks before deleting one', async () => {
    api.on('DELETE /reports', () => new Response(null, { status: 204 }));
    const user = userEvent.setup();
    renderRoutes(routes, '/reports/list');
    const row = await screen.findByTestId('report-row');
    expect(row).toHaveTextContent('Projects by statusProjectsCount, Sum of Contract value by statusBar chartShared with the role');
    await user.click(within(row).getByRole('button', { name: 'Delete Projects by status' }));
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(api.calls.find((c) => c.method === 'DELETE')?.params.toString()).toBe('type=project&id=report-1'));
  });

  it('shows a group in another currency in its own, the others in the base currency', async () => {
    // The server makes a group of each currency of a key, named so, its row carrying it.
    const run: ReportRun = { ...grouped, rows: [...grouped.rows, { id: 3, key: 'Active (CAD)', _currency: 'CAD', v0: 1, v1: 900 }], total: 3 };
    api.on('GET /reports/run', () => json({ data: run }));
    renderRoutes(routes, '/reports/report-1');
    const table = await screen.findByRole('table', { name: 'Projects by status' });
    const rows = within(table).getAllByRole('row').slice(1).map((r) => within(r).getAllByRole('cell').map((c) => c.textContent));
    expect(rows).toEqual([
      ['Active', '3.00', '$1,500.00'],
      ['Closed', '1.00', '$200.00'],
      ['Active (CAD)', '1.00', 'CA$900.00'],
    ]);
  });

  it('tells a role without reports.view why there is nothing', () => {
    signInWith(['project.view']);
    renderRoutes(routes, '/reports/list');
    expect(screen.getByTestId('forbidden')).toHaveTextContent('may not see reports');
  });
});
