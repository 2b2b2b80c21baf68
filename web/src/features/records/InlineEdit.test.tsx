/**
 * Inline edit in a list, against a fake record API: a pencil in the cells of the fields a
 * form edits, a dialog that reads the record first and saves as the form does (version,
 * Idempotency-Key, field errors, conflicts), and a list that shows what was saved.
 */
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetAppStore, useAppStore } from '../../lib/appState';
import { useSessionStore } from '../../lib/session/store';
import { isInlineEditable, savedMessage } from './InlineEdit';
import RecordListPage from './RecordListPage';
import { billingKind, customerKind, fakeApi, json, problem, projectKind, renderRoutes, signIn, type FakeApi } from './testing';
import type { Kind, ListPage, RecordDetail } from './types';

const routes = [
  { path: '/project', handle: { model: 'project' }, children: [{ path: 'list', handle: { isList: true }, Component: RecordListPage }] },
  { path: '/billing', handle: { model: 'billing' }, children: [{ path: 'list', handle: { isList: true }, Component: RecordListPage }] },
];

const VERSION = '2026-11-22T10:00:00.123Z';
const NEWER = '2026-11-22T10:05:00.456Z';
const WETLAND = 'Wetland restoration & monitoring';
const PENCIL = `Change Status of “${WETLAND}”`;

/** The project list: statuses as stored (the first row Active, or `status`). */
function page(status = 'Active'): ListPage {
  return {
    list: { id: projectKind.defaultList, name: 'All projects' },
    columns: [
      { name: 'companyname', label: 'Project name', type: 'text', sortable: true },
      { name: 'entityid', label: 'Project ID', type: 'text', sortable: true },
      { name: 'entitystatus', label: 'Status', type: 'status', sortable: true },
      { name: 'customer', label: 'Client', type: 'reference', sortable: false },
      { name: 'projectedtotal', label: 'Contract value', type: 'money', sortable: true },
      { name: 'startdate', label: 'Start date', type: 'date', sortable: true },
    ],
    rows: [
      { id: 42, companyname: WETLAND, entityid: 'PRJ-42', entitystatus: status, customer: { id: 7, refName: 'Acme Water' }, projectedtotal: 125000.5, startdate: '2024-03-07' },
      { id: 43, companyname: 'Stream survey', entityid: 'PRJ-43', entitystatus: 'Closed', customer: null, projectedtotal: null, startdate: null },
    ],
    hasMore: false,
    nextCursor: null,
  };
}

/** Project 42's record view: its status now, at `version`. */
function record(status: string, version = VERSION, extra: Partial<RecordDetail> = {}): RecordDetail {
  return {
    id: 42,
    type: 'project',
    title: WETLAND,
    code: 'PRJ-42',
    status,
    erpUrl: null,
    groups: [
      {
        label: 'Summary',
        fields: [
          { name: 'companyname', label: 'Project name', type: 'text', value: WETLAND },
          { name: 'entityid', label: 'Project ID', type: 'text', value: 'PRJ-42' },
          { name: 'entitystatus', label: 'Status', type: 'status', value: status },
          { name: 'projectedtotal', label: 'Contract value', type: 'money', value: 125000.5 },
          { name: 'startdate', label: 'Start date', type: 'date', value: '2024-03-07' },
        ],
      },
    ],
    tabs: projectKind.tabs,
    related: [],
    version,
    write: { state: '' },
    ...extra,
  };
}

// A busy machine renders slowly: wait up to 5 s for what the page shows.
configure({ asyncUtilTimeout: 5000 });

let api: FakeApi;
let stored: string;
const listReads = () => api.calls.filter((c) => c.path === '/netsuite/portal-list' && !c.params.has('count') && !c.params.has('totals'));
const recordReads = () => api.calls.filter((c) => c.method === 'GET' && c.path === '/netsuite/portal-record');
const saves = () => api.calls.filter((c) => c.method === 'PUT' && c.path === '/netsuite/portal-crud');

beforeEach(() => {
  signIn();
  resetAppStore();
  api = fakeApi();
  stored = 'Active';
  api.on('GET /netsuite/listConfiguration', () => json({ data: { lists: [], defaultId: projectKind.defaultList } }));
  api.on('GET /netsuite/portal-list', () => json({ data: page(stored) }));
  api.on('GET /netsuite/portal-record', () => json({ data: record(stored) }));
});

afterEach(() => {
  vi.unstubAllGlobals();
  useSessionStore.getState().clearSession();
});

/** Opens the project list, then the first row's status editor; answers the dialog and the status select. */
async function openStatus(user: ReturnType<typeof userEvent.setup>) {
  const view = renderRoutes(routes, '/project/list');
  const table = await screen.findByRole('table');
  await user.click(within(table).getByRole('button', { name: PENCIL }));
  const dialog = await screen.findByRole('dialog', { name: PENCIL });
  const select = await within(dialog).findByRole('combobox', { name: 'Status' });
  return { ...view, table, dialog, select };
}

// Each test opens a list and a dialog, and waits on requests: more than the default 5 s on a busy machine.
describe('inline edit in a list', { timeout: 15_000 }, () => {
  it('saves a status: reads the record, sends its version, the value and an Idempotency-Key, and refreshes the list', async () => {
    const user = userEvent.setup();
    api.on('PUT /netsuite/portal-crud', (_url, init) => {
      const body = JSON.parse(String(init?.body)) as { fields: { entitystatus: string } };
      stored = body.fields.entitystatus;
      return json({ data: record(stored, NEWER) });
    });
    const { table, select, location } = await openStatus(user);
    // The record was read as the dialog opened: the control holds its value now.
    expect(recordReads()).toHaveLength(1);
    expect(recordReads()[0]!.params.get('type')).toBe('project');
    expect(recordReads()[0]!.params.get('id')).toBe('42');
    expect(select).toHaveValue('Active');
    await waitFor(() => expect(select).toHaveFocus());
    const readsBefore = listReads().length;

    await user.selectOptions(select, 'Closed');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(saves()).toHaveLength(1);
    const save = saves()[0]!;
    expect(save.params.get('type')).toBe('project');
    expect(save.params.get('id')).toBe('42');
    expect(save.body).toEqual({ fields: { entitystatus: 'Closed' }, version: VERSION });
    expect(save.headers.get('Idempotency-Key')).toMatch(/.+/);
    // The list read its rows again, and shows the value saved.
    await waitFor(() => expect(listReads().length).toBeGreaterThan(readsBefore));
    await waitFor(() => expect(within(within(table).getAllByRole('row')[1]!).getByText('Closed')).toBeInTheDocument());
    expect(useAppStore.getState().alert?.message).toBe('Saved.');
    expect(useAppStore.getState().alert?.type).toBe('alert-success');
    // The focus is back on the pencil; the page did not move.
    await waitFor(() => expect(within(table).getByRole('button', { name: PENCIL })).toHaveFocus());
    expect(location()).toBe('/project/list');
  });

  it('says a change is on its way to NetSuite while it is', async () => {
    const user = userEvent.setup();
    api.on('PUT /netsuite/portal-crud', () => json({ data: record('Closed', NEWER, { write: { state: 'pending' } }) }));
    const { select } = await openStatus(user);
    await user.selectOptions(select, 'Closed');
    // Enter saves from the select.
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(saves()).toHaveLength(1);
    expect(useAppStore.getState().alert?.message).toBe('Saved. The change is on its way to NetSuite.');
  });

  it('shows a field error of the server under the control and keeps the value', async () => {
    const user = userEvent.setup();
    api.on('PUT /netsuite/portal-crud', () =>
      problem(422, 'The project could not be saved.', [{ field: 'entitystatus', message: 'A closed project needs an end date.' }]),
    );
    const { dialog, select } = await openStatus(user);
    await user.selectOptions(select, 'Closed');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await within(dialog).findByText('A closed project needs an end date.')).toBeInTheDocument();
    expect(select).toHaveValue('Closed');
    expect(select).toHaveAttribute('aria-invalid', 'true');
    expect(select).toHaveAccessibleDescription(/A closed project needs an end date\./);
    expect(screen.getByRole('dialog', { name: PENCIL })).toBeInTheDocument();
    expect(useAppStore.getState().alert).toBeNull();
  });

  it('after a 409 shows the value saved meanwhile, keeps the input and saves again on the new version', async () => {
    const user = userEvent.setup();
    let calls = 0;
    api.on('PUT /netsuite/portal-crud', () => {
      calls += 1;
      if (calls === 1) {
        return json(
          {
            type: 'about:blank',
            title: 'Conflict',
            status: 409,
            detail: 'Someone changed this record since you opened it.',
            current: { id: 42, companyname: WETLAND, entityid: 'PRJ-42', entitystatus: 'Proposed', version: NEWER },
          },
          409,
        );
      }
      stored = 'Closed';
      return json({ data: record('Closed', '2026-11-22T10:06:00Z') });
    });
    const { dialog, select } = await openStatus(user);
    await user.selectOptions(select, 'Closed');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Changed since you opened it');
    expect(alert).toHaveTextContent('Someone changed this record since you opened it.');
    expect(within(dialog).getByText('Saved meanwhile: Proposed')).toBeInTheDocument();
    expect(select).toHaveValue('Closed');

    await user.click(within(alert).getByRole('button', { name: 'Use my values and save again' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(saves()).toHaveLength(2);
    expect(saves()[1]!.body).toEqual({ fields: { entitystatus: 'Closed' }, version: NEWER });
    // A new request, a new key.
    expect(saves()[1]!.headers.get('Idempotency-Key')).not.toBe(saves()[0]!.headers.get('Idempotency-Key'));
    expect(useAppStore.getState().alert?.message).toBe('Saved.');
  });

  it('keeps the input after a network failure, and a retry reuses the Idempotency-Key', async () => {
    const user = userEvent.setup();
    let calls = 0;
    api.on('PUT /netsuite/portal-crud', () => {
      calls += 1;
      if (calls === 1) throw new TypeError('Failed to fetch');
      return json({ data: record('Closed', NEWER) });
    });
    const { dialog, select } = await openStatus(user);
    await user.selectOptions(select, 'Closed');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(/Could not save the project/);
    expect(select).toHaveValue('Closed');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(saves()).toHaveLength(2);
    expect(saves()[1]!.headers.get('Idempotency-Key')).toBe(saves()[0]!.headers.get('Idempotency-Key'));
  });

  it('checks the value as the form does before sending it', async () => {
    const user = userEvent.setup();
    const titled: Kind = { ...projectKind, fields: projectKind.fields.map((f) => (f.name === 'companyname' ? { ...f, required: true } : f)) };
    api.on('GET /kinds', () => json({ data: [titled, customerKind, billingKind] }));
    const view = renderRoutes(routes, '/project/list');
    const table = await view.findByRole('table');
    await user.click(within(table).getByRole('button', { name: `Change Contract value of “${WETLAND}”` }));
    // Money in its currency, as the form shows it.
    expect(await within(await screen.findByRole('dialog')).findByRole('textbox', { name: 'Contract value' })).toHaveValue('$125,000.5');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(within(table).getByRole('button', { name: `Change Project name of “${WETLAND}”` }));
    const dialog = await screen.findByRole('dialog');
    const name = await within(dialog).findByRole('textbox', { name: /Project name/ });
    expect(name).toHaveValue(WETLAND);
    await user.clear(name);
    await user.keyboard('{Enter}');
    expect(await within(dialog).findByText('Project name is required.')).toBeInTheDocument();
    expect(name).toHaveFocus();
    expect(saves()).toHaveLength(0);
  });

  it('Escape and Cancel close without saving, the focus back on the pencil', async () => {
    const user = userEvent.setup();
    const { table, select } = await openStatus(user);
    await user.selectOptions(select, 'Closed');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(within(table).getByRole('button', { name: PENCIL })).toHaveFocus());

    await user.click(within(table).getByRole('button', { name: PENCIL }));
    const dialog = await screen.findByRole('dialog', { name: PENCIL });
    // Opened afresh: the record is read again, the value is the record's.
    expect(await within(dialog).findByRole('combobox', { name: 'Status' })).toHaveValue('Active');
    expect(recordReads()).toHaveLength(2);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(saves()).toHaveLength(0);
  });

  it('a click on the pencil or in its dialog does not open the row; the pencil closes its dialog', async () => {
    const user = userEvent.setup();
    const { dialog, location } = await openStatus(user);
    await user.click(within(dialog).getByText('Status'));
    await user.click(dialog);
    expect(location()).toBe('/project/list');
    expect(screen.getByRole('dialog', { name: PENCIL })).toBeInTheDocument();
    // The pencil again closes it.
    const pencil = screen.getByRole('button', { name: PENCIL });
    expect(pencil).toHaveAttribute('aria-expanded', 'true');
    await user.click(pencil);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(pencil).toHaveAttribute('aria-expanded', 'false');
    expect(pencil).toHaveFocus();
    expect(location()).toBe('/project/list');
  });

  it('offers a pencil only on the fields a form edits, and none when the role may not edit the kind', async () => {
    const readOnlyTotal: Kind = {
      ...projectKind,
      fields: projectKind.fields.map((f) => (f.name === 'projectedtotal' ? { ...f, readOnly: true } : f)),
    };
    api.on('GET /kinds', () => json({ data: [readOnlyTotal, customerKind, billingKind] }));
    const view = renderRoutes(routes, '/project/list');
    const table = await view.findByRole('table');
    const row = within(table).getAllByRole('row')[1]!;
    const pencils = within(row)
      .getAllByRole('button', { name: /^Change / })
      .map((b) => b.getAttribute('aria-label'));
    // The title, the status and the date; not the code, a reference or a system field.
    expect(pencils).toEqual([`Change Project name of “${WETLAND}”`, PENCIL, `Change Start date of “${WETLAND}”`]);

    // Billing: the role may not edit it.
    api.on('GET /netsuite/portal-list', () =>
      json({
        data: {
          list: { id: billingKind.defaultList, name: 'All billing' },
          columns: [
            { name: 'name', label: 'Milestone', type: 'text' },
            { name: 'custrecord_res_bil_amount', label: 'Amount', type: 'money' },
          ],
          rows: [{ id: 5, name: 'Phase 1', custrecord_res_bil_amount: 100 }],
          hasMore: false,
          nextCursor: null,
        } satisfies ListPage,
      }),
    );
    await view.router.navigate('/billing/list');
    const billing = await screen.findByRole('table', { name: /^Billing/ });
    await within(billing).findByText('Phase 1');
    expect(within(billing).queryByRole('button', { name: /^Change / })).toBeNull();
  });
});

describe('isInlineEditable and savedMessage', () => {
  const field = (over: Partial<Kind['fields'][number]>) => ({ name: 'x', label: 'X', column: 'fields.x', type: 'text' as const, ...over });
  it('takes the form’s editable fields of the types a control edits on its own', () => {
    expect(isInlineEditable(projectKind, field({ type: 'status' }))).toBe(true);
    expect(isInlineEditable(projectKind, field({ type: 'boolean' }))).toBe(true);
    expect(isInlineEditable(projectKind, field({ type: 'phone' }))).toBe(true);
    expect(isInlineEditable(projectKind, field({ type: 'reference', ref: 'customer' }))).toBe(false);
    expect(isInlineEditable(projectKind, field({ readOnly: true }))).toBe(false);
    expect(isInlineEditable(projectKind, field({ column: 'code' }))).toBe(false);
    expect(isInlineEditable({ ...projectKind, canEdit: false }, field({}))).toBe(false);
    expect(isInlineEditable(projectKind, undefined)).toBe(false);
  });

  it('says what became of the save', () => {
    expect(savedMessage(record('Closed'), projectKind)).toBe('Saved.');
    expect(savedMessage({ ...record('Closed'), unchanged: true }, projectKind)).toBe('The project already has this value: nothing was saved.');
    expect(savedMessage(record('Closed', VERSION, { write: { state: 'failed', error: 'Locked' } }), projectKind)).toBe('Saved here, but NetSuite did not take it: Locked');
  });
});
