import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DataTable } from './DataTable';
import RecordFormPage from './RecordFormPage';
import RecordViewPage from './RecordViewPage';
import { customerKind, fakeApi, json, renderRoutes, signIn, type FakeApi } from './testing';
import type { RecordDetail } from './types';
import { useSessionStore } from '../../lib/session/store';
import { applyEvent, useEventsStore } from '../events';

const VERSION = '2026-11-22T10:00:00Z';
const NEWER = '2026-11-22T10:05:00Z';
const PETE = 2;

function view(name: string, version = VERSION): RecordDetail {
  return {
    id: 7,
    type: 'customer',
    title: name,
    code: 'CUS-7',
    status: '',
    erpUrl: null,
    groups: [
      {
        label: 'Summary',
        fields: [
          { name: 'companyname', label: 'Client name', type: 'text', value: name },
          { name: 'entityid', label: 'Client ID', type: 'text', value: 'CUS-7' },
        ],
      },
    ],
    tabs: [],
    related: [],
    version,
  };
}

const rows = [
  { id: 7, companyname: 'Acme Water' },
  { id: 8, companyname: 'Birch Ltd' },
];

const routes = [
  {
    path: '/customer',
    handle: { model: 'customer' },
    children: [
      { path: 'list', Component: () => <DataTable caption="Clients" columns={[{ name: 'companyname', label: 'Client name', type: 'text' }]} rows={rows} kind={customerKind} /> },
      { path: 'view', handle: { isView: true }, Component: RecordViewPage },
      { path: 'edit', handle: { isEdit: true }, Component: RecordFormPage },
    ],
  },
];

let api: FakeApi;
let stored: RecordDetail;
const presence = () => api.calls.filter((c) => c.path === '/events/editing').map((c) => `${c.method} ${c.params.get('type')} ${c.params.get('id')}`);

function editing(userId: number, seconds = 30) {
  const until = new Date(Date.now() + seconds * 1000).toISOString();
  return { event: 'editing', data: JSON.stringify({ kind: 'customer', id: 7, userId, user: userId === PETE ? 'Pete Manager' : 'Ada Admin', until }) };
}

function changed(byUserId: number, ids = [7]) {
  const by = byUserId === PETE ? 'Pete Manager' : 'Ada Admin';
  return { event: 'record', id: '12', data: JSON.stringify({ kind: 'customer', ids, action: 'edit', byUserId, by, at: NEWER }) };
}

beforeEach(() => {
  signIn();
  api = fakeApi();
  stored = view('Acme Water');
  api.on('GET /netsuite/portal-record', () => json({ data: stored }));
  api.on('POST /events/editing', () => new Response(null, { status: 204 }));
  api.on('DELETE /events/editing', () => new Response(null, { status: 204 }));
});

afterEach(() => {
  vi.unstubAllGlobals();
  useSessionStore.getState().clearSession();
  useEventsStore.setState({ marks: {}, editing: {}, connected: false });
});

describe('live events in the record pages', () => {
  it('says on the view page who else is editing, not the user’s own form', async () => {
    const { queryClient } = renderRoutes(routes, '/customer/view?id=7');
    await screen.findByRole('heading', { level: 1, name: 'Acme Water' });
    act(() => applyEvent(queryClient, editing(1), 1));
    expect(screen.queryByTestId('editing-notice')).not.toBeInTheDocument();
    act(() => applyEvent(queryClient, editing(PETE), 1));
    expect(screen.getByTestId('editing-notice')).toHaveTextContent('Pete Manager is editing');
    expect(screen.getByTestId('editing-notice')).toHaveAttribute('role', 'status');
    // Closing the form sends an `until` of now.
    act(() => applyEvent(queryClient, editing(PETE, 0), 1));
    expect(screen.queryByTestId('editing-notice')).not.toBeInTheDocument();
  });

  it('tells the others while the edit form is open, and says who else has it open', async () => {
    const { queryClient, unmount } = renderRoutes(routes, '/customer/edit?id=7');
    await screen.findByRole('textbox', { name: /Client name/ });
    await waitFor(() => expect(presence()).toEqual(['POST customer 7']));
    act(() => applyEvent(queryClient, editing(PETE), 1));
    expect(screen.getByTestId('editing-notice')).toHaveTextContent('Pete Manager has this client open to edit too.');
    unmount();
    await waitFor(() => expect(presence()).toEqual(['POST customer 7', 'DELETE customer 7']));
  });

  it('offers a newer version that arrives while the input is unsaved, as the conflict view', async () => {
    const user = userEvent.setup();
    api.on('PUT /netsuite/portal-crud', () => json({ data: view('Acme Mine', '2026-11-22T10:06:00Z') }));
    const { queryClient } = renderRoutes(routes, '/customer/edit?id=7');
    await user.clear(await screen.findByRole('textbox', { name: /Client name/ }));
    await user.type(screen.getByRole('textbox', { name: /Client name/ }), 'Acme Mine');

    stored = view('Acme Water Ltd', NEWER);
    act(() => applyEvent(queryClient, changed(PETE), 1));
    const notice = await screen.findByTestId('newer-version');
    expect(notice).toHaveAttribute('role', 'status');
    expect(notice).toHaveTextContent('Pete Manager saved this client while you were editing.');
    expect(screen.getByRole('textbox', { name: /Client name/ })).toHaveValue('Acme Mine');

    await user.click(within(notice).getByRole('button', { name: 'Review changes' }));
    expect(screen.getByText('Saved meanwhile: Acme Water Ltd')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Pete Manager saved this client while you were editing.');
    await user.click(screen.getByRole('button', { name: 'Use my values and save again' }));
    await waitFor(() => expect(api.calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ fields: { companyname: 'Acme Mine' }, version: NEWER }));
  });

  it('takes a newer version quietly into an untouched form', async () => {
    const { queryClient } = renderRoutes(routes, '/customer/edit?id=7');
    expect(await screen.findByRole('textbox', { name: /Client name/ })).toHaveValue('Acme Water');
    stored = view('Acme Water Ltd', NEWER);
    act(() => applyEvent(queryClient, changed(PETE), 1));
    await waitFor(() => expect(screen.getByRole('textbox', { name: /Client name/ })).toHaveValue('Acme Water Ltd'));
    expect(screen.queryByTestId('newer-version')).not.toBeInTheDocument();
  });

  it('marks a list row someone else changed, announced politely, and not the user’s own', async () => {
    const { queryClient } = renderRoutes(routes, '/customer/list');
    const row = (name: string) => screen.getByRole('link', { name }).closest('tr')!;
    await screen.findByRole('link', { name: 'Birch Ltd' });
    act(() => applyEvent(queryClient, changed(1, [8]), 1));
    expect(row('Birch Ltd')).not.toHaveAttribute('title');
    act(() => applyEvent(queryClient, changed(PETE), 1));
    expect(row('Acme Water')).toHaveAttribute('title', 'Updated by Pete Manager');
    expect(row('Birch Ltd')).not.toHaveAttribute('title');
    expect(screen.getByRole('status')).toHaveTextContent('Updated by Pete Manager');
    // A change the sync brought from NetSuite names no one.
    act(() => applyEvent(queryClient, { event: 'record', id: '13', data: JSON.stringify({ kind: 'customer', ids: [8], action: 'edit', byUserId: 0, by: '', at: NEWER }) }, 1));
    expect(row('Birch Ltd')).toHaveAttribute('title', 'Changed in NetSuite');
    expect(screen.getByRole('status')).toHaveTextContent('Updated by Pete Manager; Changed in NetSuite');
  });
});
