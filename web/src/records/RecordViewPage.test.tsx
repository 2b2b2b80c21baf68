import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSessionStore } from '../session/store';
import RecordTabPage from './RecordTabPage';
import RecordViewPage from './RecordViewPage';
import { fakeApi, json, problem, renderRoutes, signIn, type FakeApi } from './testing';
import type { RecordDetail } from './types';

// As the app's route table lays them out: named tab routes carry their tab in the
// handle, the catch-all has the :tab parameter.
const routes = [
  {
    path: '/project',
    handle: { model: 'project' },
    children: [
      {
        path: 'view',
        handle: { isView: true },
        Component: RecordViewPage,
        children: [
          { path: 'billing', handle: { tab: 'billing' }, Component: RecordTabPage },
          { path: 'files', handle: { tab: 'files' }, Component: RecordTabPage },
          { path: ':tab', Component: RecordTabPage },
        ],
      },
    ],
  },
];

const record: RecordDetail = {
  id: 42,
  type: 'project',
  title: 'Wetland restoration',
  code: 'PRJ-000042',
  status: 'Active',
  erpUrl: 'https://1234.app.netsuite.com/app/accounting/project/project.nl?id=42',
  groups: [
    {
      label: 'Summary',
      fields: [
        { name: 'companyname', label: 'Project name', type: 'text', value: 'Wetland restoration' },
        { name: 'entityid', label: 'Project ID', type: 'text', value: 'PRJ-000042' },
        { name: 'entitystatus', label: 'Status', type: 'status', value: 'Active' },
        { name: 'customer', label: 'Client', type: 'reference', value: { id: 7, refName: 'Acme Water' } },
        { name: 'projectedtotal', label: 'Contract value', type: 'money', value: 98000 },
        { name: 'startdate', label: 'Start date', type: 'date', value: '2024-03-07' },
      ],
    },
    { label: 'Details', fields: [{ name: 'memo', label: 'Memo', type: 'text', value: 'Phase two' }] },
  ],
  tabs: [
    { name: 'billing', label: 'Billing', source: 'custom', kind: 'billing' },
    { name: 'files', label: 'Files', source: 'files' },
    { name: 'notes', label: 'Notes', source: 'sublist' },
  ],
  related: [{ type: 'customer', id: 7, name: 'Acme Water' }],
};

let api: FakeApi;

beforeEach(() => {
  signIn();
  api = fakeApi();
  api.on('GET /netsuite/portal-record', (url) => {
    const tab = url.searchParams.get('tab');
    if (url.searchParams.get('id') !== '42') return problem(404, 'No such record.');
    if (tab === 'billing') {
      return json({
        data: {
          columns: [
            { name: 'name', label: 'Milestone', type: 'text', sortable: true },
            { name: 'custrecord_res_bil_amount', label: 'Amount', type: 'money', sortable: true },
          ],
          rows: [
            { id: 501, name: 'Phase 1', custrecord_res_bil_amount: 1000 },
            { id: 502, name: 'Phase 2', custrecord_res_bil_amount: 2500.25 },
          ],
          hasMore: false,
        },
      });
    }
    if (tab === 'notes') {
      return json({ data: { columns: [{ name: 'note', label: 'Note', type: 'text', sortable: false }], rows: [{ id: 1, note: 'Site visit booked' }] } });
    }
    if (tab) return problem(404, `Projects have no "${tab}" tab.`);
    return json({ data: record });
  });
  api.on('GET /netsuite/portal-file', (url) =>
    url.searchParams.get('fileId')
      ? new Response('%PDF-1.4', { headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': 'attachment; filename="site plan.pdf"' } })
      : json({ data: [{ id: 9, name: 'site plan.pdf', size: 20480, contentType: 'application/pdf', modified: '2024-05-01T10:00:00Z' }] }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
  useSessionStore.getState().clearSession();
});

describe('RecordViewPage', () => {
  it('shows the header: title, status badge, key facts and the ERP link', async () => {
    renderRoutes(routes, '/project/view?id=42');
    expect(await screen.findByRole('heading', { level: 1, name: 'Wetland restoration' })).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Status' })).getByText('Active')).toBeInTheDocument();
    const facts = screen.getByLabelText('Key facts');
    expect(within(facts).getByText('PRJ-000042')).toBeInTheDocument();
    expect(within(facts).getByRole('link', { name: 'Acme Water' })).toHaveAttribute('href', '/customer/view?id=7');
    expect(within(facts).getByText('$98,000.00')).toBeInTheDocument();
    expect(within(facts).getByText('Mar 7, 2024')).toBeInTheDocument();
    const erp = screen.getByRole('link', { name: /Open in NetSuite/ });
    expect(erp).toHaveAttribute('href', record.erpUrl);
    expect(erp).toHaveAttribute('target', '_blank');
    expect(erp).toHaveAttribute('rel', expect.stringContaining('noopener'));
    expect(screen.getByRole('link', { name: 'Projects' })).toHaveAttribute('href', '/project/list');
  });

  it('shows the field groups and related records on the bare view, with Details current', async () => {
    renderRoutes(routes, '/project/view?id=42');
    const groups = await screen.findByTestId('field-groups');
    expect(within(groups).getByRole('heading', { name: 'Summary' })).toBeInTheDocument();
    expect(within(groups).getByRole('heading', { name: 'Details' })).toBeInTheDocument();
    expect(within(groups).getByText('Phase two')).toBeInTheDocument();
    expect(within(groups).getByRole('link', { name: 'Client: Acme Water' })).toHaveAttribute('href', '/customer/view?id=7');
    const tabs = screen.getByRole('navigation', { name: 'Project sections' });
    expect(within(tabs).getAllByRole('link').map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Details', '/project/view?id=42'],
      ['Billing', '/project/view/billing?id=42'],
      ['Files', '/project/view/files?id=42'],
      ['Notes', '/project/view/notes?id=42'],
    ]);
    expect(within(tabs).getByRole('link', { name: 'Details' })).toHaveAttribute('aria-current', 'page');
  });

  it('switches tabs: a related tab is a table of linked records with totals', async () => {
    const user = userEvent.setup();
    const { location } = renderRoutes(routes, '/project/view?id=42');
    const tabs = await screen.findByRole('navigation', { name: 'Project sections' });
    await user.click(within(tabs).getByRole('link', { name: 'Billing' }));
    await waitFor(() => expect(location()).toBe('/project/view/billing?id=42'));
    expect(within(tabs).getByRole('link', { name: 'Billing' })).toHaveAttribute('aria-current', 'page');
    expect(within(tabs).getByRole('link', { name: 'Details' })).not.toHaveAttribute('aria-current');
    const table = await screen.findByRole('table', { name: 'Billing' });
    // Billing has no view page in the route table: its rows are not links.
    expect(within(table).queryByRole('link')).toBeNull();
    expect(within(table).getByText('$3,500.25')).toBeInTheDocument();
    expect(screen.queryByTestId('field-groups')).toBeNull();
    expect(api.calls.some((c) => c.path === '/netsuite/portal-record' && c.params.get('tab') === 'billing')).toBe(true);
  });

  it('shows a sublist tab through the catch-all route', async () => {
    renderRoutes(routes, '/project/view/notes?id=42');
    const table = await screen.findByRole('table', { name: 'Notes' });
    expect(within(table).getByText('Site visit booked')).toBeInTheDocument();
  });

  it('asks again while the server completes the document, then refreshes the sublist tab', async () => {
    // For its first second the server is still fetching the whole document: the record
    // says so and the notes (a sublist of that document) are not all there yet.
    const start = Date.now();
    const complete = () => Date.now() - start > 1000;
    let recordCalls = 0;
    api.on('GET /netsuite/portal-record', (url) => {
      if (url.searchParams.get('tab') === 'notes') {
        const rows = complete() ? [{ id: 1, note: 'Site visit booked' }] : [{ id: 2, note: 'Older note' }];
        return json({ data: { columns: [{ name: 'note', label: 'Note', type: 'text', sortable: false }], rows } });
      }
      recordCalls++;
      return json({ data: { ...record, completing: !complete() } });
    });
    renderRoutes(routes, '/project/view/notes?id=42');
    const table = await screen.findByRole('table', { name: 'Notes' });
    expect(within(table).getByText('Older note')).toBeInTheDocument();
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Notes' })).getByText('Site visit booked')).toBeInTheDocument(), { timeout: 4000 });
    expect(recordCalls).toBeGreaterThanOrEqual(2);
  });

  it('lists files and downloads one', async () => {
    const user = userEvent.setup();
    const createObjectURL = vi.fn(() => 'blob:file');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    renderRoutes(routes, '/project/view/files?id=42');
    const button = await screen.findByRole('button', { name: 'Download site plan.pdf' });
    expect(screen.getByText('20.0 KB')).toBeInTheDocument();
    await user.click(button);
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('site plan.pdf');
    const call = api.calls.find((c) => c.params.get('fileId'))!;
    expect(Object.fromEntries(call.params)).toEqual({ type: 'project', id: '42', fileId: '9' });
  });

  it('says so for a tab the kind does not have', async () => {
    renderRoutes(routes, '/project/view/nonsense?id=42');
    expect(await screen.findByText('This project has no “nonsense” tab.')).toBeInTheDocument();
  });

  it('reports an unknown record and a missing id', async () => {
    renderRoutes(routes, '/project/view?id=999');
    expect(await screen.findByText('Not found')).toBeInTheDocument();
    expect(screen.getByText(/No such record/)).toBeInTheDocument();
  });

  it('reports a view address without an id', async () => {
    renderRoutes(routes, '/project/view');
    expect(await screen.findByText(/needs \?id=/)).toBeInTheDocument();
  });
});
