/**
 * Account fields: the ERP account's own fields the mapping adds to a kind (`account: true`,
 * on the column `fields.<name>`, no promoted column). The app treats them like the kind's
 * own everywhere: column chooser, sort headers, filter builder, record page and form.
 */
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetAppStore } from '../../lib/appState';
import { useSessionStore } from '../../lib/session/store';
import { checkDraft, draftFor } from './FilterBuilder';
import { clauseProblem, newClause } from './filter';
import { fieldOnColumn } from './kinds';
import { sortableFields } from './listEditor';
import RecordFormPage from './RecordFormPage';
import RecordListPage from './RecordListPage';
import RecordViewPage from './RecordViewPage';
import { fieldError, formValues, recordValues, saveFields } from './form/schema';
import { customerKind, fakeApi, json, ORDER_OPS, projectKind, renderRoutes, signIn, TEXT_OPS, type FakeApi } from './testing';
import type { Kind, ListConfig, ListPage, RecordDetail } from './types';

const serviceArea = { name: 'custentity_res_service_area', label: 'Service area', column: 'fields.custentity_res_service_area', type: 'text', sortable: true, account: true, operators: TEXT_OPS } as const;
const acres = { name: 'custentity_res_acres', label: 'Acres', column: 'fields.custentity_res_acres', type: 'quantity', sortable: true, account: true, operators: ORDER_OPS } as const;

/** Projects as a mapping with two account fields makes them. */
const project: Kind = {
  ...projectKind,
  fields: [...projectKind.fields.map((f) => ({ ...f, sortable: f.type !== 'reference' })), serviceArea, acres],
};

const builtIn: ListConfig = {
  id: 'customsearch_res_project_list',
  type: 'project',
  name: 'All projects',
  columns: ['companyname', 'entitystatus'],
  filter: '',
  sort: { field: 'companyname', dir: 'asc' },
  visibility: 'role',
  builtIn: true,
  editable: false,
};

const rows = [
  { id: 42, companyname: 'Osprey Creek Mitigation Bank', entitystatus: 'Active', custentity_res_acres: 1234.5, custentity_res_service_area: 'Chowan River Basin' },
  { id: 43, companyname: 'Stream survey', entitystatus: 'Closed', custentity_res_acres: 36.25, custentity_res_service_area: null },
];

/** A list page with the columns the request asked for (the list's own when none). */
function pageFor(url: URL): ListPage {
  const names = url.searchParams.get('columns')?.split(',') ?? builtIn.columns;
  return {
    list: { id: builtIn.id, name: builtIn.name },
    columns: names.map((name) => {
      const f = project.fields.find((x) => x.name === name)!;
      return { name: f.name, label: f.label, type: f.type, sortable: !!f.sortable };
    }),
    rows: rows.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => k === 'id' || names.includes(k))) as ListPage['rows'][number]),
    hasMore: false,
    nextCursor: null,
  };
}

const VERSION = '2026-11-22T10:00:00.123Z';

const record: RecordDetail = {
  id: 42,
  type: 'project',
  title: 'Osprey Creek Mitigation Bank',
  code: 'PRJ-000042',
  status: 'Active',
  erpUrl: null,
  groups: [
    {
      label: 'Summary',
      fields: [
        { name: 'companyname', label: 'Project name', type: 'text', value: 'Osprey Creek Mitigation Bank' },
        { name: 'entityid', label: 'Project ID', type: 'text', value: 'PRJ-000042' },
        { name: 'entitystatus', label: 'Status', type: 'status', value: 'Active' },
        { name: 'customer', label: 'Client', type: 'reference', value: { id: 7, refName: 'Acme Water' } },
        { name: 'projectedtotal', label: 'Contract value', type: 'money', value: null },
        { name: 'startdate', label: 'Start date', type: 'date', value: '2024-03-07' },
        { name: 'custentity_res_service_area', label: 'Service area', type: 'text', value: 'Chowan River Basin' },
        { name: 'custentity_res_acres', label: 'Acres', type: 'quantity', value: 1234.5 },
      ],
    },
  ],
  tabs: [],
  related: [],
  version: VERSION,
  write: { state: '' },
};

const routes = [
  {
    path: '/project',
    handle: { model: 'project' },
    children: [
      { path: 'list', handle: { isList: true }, Component: RecordListPage },
      { path: 'view', handle: { isView: true }, Component: RecordViewPage },
      { path: 'edit', handle: { isEdit: true }, Component: RecordFormPage },
    ],
  },
];

let api: FakeApi;

// A busy machine renders slowly: wait up to 5 s for what the page shows.
configure({ asyncUtilTimeout: 5000 });

beforeEach(() => {
  signIn();
  resetAppStore();
  api = fakeApi();
  api.on('GET /kinds', () => json({ data: [project, customerKind] }));
  api.on('GET /netsuite/listConfiguration', () => json({ data: { lists: [builtIn], defaultId: builtIn.id } }));
  api.on('GET /netsuite/portal-list', (url) => json({ data: pageFor(url) }));
  api.on('GET /netsuite/portal-record', () => json({ data: record }));
});

afterEach(() => {
  vi.unstubAllGlobals();
  useSessionStore.getState().clearSession();
});

const listCalls = () => api.calls.filter((c) => c.path === '/netsuite/portal-list' && !c.params.has('count'));

describe('account fields on the list page', () => {
  it('are offered by the column chooser, shown formatted, and sorted by their header', async () => {
    const user = userEvent.setup();
    const { location } = renderRoutes(routes, '/project/list');
    const table = await screen.findByRole('table');
    await user.click(screen.getByRole('button', { name: 'Columns' }));
    const chooser = await screen.findByRole('dialog');
    // Every field is offered: the columns shown (to move or remove), the others to add.
    const offered = [
      ...within(chooser).getAllByRole('button', { name: /^Remove / }).map((b) => b.getAttribute('aria-label')!.replace(/^Remove /, '')),
      ...within(chooser).getAllByRole('checkbox').map((c) => (c as HTMLInputElement).labels?.[0]?.textContent?.replace(/ \(not sortable\)$/, '')),
    ];
    expect(offered.sort()).toEqual(project.fields.map((f) => f.label).sort());
    await user.click(within(chooser).getByRole('checkbox', { name: 'Acres' }));
    await waitFor(() => expect(location()).toBe('/project/list?cols=companyname%2Centitystatus%2Ccustentity_res_acres'));
    await waitFor(() => expect(listCalls().at(-1)!.params.get('columns')).toBe('companyname,entitystatus,custentity_res_acres'));

    const header = await within(table).findByRole('columnheader', { name: /^Acres/ });
    expect(header).toHaveClass(/numeric/);
    expect(await within(table).findByRole('cell', { name: '1,234.50' })).toHaveClass(/numeric/);
    expect(within(table).getByRole('cell', { name: '36.25' })).toBeInTheDocument();

    await user.click(within(header).getByRole('button', { name: /Acres/ }));
    await waitFor(() => expect(new URLSearchParams(location().split('?')[1]).get('sort')).toBe('custentity_res_acres'));
    await waitFor(() => expect(listCalls().at(-1)!.params.get('sort')).toBe('custentity_res_acres'));
    // An amount sorts largest first.
    expect(within(table).getByRole('columnheader', { name: /^Acres/ })).toHaveAttribute('aria-sort', 'descending');
  });

  it('are filtered on with the builder, with their type’s operators', async () => {
    const user = userEvent.setup();
    const { location } = renderRoutes(routes, '/project/list');
    await screen.findByRole('table');
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    await user.click(screen.getByRole('button', { name: 'Add condition' }));
    await user.selectOptions(screen.getByLabelText('Condition 1 field'), 'Acres');
    expect(within(screen.getByLabelText('Condition 1 operator')).getAllByRole('option').map((o) => o.textContent)).toEqual([
      'is',
      'is not',
      'less than',
      'at most',
      'more than',
      'at least',
    ]);
    await user.selectOptions(screen.getByLabelText('Condition 1 operator'), 'more than');
    await user.type(screen.getByLabelText('Condition 1 value'), '300.5');
    await user.click(screen.getByRole('button', { name: 'Add condition' }));
    await user.selectOptions(screen.getByLabelText('Condition 2 field'), 'Service area');
    expect(screen.getByLabelText('Condition 2 operator')).toHaveValue('contains');
    await user.type(screen.getByLabelText('Condition 2 value'), 'River Basin');
    await user.click(screen.getByRole('button', { name: 'Apply filter' }));
    const expression = 'custentity_res_acres gt 300.5 and custentity_res_service_area contains "River Basin"';
    await waitFor(() => expect(new URLSearchParams(location().split('?')[1]).get('filter')).toBe(expression));
    await waitFor(() => expect(listCalls().at(-1)!.params.get('filter')).toBe(expression));
  });
});

describe('account fields on the record page and its form', () => {
  it('shows them with their labels among the record’s fields, the quantity formatted', async () => {
    renderRoutes(routes, '/project/view?id=42');
    const groups = await screen.findByTestId('field-groups');
    const valueOf = (label: string) => within(groups).getByText(label, { selector: 'dt' }).nextElementSibling;
    expect(valueOf('Service area')).toHaveTextContent('Chowan River Basin');
    expect(valueOf('Acres')).toHaveTextContent('1,234.50');
  });

  it('edits them, and sends them under their names, a quantity as a number', async () => {
    const user = userEvent.setup();
    api.on('PUT /netsuite/portal-crud', () => json({ data: { ...record, write: { state: 'pending' } } }));
    renderRoutes(routes, '/project/edit?id=42');
    const acresBox = await screen.findByRole('textbox', { name: 'Acres' });
    const areaBox = screen.getByRole('textbox', { name: 'Service area' });
    expect(acresBox).toHaveValue('1,234.5');
    expect(areaBox).toHaveValue('Chowan River Basin');
    await user.clear(acresBox);
    await user.type(acresBox, '4321.75');
    await user.clear(areaBox);
    await user.type(areaBox, 'Neuse River Basin');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'PUT')).toBe(true));
    const sent = api.calls.find((c) => c.method === 'PUT')!.body as { fields: Record<string, unknown>; version: string };
    expect(sent.fields).toMatchObject({ custentity_res_acres: 4321.75, custentity_res_service_area: 'Neuse River Basin' });
    expect(sent.version).toBe(VERSION);
  });
});

describe('account fields in the helpers', () => {
  it('leave the promoted columns to the kind’s own fields', () => {
    for (const [column, name] of Object.entries({ title: 'companyname', code: 'entityid', status: 'entitystatus', amount: 'projectedtotal', occurred_on: 'startdate' })) {
      expect(fieldOnColumn(project, column)?.name).toBe(name);
    }
    expect(fieldOnColumn(project, 'fields.custentity_res_acres')?.name).toBe('custentity_res_acres');
  });

  it('may sort saved lists, as the registry says', () => {
    expect(sortableFields(project).map((f) => f.name)).toEqual(['companyname', 'entityid', 'entitystatus', 'projectedtotal', 'startdate', 'custentity_res_service_area', 'custentity_res_acres']);
    // A registry that says a field is not sortable is believed, whatever its type.
    const unsorted: Kind = { ...project, fields: project.fields.map((f) => (f.account ? { ...f, sortable: false } : f)) };
    expect(sortableFields(unsorted).map((f) => f.name)).not.toContain('custentity_res_acres');
    // One that does not say: everything but references.
    expect(sortableFields(projectKind).map((f) => f.name)).toEqual(['companyname', 'entityid', 'entitystatus', 'projectedtotal', 'startdate']);
  });

  it('are checked like the kind’s own fields in filters and forms', () => {
    expect(newClause(acres)).toEqual({ join: 'and', field: 'custentity_res_acres', op: 'eq', value: '' });
    expect(clauseProblem({ join: 'and', field: 'custentity_res_acres', op: 'contains', value: '3' }, project.fields)).toBe('"contains" does not apply to Acres.');
    expect(clauseProblem({ join: 'and', field: 'custentity_res_acres', op: 'ge', value: 'many' }, project.fields)).toBe('Acres needs a number, like 1500 or 12.5.');
    expect(checkDraft(draftFor('custentity_res_acres ge 12.5', project.fields), project.fields).expression).toBe('custentity_res_acres ge 12.5');
    expect(fieldError(acres, '12.345')).toBe('Use at most two decimals.');
    expect(fieldError(acres, '')).toBeNull();
    const values = formValues(project, recordValues(record));
    expect(values).toMatchObject({ custentity_res_acres: 1234.5, custentity_res_service_area: 'Chowan River Basin' });
    expect(saveFields(project, { ...values, custentity_res_acres: '', custentity_res_service_area: '' })).toMatchObject({
      custentity_res_acres: null,
      custentity_res_service_area: '',
    });
  });
});
