import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyEvent, useEventsStore } from '../../events';
import { useSessionStore } from '../../../lib/session/store';
import { initialAppState, useAppStore } from '../../../lib/appState';
import RecordViewPage from '../RecordViewPage';
import { customerKind, fakeApi, json, problem, renderRoutes, signIn, type FakeApi } from '../testing';
import type { RecordDetail, WriteState } from '../types';

function view(write: WriteState): RecordDetail {
  return {
    id: 7,
    type: 'customer',
    title: 'Acme Water',
    code: 'CUS-7',
    status: '',
    erpUrl: null,
    groups: [{ label: 'Summary', fields: [{ name: 'companyname', label: 'Client name', type: 'text', value: 'Acme Water' }] }],
    tabs: [],
    related: [],
    write,
  };
}

const routes = [
  {
    path: '/customer',
    handle: { model: 'customer' },
    children: [
      { path: 'list', Component: () => <h1>Client list</h1> },
      { path: 'view', handle: { isView: true }, Component: RecordViewPage },
    ],
  },
];

let api: FakeApi;
let stored: RecordDetail | null;
const actions = () => api.calls.filter((c) => c.path.startsWith('/sync/writes/'));

beforeEach(() => {
  signIn();
  api = fakeApi();
  stored = view({ state: 'failed', error: 'Invalid entity status.' });
  api.on('GET /kinds', () => json({ data: [customerKind] }));
  api.on('GET /netsuite/portal-record', () => (stored ? json({ data: stored }) : problem(404, 'No such record.')));
});

afterEach(() => {
  vi.unstubAllGlobals();
  useSessionStore.getState().clearSession();
  useAppStore.setState(initialAppState);
  useEventsStore.setState({ connected: false });
});

describe('WriteStateNotice', () => {
  it('keeps the pending notice, without actions', async () => {
    stored = view({ state: 'pending' });
    renderRoutes(routes, '/customer/view?id=7');
    expect(await screen.findByTestId('write-state')).toHaveTextContent('Saving to NetSuite');
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
  });

  it('clears the pending notice on the write-state event, without polling while the stream is open', async () => {
    useEventsStore.setState({ connected: true });
    stored = view({ state: 'pending' });
    const reads = () => api.calls.filter((c) => c.path === '/netsuite/portal-record');
    const { queryClient } = renderRoutes(routes, '/customer/view?id=7');
    expect(await screen.findByTestId('write-state')).toHaveTextContent('Saving to NetSuite');
    stored = view({ state: '' });
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(reads()).toHaveLength(1);
    const data = { kind: 'customer', ids: [7], action: 'write-state', byUserId: 1, by: 'Ada Admin', at: '', writeState: '' };
    applyEvent(queryClient, { event: 'record', id: '5', data: JSON.stringify(data) }, 1);
    await waitFor(() => expect(screen.queryByTestId('write-state')).not.toBeInTheDocument());
    expect(reads()).toHaveLength(2);
  }, 15_000);

  it("shows NetSuite's message and retries the change; the record refetches", async () => {
    api.on('POST /sync/writes/retry', () => {
      stored = view({ state: 'pending' });
      return json({ data: { action: 'retry' } });
    });
    const user = userEvent.setup();
    renderRoutes(routes, '/customer/view?id=7');
    const notice = await screen.findByTestId('write-state');
    expect(notice).toHaveTextContent('NetSuite answered: Invalid entity status.');
    await user.click(within(notice).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.getByTestId('write-state')).toHaveTextContent('Saving to NetSuite'));
    expect(actions()).toHaveLength(1);
    expect(actions()[0]!.method).toBe('POST');
    expect(actions()[0]!.params.get('type')).toBe('customer');
    expect(actions()[0]!.params.get('id')).toBe('7');
  });

  it('shows why a retry failed', async () => {
    api.on('POST /sync/writes/retry', () => problem(503, 'NetSuite is not answering.'));
    const user = userEvent.setup();
    renderRoutes(routes, '/customer/view?id=7');
    await user.click(await screen.findByRole('button', { name: 'Retry' }));
    expect(await screen.findByTestId('write-action-error')).toHaveTextContent('The change could not be sent again: NetSuite is not answering.');
  });

  it('asks before discarding, and discards when confirmed', async () => {
    api.on('POST /sync/writes/discard', () => {
      stored = view({ state: '' });
      return json({ data: { action: 'discard' } });
    });
    const user = userEvent.setup();
    renderRoutes(routes, '/customer/view?id=7');
    await user.click(await screen.findByRole('button', { name: 'Discard my changes' }));
    let dialog = await screen.findByRole('dialog', { name: 'Discard your changes?' });
    expect(dialog).toHaveTextContent('Discard your changes to this record? It goes back to what NetSuite has.');
    await user.click(within(dialog).getByRole('button', { name: 'Keep my changes' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(actions()).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Discard my changes' }));
    dialog = await screen.findByRole('dialog', { name: 'Discard your changes?' });
    await user.click(within(dialog).getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(screen.queryByTestId('write-state')).not.toBeInTheDocument());
    expect(actions().map((c) => c.path)).toEqual(['/sync/writes/discard']);
    expect(screen.getByRole('heading', { level: 1, name: 'Acme Water' })).toBeInTheDocument();
  });

  it('goes back to the list when a discarded new record is gone', async () => {
    api.on('POST /sync/writes/discard', () => {
      stored = null;
      return json({ data: { action: 'discard' } });
    });
    const user = userEvent.setup();
    const { location } = renderRoutes(routes, '/customer/view?id=7');
    await user.click(await screen.findByRole('button', { name: 'Discard my changes' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Discard' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Client list' })).toBeInTheDocument();
    expect(location()).toBe('/customer/list');
    expect(useAppStore.getState().alert?.message).toBe('The new client was discarded: NetSuite never had it.');
  });

  it('offers no actions to a role that may neither edit nor create the kind', async () => {
    api.on('GET /kinds', () => json({ data: [{ ...customerKind, canEdit: false, canCreate: false }] }));
    renderRoutes(routes, '/customer/view?id=7');
    expect(await screen.findByTestId('write-state')).toHaveTextContent('NetSuite answered: Invalid entity status.');
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Discard my changes' })).not.toBeInTheDocument();
  });
});
