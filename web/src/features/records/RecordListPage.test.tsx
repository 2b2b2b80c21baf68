import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetAppStore, useAppStore } from '../../lib/appState';
import { useSessionStore } from '../../lib/session/store';
import RecordListPage from './RecordListPage';
import { fakeApi, json, problem, renderRoutes, signIn, type FakeApi } from './testing';
import type { ListConfig, ListPage } from './types';

const routes = [
  { path: '/project', handle: { model: 'project' }, children: [{ path: 'list', handle: { isList: true }, Component: RecordListPage }] },
  { path: '/billing', handle: { model: 'billing' }, children: [{ path: 'list', handle: { isList: true }, Component: RecordListPage }] },
];

const builtIn: ListConfig = {
  id: 'customsearch_res_project_list',
  type: 'project',
  name: 'All projects',
  columns: ['companyname', 'entityid', 'entitystatus', 'customer', 'projectedtotal', 'startdate'],
  filter: '',
  sort: { field: 'companyname', dir: 'asc' },
  visibility: 'role',
  builtIn: true,
  editable: false,
};
const mine: ListConfig = { ...builtIn, id: 'list-mine', name: 'My active projects', filter: 'entitystatus eq Active', visibility: 'private', builtIn: false, editable: true };

function page(overrides: Partial<ListPage> = {}): ListPage {
  return {
    list: { id: builtIn.id, name: builtIn.name },
    columns: [
      { name: 'companyname', label: 'Project name', type: 'text', sortable: true },
      { name: 'entitystatus', label: 'Status', type: 'status', sortable: true },
      { name: 'customer', label: 'Client', type: 'reference', sortable: false },
      { name: 'projectedtotal', label: 'Contract value', type: 'money', sortable: true },
      { name: 'startdate', label: 'Start date', type: 'date', sortable: true },
    ],
    rows: [
      { id: 42, companyname: 'Wetland restoration &amp; monitoring', entitystatus: 'Active', customer: { id: 7, refName: 'Acme Water' }, projectedtotal: 125000.5, startdate: '2024-03-07' },
      { id: 43, companyname: 'Stream survey', entitystatus: 'Closed', customer: null, projectedtotal: null, startdate: null },
    ],
    hasMore: true,
    nextCursor: 'cursor-2',
    ...overrides,
  };
}

// A busy machine renders slowly: wait up to 5 s for what the page shows.
configure({ asyncUtilTimeout: 5000 });

let api: FakeApi;

beforeEach(() => {
  signIn();
  resetAppStore();
  api = fakeApi();
  api.on('GET /netsuite/listConfiguration', () => json({ data: { lists: [builtIn, mine], defaultId: builtIn.id } }));
  api.on('GET /netsuite/portal-list', () => json({ data: page() }));
});

afterEach(() => {
  vi.unstubAllGlobals();
  useSessionStore.getState().clearSession();
});

const listCalls = () => api.calls.filter((c) => c.path === '/netsuite/portal-list' && !c.params.has('count'));
const countCalls = () => api.calls.filter((c) => c.path === '/netsuite/portal-list' && c.params.get('count') === 'true');

describe('RecordListPage', () => {
  it('shows the kind’s list: columns, rows, formatted values and links', async () => {
    renderRoutes(routes, '/project/list');
    const table = await screen.findByRole('table', { name: /Projects: All projects, page 1/ });
    expect(screen.getByRole('heading', { level: 1, name: 'Projects' })).toBeInTheDocument();
    const headers = within(table).getAllByRole('columnheader').map((h) => h.textContent);
    // A selection column first; a column the server cannot sort says so.
    expect(headers).toEqual(['', 'Project name, sorted ascending', 'Status, sortable', 'Client, not sortable', 'Contract value, sortable', 'Start date, sortable']);
    // HTML entities decoded; the title links to the view page; references to theirs.
    expect(within(table).getByRole('link', { name: 'Wetland restoration & monitoring' })).toHaveAttribute('href', '/project/view?id=42');
    expect(within(table).getByRole('link', { name: 'Acme Water' })).toHaveAttribute('href', '/customer/view?id=7');
    expect(within(table).getByText('$125,000.50')).toBeInTheDocument();
    expect(within(table).getByText('Mar 7, 2024')).toBeInTheDocument();
    // The list's own sort is shown on its header.
    expect(within(table).getByRole('columnheader', { name: /Project name/ })).toHaveAttribute('aria-sort', 'ascending');
    expect(listCalls()[0]!.params.get('type')).toBe('project');
    expect(listCalls()[0]!.params.get('pageSize')).toBe('50');
  });

  it('sorts by a header: the URL changes and the request follows', async () => {
    const user = userEvent.setup();
    const { location } = renderRoutes(routes, '/project/list');
    const table = await screen.findByRole('table');
    // A date sorts newest first, then the other way round.
    await user.click(within(table).getByRole('button', { name: /^Start date/ }));
    await waitFor(() => expect(location()).toBe('/project/list?sort=startdate&dir=desc'));
    await waitFor(() => expect(listCalls().at(-1)!.params.get('sort')).toBe('startdate'));
    expect(within(table).getByRole('columnheader', { name: /Start date/ })).toHaveAttribute('aria-sort', 'descending');
    expect(screen.getByTestId('list-sort')).toHaveTextContent('Sorted by Start date, newest first');
    await user.click(within(table).getByRole('button', { name: /^Start date/ }));
    await waitFor(() => expect(location()).toBe('/project/list?sort=startdate&dir=asc'));
    expect(within(table).getByRole('columnheader', { name: /Start date/ })).toHaveAttribute('aria-sort', 'ascending');
    // Not sortable: no button, and the header says so.
    expect(within(table).queryByRole('button', { name: /Client/ })).toBeNull();
    expect(within(table).getByRole('columnheader', { name: 'Client, not sortable' })).toBeInTheDocument();
    // Back to the list's own order; its sorted column turns round on a click.
    await user.click(screen.getByRole('button', { name: 'Use the list’s order' }));
    await waitFor(() => expect(location()).toBe('/project/list'));
    await user.click(within(table).getByRole('button', { name: /^Project name/ }));
    await waitFor(() => expect(location()).toBe('/project/list?sort=companyname&dir=desc'));
    await user.click(within(table).getByRole('button', { name: /^Project name/ }));
    // Ascending by name is the list's own order: the URL drops it.
    await waitFor(() => expect(location()).toBe('/project/list'));
  });

  it('pages by cursor and back', async () => {
    const user = userEvent.setup();
    const { location } = renderRoutes(routes, '/project/list');
    await screen.findByRole('table');
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(location()).toBe('/project/list?after=cursor-2'));
    await waitFor(() => expect(listCalls().at(-1)!.params.get('cursor')).toBe('cursor-2'));
    expect(await screen.findByText('Rows 51–52')).toBeInTheDocument();
    expect(screen.getByTestId('page-number')).toHaveValue('2');
    await user.click(screen.getByRole('button', { name: 'Previous page' }));
    await waitFor(() => expect(location()).toBe('/project/list'));
  });

  it('shows the server’s message next to the filter bar and keeps the user’s filter', async () => {
    api.on('GET /netsuite/portal-list', (url) =>
      url.searchParams.get('filter') ? problem(400, 'projectedtotal: "lots" is not a number like 1250.50') : json({ data: page() }),
    );
    renderRoutes(routes, '/project/list?filter=projectedtotal+gt+lots');
    const alert = await screen.findByTestId('filter-error');
    expect(alert).toHaveTextContent('projectedtotal: "lots" is not a number like 1250.50');
    // The builder shows the condition as the user wrote it.
    expect(screen.getByLabelText('Condition 1 field')).toHaveValue('projectedtotal');
    expect(screen.getByLabelText('Condition 1 value')).toHaveValue('lots');
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('builds a filter from rows and applies it through the URL', async () => {
    const user = userEvent.setup();
    const { location } = renderRoutes(routes, '/project/list');
    await screen.findByRole('table');
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    await user.click(screen.getByRole('button', { name: 'Add condition' }));
    await user.selectOptions(screen.getByLabelText('Condition 1 field'), 'entitystatus');
    await user.selectOptions(screen.getByLabelText('Condition 1 value'), 'Monitoring');
    await user.click(screen.getByRole('button', { name: 'Add condition' }));
    await user.selectOptions(screen.getByLabelText('Condition 2 joins with'), 'or');
    await user.type(screen.getByLabelText('Condition 2 value'), 'creek bed');
    await user.click(screen.getByRole('button', { name: 'Apply filter' }));
    await waitFor(() =>
      expect(new URLSearchParams(location().split('?')[1]).get('filter')).toBe('entitystatus eq Monitoring or companyname contains "creek bed"'),
    );
    await waitFor(() => expect(listCalls().at(-1)!.params.get('filter')).toBe('entitystatus eq Monitoring or companyname contains "creek bed"'));
    // The same filter as text.
    await user.click(screen.getByRole('button', { name: 'Edit as text' }));
    expect(screen.getByLabelText('Filter expression')).toHaveValue('entitystatus eq Monitoring or companyname contains "creek bed"');
  });

  it('filters on a reference by picking the record by name', async () => {
    const user = userEvent.setup();
    api.on('GET /netsuite/portal', () => json({ data: [{ name: 'Acme Water', domain: '/customer/view?id=7', type: 'customer', id: 7, detail: 'Client · C-0007' }] }));
    const { location } = renderRoutes(routes, '/project/list');
    await screen.findByRole('table');
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    await user.click(screen.getByRole('button', { name: 'Add condition' }));
    await user.selectOptions(screen.getByLabelText('Condition 1 field'), 'customer');
    await user.type(screen.getByRole('combobox', { name: 'Condition 1 value' }), 'acme');
    await user.click(await screen.findByRole('option', { name: /Acme Water/ }));
    expect(api.calls.find((c) => c.path === '/netsuite/portal')!.params.get('type')).toBe('customer');
    await user.click(screen.getByRole('button', { name: 'Apply filter' }));
    await waitFor(() => expect(new URLSearchParams(location().split('?')[1]).get('filter')).toBe('customer eq 7'));
    // The re-drawn filter bar still names the record.
    expect(await screen.findByRole('combobox', { name: 'Condition 1 value' })).toHaveValue('Acme Water');
  });

  it('refuses an incomplete builder row before asking the server', async () => {
    const user = userEvent.setup();
    renderRoutes(routes, '/project/list');
    await screen.findByRole('table');
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    await user.click(screen.getByRole('button', { name: 'Add condition' }));
    await user.click(screen.getByRole('button', { name: 'Apply filter' }));
    expect(await screen.findByText('Enter a value for Project name.')).toBeInTheDocument();
    expect(listCalls().every((c) => !c.params.get('filter'))).toBe(true);
  });

  it('searches as the user types (debounced) and clears back', async () => {
    const user = userEvent.setup();
    const { location } = renderRoutes(routes, '/project/list');
    await screen.findByRole('table');
    await user.type(screen.getByLabelText('Search projects'), 'wetland');
    await waitFor(() => expect(location()).toBe('/project/list?q=wetland'));
    await waitFor(() => expect(listCalls().at(-1)!.params.get('q')).toBe('wetland'));
    expect(listCalls().filter((c) => c.params.get('q')?.startsWith('w')).length).toBe(1);
  });

  it('remembers the chosen saved list as the kind’s default (UI state and local storage)', async () => {
    const user = userEvent.setup();
    api.on('GET /netsuite/portal-list', (url) =>
      json({ data: page(url.searchParams.get('list') === 'list-mine' ? { list: { id: 'list-mine', name: 'My active projects' } } : {}) }),
    );
    const { location } = renderRoutes(routes, '/project/list');
    await screen.findByRole('table');
    const picker = screen.getByLabelText('Saved list');
    await waitFor(() => expect(picker).not.toBeDisabled());
    await user.selectOptions(picker, 'list-mine');
    await waitFor(() => expect(location()).toBe('/project/list?list=list-mine'));
    expect(useAppStore.getState().defaultLists).toEqual({ project: 'list-mine' });
    expect(JSON.parse(localStorage.getItem('defaultLists')!)).toEqual({ project: 'list-mine' });
    expect(await screen.findByTestId('list-name')).toHaveTextContent('My active projects');
    expect(screen.getByRole('link', { name: 'Edit list' })).toHaveAttribute('href', '/list/edit?type=project&id=list-mine');
  });

  it('opens the remembered default list when the URL names none', async () => {
    useAppStore.getState().setDefaultList('project', 'list-mine');
    renderRoutes(routes, '/project/list');
    await screen.findByRole('table');
    expect(listCalls()[0]!.params.get('list')).toBe('list-mine');
  });

  it('hides a column with the column chooser, keeping the choice in the URL', async () => {
    const user = userEvent.setup();
    const { location } = renderRoutes(routes, '/project/list');
    const table = await screen.findByRole('table');
    await user.click(screen.getByRole('button', { name: 'Columns' }));
    await user.click(await screen.findByRole('button', { name: 'Remove Client' }));
    await waitFor(() => expect(location()).toBe('/project/list?cols=companyname%2Centitystatus%2Cprojectedtotal%2Cstartdate'));
    expect(within(table).queryByRole('columnheader', { name: 'Client' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Columns (4 of 6)' })).toBeInTheDocument();
  });

  it('adds any field of the kind as a column, and goes back to the list’s own', async () => {
    const user = userEvent.setup();
    const withCode = page({
      columns: [...page().columns, { name: 'entityid', label: 'Project ID', type: 'text', sortable: true }],
      rows: page().rows.map((r) => ({ ...r, entityid: `P-${r.id}` })),
    });
    api.on('GET /netsuite/portal-list', (url) => json({ data: url.searchParams.get('columns') ? withCode : page() }));
    const { location } = renderRoutes(routes, '/project/list');
    const table = await screen.findByRole('table');
    await user.click(screen.getByRole('button', { name: 'Columns' }));
    // Project ID is a field of the kind this list does not show.
    const code = await screen.findByRole('checkbox', { name: 'Project ID' });
    expect(code).not.toBeChecked();
    await user.click(code);
    await waitFor(() => expect(location()).toBe('/project/list?cols=companyname%2Centitystatus%2Ccustomer%2Cprojectedtotal%2Cstartdate%2Centityid'));
    await waitFor(() => expect(listCalls().at(-1)!.params.get('columns')).toBe('companyname,entitystatus,customer,projectedtotal,startdate,entityid'));
    expect(await within(table).findByText('P-42')).toBeInTheDocument();
    expect(within(table).getAllByRole('columnheader').at(-1)).toHaveTextContent(/^Project ID/);
    await user.click(screen.getByRole('button', { name: 'Use the list’s columns' }));
    await waitFor(() => expect(location()).toBe('/project/list'));
  });

  it('opens a shared link with chosen columns in their order', async () => {
    renderRoutes(routes, '/project/list?cols=startdate,companyname');
    const table = await screen.findByRole('table');
    expect(listCalls()[0]!.params.get('columns')).toBe('startdate,companyname');
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['', 'Start date, sortable', 'Project name, sorted ascending']);
  });

  it('counts the matching records in a second, later request, once per filter', async () => {
    const user = userEvent.setup();
    api.on('GET /netsuite/portal-list', (url) => json({ data: url.searchParams.get('count') === 'true' ? page({ total: url.searchParams.get('filter') ? 1 : 12345 }) : page() }));
    renderRoutes(routes, '/project/list?filter=entitystatus+eq+Active');
    await screen.findByRole('table');
    expect(await screen.findByTestId('list-total')).toHaveTextContent('1 record');
    expect(api.calls.findIndex((c) => c.params.get('count') === 'true')).toBeGreaterThan(api.calls.indexOf(listCalls()[0]!));
    expect(Object.fromEntries(countCalls()[0]!.params)).toEqual({ type: 'project', filter: 'entitystatus eq Active', pageSize: '1', count: 'true' });
    // Paging keeps the count; a new filter counts again.
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(listCalls().at(-1)!.params.get('cursor')).toBe('cursor-2'));
    expect(screen.getByTestId('list-total')).toHaveTextContent('1 record');
    expect(countCalls()).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Clear filter' }));
    expect(await screen.findByText('12,345 records')).toBeInTheDocument();
    expect(countCalls()).toHaveLength(2);
  });

  it('says when the role may not see the kind', async () => {
    api.on('GET /netsuite/portal-list', () => problem(403, 'Your role may not see projects.'));
    api.on('GET /netsuite/listConfiguration', () => problem(403, 'Your role may not see projects.'));
    renderRoutes(routes, '/project/list');
    expect(await screen.findByText('Not available to your role')).toBeInTheDocument();
    expect(screen.getByText('Your current role may not see projects.')).toBeInTheDocument();
  });

  it('shows an empty state with a way out', async () => {
    const user = userEvent.setup();
    api.on('GET /netsuite/portal-list', (url) => json({ data: page(url.searchParams.get('q') ? { rows: [], hasMore: false, nextCursor: null } : {}) }));
    const { location } = renderRoutes(routes, '/project/list?q=zzz');
    expect(await screen.findByText('No projects match.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Clear the search' }));
    await waitFor(() => expect(location()).toBe('/project/list'));
    expect(await screen.findByRole('table')).toBeInTheDocument();
  });

  it('links the rows of every kind to their view page', async () => {
    api.on('GET /netsuite/listConfiguration', () => json({ data: { lists: [], defaultId: 'customsearch_res_billing_list' } }));
    api.on('GET /netsuite/portal-list', () =>
      json({
        data: {
          list: { id: 'customsearch_res_billing_list', name: 'All billing' },
          columns: [{ name: 'name', label: 'Milestone', type: 'text', sortable: true }],
          rows: [{ id: 1, name: 'Phase 1' }],
          hasMore: false,
          nextCursor: null,
        },
      }),
    );
    renderRoutes(routes, '/billing/list');
    const table = await screen.findByRole('table');
    expect(within(table).getByRole('link', { name: 'Phase 1' })).toHaveAttribute('href', '/billing/view?id=1');
  });

  it('exports the current list as CSV from the server, without paging', async () => {
    const user = userEvent.setup();
    api.on('GET /netsuite/portal-list', (url) =>
      url.searchParams.get('format') === 'csv'
        ? new Response('Project name\nA\n', { headers: { 'Content-Type': 'text/csv', 'Content-Disposition': 'attachment; filename=all-projects-2024-01-01.csv' } })
        : json({ data: page() }),
    );
    const createObjectURL = vi.fn(() => 'blob:csv');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    renderRoutes(routes, '/project/list?filter=entitystatus+eq+Active&sort=startdate&dir=desc&after=c1');
    await screen.findByRole('table');
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    const csv = listCalls().find((c) => c.params.get('format') === 'csv')!;
    expect(Object.fromEntries(csv.params)).toEqual({ type: 'project', sort: 'startdate', dir: 'desc', filter: 'entitystatus eq Active', format: 'csv' });
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('all-projects-2024-01-01.csv');
  });
});
