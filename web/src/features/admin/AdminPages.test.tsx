import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { file } from './testing';
import type { AccessFile } from './access';
import { fakeApi, json, problem, renderRoutes, role, type FakeApi } from '../records/testing';
import { useSessionStore } from '../../lib/session/store';
import AdminMenusPage from './AdminMenusPage';
import AdminRolesPage from './AdminRolesPage';
import AdminUsersPage from './AdminUsersPage';

const routes = [
  { path: '/admin/users', Component: AdminUsersPage },
  { path: '/admin/roles', Component: AdminRolesPage },
  { path: '/admin/menus', Component: AdminMenusPage },
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

const kinds = [{ route: 'invoice', plural: 'Invoices', canCreate: false, canEdit: false, canApprove: false }];
const permissions = [{ name: 'access.admin', label: 'Manage users, roles and menus' }];
const setup = (f: AccessFile, version: string) => json({ data: { file: f, version, kinds, permissions } });

let api: FakeApi;
beforeEach(() => {
  api = fakeApi();
  signInWith(['access.admin']);
});
afterEach(() => {
  vi.unstubAllGlobals();
  useSessionStore.getState().clearSession();
});

describe('Users', () => {
  it('is not for a role without access.admin', async () => {
    signInWith([]);
    renderRoutes(routes, '/admin/users');
    expect(await screen.findByText('Not available to your role')).toBeInTheDocument();
  });

  it('grants a role by saving the whole file with If-Match', async () => {
    api.on('GET /admin/access', () => setup(file, 'v1'));
    api.on('PUT /admin/access', () => json({ data: { file, version: 'v2', summary: 'granted: pete@acme.test: Project Manager' } }));
    renderRoutes(routes, '/admin/users');
    const pete = await screen.findByRole('group', { name: 'Roles of Pete' });
    // The notice's room is kept before any save, so a save moves nothing under it.
    expect(screen.getByTestId('save-notice')).toHaveTextContent('Each change is saved at once.');
    await userEvent.click(within(pete).getByRole('checkbox', { name: 'Project Manager' }));
    // Said in words, naming the person.
    expect(await within(screen.getByTestId('save-notice')).findByRole('status')).toHaveTextContent('Pete now has the Project Manager role.');
    expect(screen.getByTestId('save-notice')).not.toHaveTextContent('pete@acme.test');
    const put = api.calls.find((c) => c.method === 'PUT')!;
    expect(put.headers.get('If-Match')).toBe('"v1"');
    expect((put.body as AccessFile).users![1]!.roles).toEqual([1002]);
  });

  it('on 412 says someone else changed it and shows their version', async () => {
    let version = 'v1';
    api.on('GET /admin/access', () => setup(version === 'v1' ? file : { ...file, users: [...file.users!, { id: 3, email: 'sam@acme.test', fullName: 'Sam', roles: [] }] }, version));
    api.on('PUT /admin/access', () => {
      version = 'v2';
      return problem(412, 'Someone else changed the users, roles or menus since you opened them.');
    });
    renderRoutes(routes, '/admin/users');
    await userEvent.click(await screen.findByRole('button', { name: 'Disable Pete' }));
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Disable Pete?' })).getByRole('button', { name: 'Disable Pete' }));
    expect(await screen.findByText(/Someone else changed the users, roles or menus while you were editing/)).toBeInTheDocument();
    expect(await screen.findByText('sam@acme.test')).toBeInTheDocument();
  });

  it('asks before disabling a user, who is signed out everywhere; enabling needs no question', async () => {
    let saved: AccessFile = file;
    api.on('GET /admin/access', () => setup(saved, 'v1'));
    api.on('PUT /admin/access', (_url, init) => {
      saved = JSON.parse(String(init?.body)) as AccessFile;
      return json({ data: { file: saved, version: 'v2', summary: 'disabled: pete@acme.test' } });
    });
    renderRoutes(routes, '/admin/users');
    await userEvent.click(await screen.findByRole('button', { name: 'Disable Pete' }));
    let dialog = await screen.findByRole('dialog', { name: 'Disable Pete?' });
    expect(dialog).toHaveTextContent('Pete will be signed out everywhere at once');
    // Cancel keeps the user enabled and sends nothing.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.calls.some((c) => c.method === 'PUT')).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Disable Pete' }));
    dialog = await screen.findByRole('dialog', { name: 'Disable Pete?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Disable Pete' }));
    expect(await within(screen.getByTestId('save-notice')).findByRole('status')).toHaveTextContent('Pete is disabled and signed out everywhere.');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect((api.calls.find((c) => c.method === 'PUT')!.body as AccessFile).users![1]!.disabled).toBe(true);
    await userEvent.click(await screen.findByRole('button', { name: 'Enable Pete' }));
    expect(await screen.findByText('Pete is enabled.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('checks a new user before sending it', async () => {
    api.on('GET /admin/access', () => setup(file, 'v1'));
    renderRoutes(routes, '/admin/users');
    await userEvent.type(await screen.findByLabelText(/Email/), 'ada@acme.test');
    await userEvent.type(screen.getByLabelText(/Full name/), 'Ada');
    await userEvent.click(screen.getByRole('button', { name: 'Add user' }));
    expect(await screen.findByText('A user with this email already exists.')).toBeInTheDocument();
    expect(api.calls.some((c) => c.method === 'PUT')).toBe(false);
  });
});

describe('Roles', () => {
  it("shows the server's problem with a rule beside it, and previews the edited role", async () => {
    api.on('GET /admin/access', () => setup(file, 'v1'));
    api.on('PUT /admin/access', () =>
      problem(422, 'The change was not saved: Unknown field "nosuch".', [{ field: 'roles[1].rules.invoice.view', message: 'Unknown field "nosuch".' }]),
    );
    api.on('POST /admin/access/preview', () => json({ data: [{ kind: 'invoice', route: 'invoice', plural: 'Invoices', rule: 'nosuch eq 1', count: 12, estimated: true }] }));
    renderRoutes(routes, '/admin/roles');
    await userEvent.selectOptions(await screen.findByLabelText('Role'), '1002');
    const rule = await screen.findByRole('textbox', { name: 'Rule for view Invoices' });
    expect(rule).toHaveValue('job.projectmanager eq $me');
    await userEvent.clear(rule);
    // The example is the kind's own (the registry gives no invoices here: the grammar).
    expect(rule).toHaveAttribute('placeholder', 'a filter: field op value');
    await userEvent.type(rule, 'nosuch eq 1');
    await userEvent.click(screen.getByRole('button', { name: 'Save role' }));
    await waitFor(() => expect(rule).toHaveAccessibleDescription(/Unknown field "nosuch"/));
    const put = api.calls.find((c) => c.method === 'PUT')!;
    expect((put.body as AccessFile).roles![1]!.rules).toEqual({ 'invoice.view': 'nosuch eq 1' });

    await userEvent.click(screen.getByRole('button', { name: 'Preview' }));
    const table = await screen.findByTestId('preview');
    expect(within(table).getByText('≈ 12')).toBeInTheDocument();
    const post = api.calls.find((c) => c.method === 'POST')!;
    expect(post.params.get('user')).toBe('1');
    expect((post.body as { role: { rules: unknown } }).role.rules).toEqual({ 'invoice.view': 'nosuch eq 1' });
  });
});

describe('Menus', () => {
  it('adds a menu, then deletes it while no role uses it; a menu in use cannot be deleted', async () => {
    let saved: AccessFile = file;
    let version = 1;
    api.on('GET /admin/access', () => setup(saved, `v${version}`));
    api.on('PUT /admin/access', (_url, init) => {
      saved = JSON.parse(String(init?.body)) as AccessFile;
      version++;
      return json({ data: { file: saved, version: `v${version}`, summary: 'menus changed' } });
    });
    renderRoutes(routes, '/admin/menus');
    // Admin is the Administrator's menu: not deletable.
    expect(await screen.findByText(/Used by Administrator: give those roles another menu/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Delete menu/ })).toBeNull();
    await userEvent.type(screen.getByRole('textbox', { name: 'New menu' }), 'Field Lead');
    await userEvent.click(screen.getByRole('button', { name: 'Add menu' }));
    expect(await within(screen.getByTestId('save-notice')).findByRole('status')).toHaveTextContent('The menu Field Lead is added');
    expect(saved.layouts!.map((l) => l.id)).toEqual(['admin', 'field-lead']);
    expect(screen.getByRole<HTMLSelectElement>('combobox', { name: 'Menu' }).value).toBe('field-lead');
    await userEvent.click(await screen.findByRole('button', { name: 'Delete menu Field Lead' }));
    await waitFor(() => expect(saved.layouts!.map((l) => l.id)).toEqual(['admin']));
    expect(await within(screen.getByTestId('save-notice')).findByRole('status')).toHaveTextContent('The menu Field Lead is deleted.');
  });
});
