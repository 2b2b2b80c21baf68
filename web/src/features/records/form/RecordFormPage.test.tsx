import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSessionStore } from '../../../lib/session/store';
import { initialAppState, useAppStore } from '../../../lib/appState';
import RecordFormPage from '../RecordFormPage';
import RecordTabPage from '../RecordTabPage';
import RecordViewPage from '../RecordViewPage';
import { fakeApi, json, problem, renderRoutes, signIn, type FakeApi } from '../testing';
import { useOutbox } from '../offline/outbox';
import { IDBFactory } from 'fake-indexeddb';
import type { Kind, RecordDetail } from '../types';

const customer: Kind = {
  name: 'customer',
  route: 'customer',
  label: 'Client',
  plural: 'Clients',
  erpType: 'customer',
  defaultList: 'customsearch_res_customer_list',
  fields: [
    { name: 'companyname', label: 'Client name', column: 'title', type: 'text', required: true },
    { name: 'entityid', label: 'Client ID', column: 'code', type: 'text', readOnly: true },
    { name: 'entitystatus', label: 'Status', column: 'status', type: 'status', choices: ['Prospect', 'Active', 'Inactive'], required: true },
    { name: 'balance', label: 'Balance', column: 'amount', type: 'money', currency: 'USD', readOnly: true },
    { name: 'datecreated', label: 'Client since', column: 'occurred_on', type: 'date', readOnly: true },
    { name: 'email', label: 'Email', column: 'fields.email', type: 'email' },
    { name: 'url', label: 'Website', column: 'fields.url', type: 'url' },
    { name: 'isinactive', label: 'Inactive', column: 'fields.isinactive', type: 'boolean' },
  ],
  tabs: [
    { name: 'files', label: 'Files', source: 'files' },
    { name: 'history', label: 'History', source: 'history' },
  ],
  canCreate: true,
  canEdit: true,
  canApprove: false,
};

const opportunity: Kind = {
  name: 'customrecord_res_opportunity',
  route: 'opportunity',
  label: 'Opportunity',
  plural: 'Opportunities',
  erpType: 'customrecord_res_opportunity',
  defaultList: 'customsearch_res_opportunity_list',
  fields: [
    { name: 'name', label: 'Opportunity', column: 'title', type: 'text', required: true },
    { name: 'custrecord_res_opp_customer', label: 'Client', column: 'parent_id', type: 'reference', ref: 'customer', required: true },
  ],
  tabs: [
    { name: 'files', label: 'Files', source: 'files' },
    { name: 'credits', label: "Client's credits", source: 'custom', kind: 'creditledger' },
  ],
  canCreate: true,
  canEdit: false,
  canApprove: false,
};

const VERSION = '2026-11-22T10:00:00.123Z';
const NEWER = '2026-11-22T10:05:00.456Z';

function view(id: number, values: { companyname: string; entityid?: string; entitystatus?: string; balance?: number | null }, extra: Partial<RecordDetail> = {}): RecordDetail {
  return {
    id,
    type: 'customer',
    title: values.companyname,
    code: values.entityid ?? '',
    status: values.entitystatus ?? 'Active',
    erpUrl: null,
    groups: [
      {
        label: 'Summary',
        fields: [
          { name: 'companyname', label: 'Client name', type: 'text', value: values.companyname },
          { name: 'entityid', label: 'Client ID', type: 'text', value: values.entityid ?? '' },
          { name: 'entitystatus', label: 'Status', type: 'status', value: values.entitystatus ?? 'Active' },
          { name: 'balance', label: 'Balance', type: 'money', value: values.balance ?? null },
          { name: 'datecreated', label: 'Client since', type: 'date', value: '2024-03-07' },
        ],
      },
      {
        label: 'Details',
        fields: [
          { name: 'email', label: 'Email', type: 'email', value: 'ap@acme.example' },
          { name: 'isinactive', label: 'Inactive', type: 'boolean', value: false },
        ],
      },
    ],
    tabs: customer.tabs,
    related: [],
    version: VERSION,
    write: { state: '' },
    ...extra,
  };
}

const routes = [
  {
    path: '/customer',
    handle: { model: 'customer' },
    children: [
      { path: 'list', handle: { isList: true }, Component: () => <h1>Client list</h1> },
      { path: 'view', handle: { isView: true }, Component: RecordViewPage, children: [{ path: ':tab', Component: RecordTabPage }] },
      { path: 'create', handle: { isCreate: true }, Component: RecordFormPage },
      { path: 'edit', handle: { isEdit: true }, Component: RecordFormPage },
    ],
  },
  {
    path: '/opportunity',
    handle: { model: 'customrecord_res_opportunity' },
    children: [
      { path: 'list', handle: { isList: true }, Component: () => <h1>Opportunity list</h1> },
      {
        path: 'create',
        handle: { isCreate: true },
        Component: RecordFormPage,
        children: [
          { path: 'credits', handle: { tab: 'credits' }, Component: RecordTabPage },
          { path: ':tab', Component: RecordTabPage },
        ],
      },
      { path: 'edit', handle: { isEdit: true }, Component: RecordFormPage },
    ],
  },
];

let api: FakeApi;
let stored: RecordDetail;

beforeEach(() => {
  signIn();
  api = fakeApi();
  stored = view(7, { companyname: 'Acme Water', entityid: 'CUS-7', balance: 100 });
  api.on('GET /kinds', () => json({ data: [customer, opportunity] }));
  api.on('GET /netsuite/portal-record', (url) => (url.searchParams.get('id') === String(stored.id) ? json({ data: stored }) : problem(404, 'No such record.')));
});

afterEach(() => {
  vi.unstubAllGlobals();
  useSessionStore.getState().clearSession();
  useAppStore.setState(initialAppState);
});

const field = (name: RegExp | string) => screen.getByRole('textbox', { name });
const saves = () => api.calls.filter((c) => c.path === '/netsuite/portal-crud');

describe('RecordFormPage: create', () => {
  it('labels every control after its field, marks the required ones, and checks the form before sending', async () => {
    const user = userEvent.setup();
    renderRoutes(routes, '/customer/create');
    expect(await screen.findByRole('heading', { level: 1, name: 'New client' }, { timeout: 5000 })).toBeInTheDocument();
    expect(field(/Client name/)).toBeRequired();
    expect(screen.getByRole('combobox', { name: /Status/ })).toBeRequired();
    // The system's fields (the id, the balance, the date it was made) are not the user's to type.
    expect(screen.queryByLabelText(/Client ID/)).not.toBeInTheDocument();
    expect(screen.queryByLabelText(/Balance/)).not.toBeInTheDocument();
    expect(screen.queryByLabelText(/Client since/)).not.toBeInTheDocument();
    // Each field has the control of its type.
    expect(field(/Email/)).toHaveAttribute('type', 'email');
    expect(field(/Website/)).toHaveAttribute('type', 'url');
    expect(screen.getByRole('checkbox', { name: 'Inactive' })).not.toBeChecked();

    await user.type(field(/Email/), 'accounts at acme');
    await user.type(field(/Website/), 'acme.example');
    await user.click(screen.getByRole('button', { name: 'Create client' }));

    expect(await screen.findByText('Client name is required.')).toBeInTheDocument();
    expect(screen.getByText('Status is required.')).toBeInTheDocument();
    expect(screen.getByText('Enter an email address such as name@example.com.')).toBeInTheDocument();
    expect(screen.getByText('Enter a web address starting with https:// or http://.')).toBeInTheDocument();
    expect(field(/Client name/)).toHaveAttribute('aria-invalid', 'true');
    expect(field(/Client name/)).toHaveFocus();
    expect(field(/Email/)).toHaveValue('accounts at acme');
    expect(saves()).toHaveLength(0);

    // Correcting a field clears its message as it is typed.
    await user.type(field(/Client name/), 'New Co');
    expect(screen.queryByText('Client name is required.')).not.toBeInTheDocument();
  });

  it('checks a field when it is left, but not when it is left for the Save button (the message would move the button away)', async () => {
    const user = userEvent.setup();
    renderRoutes(routes, '/customer/create');
    await user.type(await screen.findByRole('textbox', { name: /Email/ }), 'accounts at acme');
    const create = screen.getByRole('button', { name: 'Create client' });
    fireEvent.blur(field(/Email/), { relatedTarget: create });
    expect(screen.queryByText('Enter an email address such as name@example.com.')).not.toBeInTheDocument();
    fireEvent.blur(field(/Email/), { relatedTarget: field(/Website/) });
    expect(screen.getByText('Enter an email address such as name@example.com.')).toBeInTheDocument();
  });

  it('sends the fields, then opens the new record with a success alert', async () => {
    const user = userEvent.setup();
    api.on('POST /netsuite/portal-crud', (_url, init) => {
      const { fields } = JSON.parse(String(init?.body)) as { fields: { companyname: string } };
      stored = view(31, { companyname: fields.companyname, entitystatus: 'Prospect' });
      return json({ data: stored }, 201);
    });
    const { location } = renderRoutes(routes, '/customer/create');
    await user.type(await screen.findByRole('textbox', { name: /Client name/ }), 'River Co');
    await user.selectOptions(screen.getByRole('combobox', { name: /Status/ }), 'Prospect');
    await user.type(field(/Email/), 'ap@river.example');
    await user.click(screen.getByRole('checkbox', { name: 'Inactive' }));
    await user.click(screen.getByRole('button', { name: 'Create client' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'River Co' }, { timeout: 5000 })).toBeInTheDocument();
    expect(location()).toBe('/customer/view?id=31');
    expect(saves()).toHaveLength(1);
    // Every field the user may set, none of the system's.
    expect(saves()[0]).toMatchObject({
      method: 'POST',
      body: { fields: { companyname: 'River Co', entitystatus: 'Prospect', email: 'ap@river.example', url: '', isinactive: true } },
    });
    expect(Object.keys((saves()[0]?.body as { fields: object }).fields).sort()).toEqual(['companyname', 'email', 'entitystatus', 'isinactive', 'url']);
    expect(saves()[0]?.params.get('type')).toBe('customer');
    expect(useAppStore.getState().alert).toMatchObject({ title: 'Client created', type: 'alert-success' });
    // No leave dialog on the way to the saved record.
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('sends one Idempotency-Key per submission: the same on a retry, a new one once the fields change', async () => {
    const user = userEvent.setup();
    api.on('POST /netsuite/portal-crud', () => problem(503, 'The database is busy. Please try again.'));
    renderRoutes(routes, '/customer/create');
    await user.type(await screen.findByRole('textbox', { name: /Client name/ }), 'River Co');
    await user.selectOptions(screen.getByRole('combobox', { name: /Status/ }), 'Prospect');
    await user.click(screen.getByRole('button', { name: 'Create client' }));
    await waitFor(() => expect(saves()).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: 'Create client' }));
    await waitFor(() => expect(saves()).toHaveLength(2));
    await user.type(field(/Client name/), ' Ltd');
    await user.click(screen.getByRole('button', { name: 'Create client' }));
    await waitFor(() => expect(saves()).toHaveLength(3));

    const keys = saves().map((c) => c.headers.get('Idempotency-Key'));
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[2]).not.toBe(keys[0]);
  });

  it('shows the server’s field errors under their fields and keeps every input', async () => {
    const user = userEvent.setup();
    api.on('POST /netsuite/portal-crud', () =>
      problem(422, 'Please correct the highlighted fields.', [
        { field: 'companyname', message: 'A client of that name exists.' },
        { field: 'hacker', message: 'This field is not on the client form.' },
      ]),
    );
    renderRoutes(routes, '/customer/create');
    await user.type(await screen.findByRole('textbox', { name: /Client name/ }), 'Acme Water');
    await user.type(field(/Email/), 'ap@acme.example');
    await user.selectOptions(screen.getByRole('combobox', { name: /Status/ }), 'Active');
    await user.click(screen.getByRole('button', { name: 'Create client' }));

    expect(await screen.findByText('A client of that name exists.')).toBeInTheDocument();
    expect(field(/Client name/)).toHaveAttribute('aria-invalid', 'true');
    const alert = screen.getByRole('alert', { name: 'Please correct the highlighted fields.' });
    expect(alert).toHaveTextContent('This field is not on the client form.');
    expect(field(/Client name/)).toHaveValue('Acme Water');
    expect(field(/Email/)).toHaveValue('ap@acme.example');
    expect(screen.getByRole('combobox', { name: /Status/ })).toHaveValue('Active');
  });

  it('says a tab needs the saved record instead of loading it', async () => {
    renderRoutes(routes, '/opportunity/create/credits');
    expect(await screen.findByRole('heading', { level: 1, name: 'New opportunity' }, { timeout: 5000 })).toBeInTheDocument();
    const tabs = screen.getByRole('navigation', { name: 'Opportunity sections' });
    expect(within(tabs).getByRole('link', { name: "Client's credits" })).toHaveAttribute('aria-current', 'page');
    expect(within(tabs).getByRole('link', { name: 'Files' })).toHaveAttribute('href', '/opportunity/create/files');
    expect(screen.getByText("Client's credits will show here once the opportunity is created.")).toBeInTheDocument();
    expect(api.calls.filter((c) => c.path !== '/kinds')).toHaveLength(0);
  });

  it('tells a role without the right that it may not', async () => {
    renderRoutes(routes, '/opportunity/edit?id=3');
    expect(await screen.findByRole('alert')).toHaveTextContent('Your current role may not edit opportunities.');
  });
});

describe('RecordFormPage: edit', () => {
  it('opens with the record’s values and sends them back with its version', async () => {
    const user = userEvent.setup();
    api.on('PUT /netsuite/portal-crud', (_url, init) => {
      const { fields } = JSON.parse(String(init?.body)) as { fields: { companyname: string } };
      stored = view(7, { companyname: fields.companyname, entityid: 'CUS-7', balance: 100 }, { version: NEWER });
      return json({ data: stored });
    });
    renderRoutes(routes, '/customer/edit?id=7');
    expect(await screen.findByRole('heading', { level: 1, name: 'Edit Acme Water' }, { timeout: 5000 })).toBeInTheDocument();
    expect(field(/Client name/)).toHaveValue('Acme Water');
    expect(field(/Email/)).toHaveValue('ap@acme.example');
    // The system's fields are shown as the record page shows them, and cannot be changed.
    expect(field(/Client ID/)).toHaveValue('CUS-7');
    expect(field(/Client ID/)).toHaveAttribute('readonly');
    expect(field(/Balance/)).toHaveValue('$100.00');
    expect(field(/Balance/)).toHaveAttribute('readonly');
    await user.type(field(/Client ID/), '-B');
    expect(field(/Client ID/)).toHaveValue('CUS-7');
    await user.clear(field(/Client name/));
    await user.type(field(/Client name/), 'Acme Water & Power');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Acme Water & Power' }, { timeout: 5000 })).toBeInTheDocument();
    expect(saves()[0]).toMatchObject({
      method: 'PUT',
      // An edit sends what changed, and never the system's fields.
      body: { fields: { companyname: 'Acme Water & Power' }, version: VERSION },
    });
    expect(Object.keys((saves()[0]?.body as { fields: object }).fields)).toEqual(['companyname']);
    expect(saves()[0]?.params.get('id')).toBe('7');
  });

  it('offline, keeps the edit on the device with its key and goes back to the record, saying so', async () => {
    vi.stubGlobal('indexedDB', new IDBFactory());
    const user = userEvent.setup();
    renderRoutes(routes, '/customer/edit?id=7');
    expect(await screen.findByRole('heading', { level: 1, name: 'Edit Acme Water' }, { timeout: 5000 })).toBeInTheDocument();
    await user.clear(field(/Client name/));
    await user.type(field(/Client name/), 'Acme Water on site');
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Acme Water' }, { timeout: 5000 })).toBeInTheDocument();
    expect(saves()).toHaveLength(0);
    const [kept] = useOutbox.getState().changes;
    expect(kept).toMatchObject({ type: 'customer', recordId: 7, state: 'waiting', input: { fields: { companyname: 'Acme Water on site' }, version: VERSION } });
    expect(kept?.input.idempotencyKey).toBe(kept?.id);
    expect(useAppStore.getState().alert).toMatchObject({ title: 'Kept on this device', type: 'alert-info' });
    useOutbox.setState({ changes: [] });
  });

  it('after a 409 keeps the input, shows what is saved now where it differs, and saves again on the new version', async () => {
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
            current: {
              id: 7,
              companyname: 'Acme Water Ltd',
              entityid: 'CUS-7',
              entitystatus: 'Inactive',
              balance: 100,
              datecreated: '2024-03-07',
              email: 'ap@acme.example',
              url: null,
              isinactive: false,
              version: NEWER,
            },
          },
          409,
        );
      }
      stored = view(7, { companyname: 'Acme Mine' }, { version: '2026-11-22T10:06:00Z' });
      return json({ data: stored });
    });
    const { location } = renderRoutes(routes, '/customer/edit?id=7');
    await user.clear(await screen.findByRole('textbox', { name: /Client name/ }));
    await user.type(field(/Client name/), 'Acme Mine');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Someone changed this record since you opened it.');
    expect(field(/Client name/)).toHaveValue('Acme Mine');
    expect(screen.getByText('Saved meanwhile: Acme Water Ltd')).toBeInTheDocument();
    expect(screen.getByText('Saved meanwhile: Inactive')).toBeInTheDocument();
    // Fields equal to what is saved now have no note.
    expect(screen.getAllByText(/^Saved meanwhile/)).toHaveLength(2);
    expect(location()).toBe('/customer/edit?id=7');

    await user.click(within(alert).getByRole('button', { name: 'Use my values and save again' }));
    await waitFor(() => expect(saves()).toHaveLength(2));
    expect(await screen.findByRole('heading', { level: 1, name: 'Acme Mine' }, { timeout: 5000 })).toBeInTheDocument();
    expect(saves()[1]?.body).toMatchObject({ fields: { companyname: 'Acme Mine', entitystatus: 'Active' }, version: NEWER });
  });

  it('can drop the input for the values saved now after a 409', async () => {
    const user = userEvent.setup();
    api.on('PUT /netsuite/portal-crud', () =>
      json({ status: 409, detail: 'Changed.', current: { id: 7, companyname: 'Acme Water Ltd', entityid: 'CUS-7', entitystatus: 'Active', balance: 250, datecreated: null, version: NEWER } }, 409),
    );
    renderRoutes(routes, '/customer/edit?id=7');
    await user.type(await screen.findByRole('textbox', { name: /Email/ }), '.uk');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await user.click(await screen.findByRole('button', { name: 'Load the current values' }));
    expect(field(/Client name/)).toHaveValue('Acme Water Ltd');
    expect(field(/Email/)).toHaveValue('');
    expect(field(/Balance/)).toHaveValue('$250.00');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByText('Unsaved changes')).not.toBeInTheDocument();
  });

  it('asks before leaving with unsaved changes: Stay keeps the input, Leave goes', async () => {
    const user = userEvent.setup();
    const { location } = renderRoutes(routes, '/customer/edit?id=7');
    // Untouched: leaving does not ask.
    await user.click(await screen.findByRole('link', { name: 'Cancel' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Acme Water' }, { timeout: 5000 })).toBeInTheDocument();
    expect(location()).toBe('/customer/view?id=7');

    await user.click(screen.getByRole('link', { name: 'Edit' }));
    await user.type(await screen.findByRole('textbox', { name: /Email/ }), '.uk');
    expect(screen.getByText('Unsaved changes')).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Cancel' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave without saving?' });
    await user.click(within(dialog).getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(location()).toBe('/customer/edit?id=7');
    expect(field(/Email/)).toHaveValue('ap@acme.example.uk');

    await user.click(screen.getByRole('link', { name: 'Clients' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Leave' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Client list' }, { timeout: 5000 })).toBeInTheDocument();
    expect(saves()).toHaveLength(0);
  });
});

describe('RecordFormPage: nothing changed', () => {
  it('does not send an unchanged form, and says so', async () => {
    const user = userEvent.setup();
    renderRoutes(routes, '/customer/edit?id=7');
    const save = await screen.findByRole('button', { name: 'Save changes' });
    expect(save).toBeDisabled();
    expect(screen.getByText('No changes to save')).toBeInTheDocument();
    // A change undone is no change.
    await user.type(field(/Client name/), '!');
    expect(save).toBeEnabled();
    expect(screen.getByText('Unsaved changes')).toBeInTheDocument();
    await user.type(field(/Client name/), '{Backspace}');
    expect(save).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: 'Inactive' }));
    await user.click(screen.getByRole('checkbox', { name: 'Inactive' }));
    expect(save).toBeDisabled();
    // Enter in a field does not send it either.
    await user.type(field(/Client name/), '{Enter}');
    expect(saves()).toHaveLength(0);
  });

  it('says so when the server found nothing to change, and writes nothing', async () => {
    const user = userEvent.setup();
    api.on('PUT /netsuite/portal-crud', () => json({ data: { ...stored, unchanged: true } }));
    const { location } = renderRoutes(routes, '/customer/edit?id=7');
    await user.type(await screen.findByRole('textbox', { name: /Website/ }), 'https://acme.example');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByRole('status', { name: 'No changes to save' })).toHaveTextContent('already has these values');
    expect(location()).toBe('/customer/edit?id=7');
    expect(useAppStore.getState().alert).toBeNull();
    expect(screen.getByRole('button', { name: 'Save changes' })).toBeDisabled();
  });
});

describe('RecordViewPage: write actions', () => {
  it('offers Edit when the role may edit, and shows a failed write', async () => {
    stored = view(7, { companyname: 'Acme Water' }, { write: { state: 'failed', error: 'Invalid entity status.' } });
    renderRoutes(routes, '/customer/view?id=7');
    expect(await screen.findByRole('link', { name: 'Edit' })).toHaveAttribute('href', '/customer/edit?id=7');
    expect(screen.getByRole('alert')).toHaveTextContent('NetSuite answered: Invalid entity status.');
  });

  it('shows a pending write, and no Edit to a role that may not', async () => {
    stored = view(7, { companyname: 'Acme Water' }, { write: { state: 'pending' } });
    api.on('GET /kinds', () => json({ data: [{ ...customer, canEdit: false }, opportunity] }));
    renderRoutes(routes, '/customer/view?id=7');
    expect(await screen.findByText(/on its way to NetSuite/)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Edit' })).not.toBeInTheDocument();
  });
});
