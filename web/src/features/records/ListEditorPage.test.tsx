import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api';
import { resetAppStore, useAppStore } from '../../lib/appState';
import { useSessionStore } from '../../lib/session/store';
import { move, newListForm, serverErrors, validateListForm } from './listEditor';
import { fakeApi, json, problem, projectKind, renderRoutes, role, signIn, type FakeApi } from './testing';
import type { ListConfig } from './types';
import ListEditorPage from './ListEditorPage';

const routes = [
  { path: '/list/edit', Component: ListEditorPage },
  { path: '/project/list', Component: () => <h1>Project list</h1> },
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
const mine: ListConfig = {
  ...builtIn,
  id: 'list-mine',
  name: 'Active projects',
  columns: ['companyname', 'entitystatus', 'startdate'],
  filter: 'entitystatus eq Active',
  sort: { field: 'startdate', dir: 'desc' },
  visibility: 'private',
  builtIn: false,
  editable: true,
};

let api: FakeApi;

beforeEach(() => {
  signIn();
  resetAppStore();
  api = fakeApi();
  api.on('GET /netsuite/listConfiguration', () => json({ data: { lists: [builtIn, mine], defaultId: builtIn.id } }));
});

afterEach(() => {
  vi.unstubAllGlobals();
  useSessionStore.getState().clearSession();
});

const columnNames = () => screen.getAllByTestId('editor-column').map((li) => li.textContent?.replace(/^\d+\. /, '').replace(/UpDownRemove$/, ''));
const saves = () => api.calls.filter((c) => c.method === 'POST' || c.method === 'PUT');

describe('list editor form', () => {
  it('moves items within bounds', () => {
    expect(move(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b']);
    expect(move(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(move(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(move(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'b', 'c']);
  });

  it('validates name, columns, sort and filter', () => {
    const form = newListForm(projectKind, builtIn);
    const empty = validateListForm({ ...form, name: '  ', columns: [], sortField: 'customer' }, projectKind, [builtIn]);
    expect(empty.input).toBeUndefined();
    expect(empty.errors).toEqual({ name: 'Give the list a name.', columns: 'Choose at least one column.', sort: 'Choose the field to sort by.' });
    expect(validateListForm({ ...form, name: 'x'.repeat(81) }, projectKind, []).errors.name).toMatch(/80 characters/);
    expect(validateListForm({ ...form, name: 'all PROJECTS' }, projectKind, [builtIn]).errors.name).toMatch(/already a list named/);
    const badFilter = validateListForm({ ...form, name: 'x', filter: { mode: 'text', clauses: [], text: 'entitystatus eq' } }, projectKind, []);
    expect(badFilter.errors.filter).toMatch(/Missing a value/);
    const ok = validateListForm({ ...form, name: ' Mine ' }, projectKind, [builtIn]);
    expect(ok.input).toEqual({ name: 'Mine', columns: builtIn.columns, filter: '', sort: { field: 'companyname', dir: 'asc' }, visibility: 'private' });
  });

  it('maps the server’s 422 field errors onto the form', () => {
    const error = new ApiError('422', 'Check the highlighted fields.', 422, {
      detail: 'Check the highlighted fields.',
      errors: [
        { field: 'name', message: 'Give the list a name.' },
        { field: 'sort', message: 'Cannot sort by "customer".' },
        { field: 'owner', message: 'Odd.' },
      ],
    });
    expect(serverErrors(error)).toEqual({ name: 'Give the list a name.', sort: 'Cannot sort by "customer".', form: 'Odd.' });
    expect(serverErrors(new ApiError('403', 'Only its owner can change this list.', 403))).toEqual({ form: 'Only its owner can change this list.' });
  });
});

describe('ListEditorPage', () => {
  it('asks for the record type first', async () => {
    const user = userEvent.setup();
    const { location } = renderRoutes(routes, '/list/edit');
    await user.selectOptions(await screen.findByLabelText('Which records is the list for?'), 'project');
    await waitFor(() => expect(location()).toBe('/list/edit?type=project'));
    expect(await screen.findByRole('heading', { name: 'New list of projects' })).toBeInTheDocument();
  });

  it('refuses to save an invalid list and says why, next to each field', async () => {
    const user = userEvent.setup();
    renderRoutes(routes, '/list/edit?type=project');
    await screen.findByRole('heading', { name: 'New list of projects' });
    for (const name of ['Project name', 'Project ID', 'Status', 'Client', 'Contract value', 'Start date']) {
      await user.click(screen.getByRole('button', { name: `Remove ${name}` }));
    }
    await user.click(screen.getByRole('button', { name: 'Save list' }));
    expect(await screen.findByText('Give the list a name.')).toBeInTheDocument();
    expect(screen.getByText('Choose at least one column.')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Name/)).toHaveFocus();
    expect(saves()).toEqual([]);
  });

  it('creates a list: columns reordered by keyboard, a filter, sort and sharing; it becomes the default', async () => {
    const user = userEvent.setup();
    api.on('POST /netsuite/listConfiguration', (_url, init) => json({ data: { ...mine, ...JSON.parse(String(init?.body)), id: 'list-new', editable: true } }, 201));
    const { location } = renderRoutes(routes, '/list/edit?type=project');
    await screen.findByRole('heading', { name: 'New list of projects' });
    await user.type(screen.getByLabelText(/^Name/), 'Big contracts');
    // Keyboard: focus Start date's Up button and press it twice; focus stays on it.
    const up = screen.getByRole('button', { name: 'Move Start date up' });
    up.focus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('button', { name: 'Move Start date up' })).toHaveFocus();
    await user.keyboard('{Enter}');
    await user.click(screen.getByRole('button', { name: 'Remove Client' }));
    expect(columnNames()).toEqual(['Project name', 'Project ID', 'Status', 'Start date', 'Contract value']);
    await user.click(screen.getByRole('button', { name: 'Add condition' }));
    await user.selectOptions(screen.getByLabelText('Condition 1 field'), 'projectedtotal');
    await user.selectOptions(screen.getByLabelText('Condition 1 operator'), 'ge');
    await user.type(screen.getByLabelText('Condition 1 value'), '100000');
    await user.selectOptions(screen.getByLabelText('Sort by'), 'projectedtotal');
    await user.selectOptions(screen.getByLabelText('Direction'), 'desc');
    // References cannot be sorted by.
    expect(within(screen.getByLabelText('Sort by')).queryByRole('option', { name: 'Client' })).toBeNull();
    await user.click(screen.getByRole('radio', { name: 'Everyone working as Administrator' }));
    await user.click(screen.getByRole('button', { name: 'Save list' }));

    await waitFor(() => expect(location()).toBe('/project/list?list=list-new'));
    const [save] = saves();
    expect(save!.params.get('type')).toBe('project');
    expect(save!.body).toEqual({
      name: 'Big contracts',
      columns: ['companyname', 'entityid', 'entitystatus', 'startdate', 'projectedtotal'],
      filter: 'projectedtotal ge 100000',
      sort: { field: 'projectedtotal', dir: 'desc' },
      visibility: 'role',
    });
    expect(useAppStore.getState().defaultLists).toEqual({ project: 'list-new' });
  });

  it('shares a list with another role the user holds, then says where it went', async () => {
    const user = userEvent.setup();
    const pm = { ...role, _id: 'role-pm', id: 1002, name: 'Project Manager' };
    useSessionStore.getState().hydrate({ user: { ...useSessionStore.getState().user!, roles: [role, pm] } });
    api.on('POST /netsuite/listConfiguration', (_url, init) => json({ data: { ...mine, ...JSON.parse(String(init?.body)), id: 'list-pm', editable: true } }, 201));
    const { location } = renderRoutes(routes, '/list/edit?type=project');
    await screen.findByRole('heading', { name: 'New list of projects' });
    await user.type(screen.getByLabelText(/^Name/), 'For the managers');
    await user.click(screen.getByRole('radio', { name: 'Everyone working as Project Manager' }));
    await user.click(screen.getByRole('button', { name: 'Save list' }));
    // This role does not see it: the kind's list opens, and the alert says where the list is.
    await waitFor(() => expect(location()).toBe('/project/list'));
    expect(saves()[0]!.body).toMatchObject({ visibility: 'role', roleId: 1002 });
    expect(useAppStore.getState().alert?.message).toBe('“For the managers” is shared with everyone working as Project Manager: it shows when you work as Project Manager.');
    expect(useAppStore.getState().defaultLists).toEqual({});
  });

  it('edits an existing list and shows the server’s field errors', async () => {
    const user = userEvent.setup();
    api.on('PUT /netsuite/listConfiguration', () => problem(422, 'Check the highlighted fields.', [{ field: 'filter', message: 'entitystatus: "Dormant" is not one of Proposed, Planning' }]));
    renderRoutes(routes, '/list/edit?type=project&id=list-mine');
    expect(await screen.findByRole('heading', { name: 'Edit “Active projects”' })).toBeInTheDocument();
    expect(screen.getByLabelText(/^Name/)).toHaveValue('Active projects');
    expect(columnNames()).toEqual(['Project name', 'Status', 'Start date']);
    expect(screen.getByLabelText('Condition 1 value')).toHaveValue('Active');
    expect(screen.getByLabelText('Sort by')).toHaveValue('startdate');
    expect(screen.getByLabelText('Direction')).toHaveValue('desc');
    expect(screen.getByRole('radio', { name: 'Only me' })).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('entitystatus: "Dormant" is not one of Proposed, Planning')).toBeInTheDocument();
    expect(saves()[0]!.params.get('id')).toBe('list-mine');
  });

  it('deletes a list after confirmation and forgets it as the default', async () => {
    const user = userEvent.setup();
    useAppStore.getState().setDefaultList('project', 'list-mine');
    api.on('DELETE /netsuite/listConfiguration', () => new Response(null, { status: 204 }));
    const { location } = renderRoutes(routes, '/list/edit?type=project&id=list-mine');
    await user.click(await screen.findByRole('button', { name: 'Delete list' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete “Active projects”?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(location()).toBe('/project/list'));
    const call = api.calls.find((c) => c.method === 'DELETE')!;
    expect(Object.fromEntries(call.params)).toEqual({ type: 'project', id: 'list-mine' });
    expect(useAppStore.getState().defaultLists).toEqual({ project: builtIn.id });
  });

  it('offers a copy of a standard list instead of changing it', async () => {
    renderRoutes(routes, `/list/edit?type=project&id=${builtIn.id}`);
    expect(await screen.findByText('A standard list')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Name/)).toHaveValue('All projects (copy)');
    expect(screen.getByRole('button', { name: 'Save list' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete list' })).toBeNull();
  });

  it('says so for a list that does not exist', async () => {
    renderRoutes(routes, '/list/edit?type=project&id=nope');
    expect(await screen.findByText(/There is no saved list “nope”/)).toBeInTheDocument();
  });
});
