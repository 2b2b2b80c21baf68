import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { customerKind, fakeApi, json, problem, projectKind, renderRoutes, role, type FakeApi } from '../records/testing';
import { useSessionStore } from '../../lib/session/store';
import { formatLag, isNever, kindState, missingColumns, unavailableReason, type SyncKind, type SyncStatus } from './sync';
import SyncStatusPage from './SyncStatusPage';

const routes = [{ path: '/sync', Component: SyncStatusPage }];

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

const NEVER = '0001-01-01T00:00:00Z';

const kindStatus = (patch: Partial<SyncKind>): SyncKind => ({
  kind: 'project',
  label: 'Projects',
  checkpoint: { modified: NEVER, id: 0 },
  deletedSince: NEVER,
  lastRun: NEVER,
  lastSuccess: NEVER,
  pulledTotal: 0,
  lastPulled: 0,
  lastDeleted: 0,
  lagSeconds: -1,
  ...patch,
});

const status: SyncStatus & { connected: true; names: Record<string, string> } = {
  connected: true,
  names: { '8': 'Wetland restoration' },
  intervalSeconds: 60,
  kinds: [
    kindStatus({ lastRun: '2026-11-22T10:00:00Z', lastSuccess: '2026-11-22T10:00:00Z', pulledTotal: 1234, lastPulled: 12, lagSeconds: 12 }),
    kindStatus({ kind: 'customer', label: 'Clients', lastRun: '2026-11-22T10:00:00Z', lastSuccess: '2026-11-22T09:00:00Z', pulledTotal: 40, lagSeconds: 200, lastError: 'NetSuite answered 503: try later.' }),
    kindStatus({ kind: 'invoice', label: 'Invoices' }),
  ],
  outbox: { pending: 2, failed: 1, synced: 30 },
  open: [
    { id: 9, kind: 'customer', recordId: 7, op: 'update', state: 'failed', attempts: 1, nextAt: NEVER, error: 'Invalid entity status.', created: '2026-11-22T10:00:00Z' },
    { id: 8, kind: 'project', recordId: 42, op: 'update', state: 'pending', attempts: 2, nextAt: '2026-11-22T10:05:00Z', created: '2026-11-22T09:59:00Z' },
  ],
};

let api: FakeApi;
const statusCalls = () => api.calls.filter((c) => c.path === '/sync/status').length;
const runs = () => api.calls.filter((c) => c.path === '/sync/run');

beforeEach(() => {
  signInWith(['sync.view', 'sync.admin']);
  api = fakeApi();
  api.on('GET /kinds', () => json({ data: [projectKind, customerKind] }));
  api.on('GET /sync/status', () => json({ data: status }));
  api.on('POST /sync/run', (url) => json({ data: { started: true, full: url.searchParams.get('full') === 'true' } }, 202));
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  useSessionStore.getState().clearSession();
});

describe('sync helpers', () => {
  it('says lags for people and knows the zero time', () => {
    expect(formatLag(-1)).toBe('never');
    expect(formatLag(12)).toBe('12 s');
    expect(formatLag(200)).toBe('3 min');
    expect(formatLag(7200)).toBe('2 h');
    expect(formatLag(200_000)).toBe('2 d');
    expect(isNever(NEVER)).toBe(true);
    expect(isNever('2026-11-22T10:00:00Z')).toBe(false);
  });
});

const NOT_IN_ACCOUNT =
  "erp 400 INVALID_PARAMETER: not in this account: record type customrecord_res_billing (table customrecord_res_billing; set kinds.billing.off: true, or fix its recordType/table in the mapping) — NetSuite: Record 'customrecord_res_billing' was not found.";

/** Kinds the account lacks, the mapping turns off, or the account has without some optional columns. */
const degraded: SyncStatus = {
  ...status,
  kinds: [
    kindStatus({ kind: 'billing', label: 'Billing', lastRun: '2026-11-22T10:00:00Z', lastError: NOT_IN_ACCOUNT, unavailable: NOT_IN_ACCOUNT }),
    kindStatus({ kind: 'budget', label: 'Budgets', off: true }),
    kindStatus({ kind: 'customer', label: 'Clients', lastRun: '2026-11-22T10:00:00Z', lastSuccess: '2026-11-22T10:00:00Z', lagSeconds: 5, missing: 'balance' }),
    kindStatus({
      kind: 'project',
      label: 'Projects',
      lastRun: '2026-11-22T10:00:00Z',
      lastSuccess: '2026-11-22T10:00:00Z',
      lagSeconds: 5,
      missing: 'projectedtotal, percentcomplete',
    }),
  ],
  outbox: {},
  open: [],
};

describe('kind states', () => {
  it('tells off, not in the account, failing, never pulled and fine apart', () => {
    expect(kindState(degraded.kinds[0]!)).toBe('unavailable');
    expect(kindState(degraded.kinds[1]!)).toBe('off');
    expect(kindState(degraded.kinds[2]!)).toBe('ok');
    expect(kindState(status.kinds[1]!)).toBe('error');
    expect(kindState(status.kinds[2]!)).toBe('never');
    // Off wins: the mapping says not to sync it, whatever happened before.
    expect(kindState(kindStatus({ off: true, unavailable: NOT_IN_ACCOUNT, lastError: NOT_IN_ACCOUNT }))).toBe('off');
  });

  it('says why a kind is not in the account without the error code, and lists missing columns', () => {
    expect(unavailableReason(NOT_IN_ACCOUNT)).toBe(
      "Record type customrecord_res_billing (table customrecord_res_billing; set kinds.billing.off: true, or fix its recordType/table in the mapping) — NetSuite: Record 'customrecord_res_billing' was not found.",
    );
    expect(unavailableReason('the table is gone')).toBe('The table is gone');
    expect(missingColumns('projectedtotal, percentcomplete,projectedenddate')).toEqual(['projectedtotal', 'percentcomplete', 'projectedenddate']);
    expect(missingColumns('')).toEqual([]);
    expect(missingColumns(undefined)).toEqual([]);
  });
});

describe('SyncStatusPage', () => {
  it('shows every kind with its last pull, records, lag and error, the outbox and its open entries', async () => {
    renderRoutes(routes, '/sync');
    expect(await screen.findByRole('heading', { level: 1, name: 'ERP sync' })).toBeInTheDocument();
    const kinds = await screen.findByRole('table', { name: 'Sync status of each record kind' });
    for (const header of ['Kind', 'Last pull', 'Records pulled (last / total)', 'Lag', 'Status', 'Actions']) {
      expect(within(kinds).getByRole('columnheader', { name: header })).toBeInTheDocument();
    }
    const projects = within(kinds).getByRole('row', { name: /^Projects/ });
    expect(projects).toHaveTextContent('12 / 1,234');
    expect(projects).toHaveTextContent('12 s');
    expect(projects).toHaveTextContent('OK');
    const clients = within(kinds).getByRole('row', { name: /^Clients/ });
    expect(clients).toHaveTextContent('3 min');
    expect(clients).toHaveTextContent('Error');
    expect(within(clients).getByTestId('sync-kind-state').getAttribute('style')).toMatch(/red/);
    expect(clients).toHaveTextContent('NetSuite answered 503: try later.');
    const invoices = within(kinds).getByRole('row', { name: /^Invoices/ });
    expect(invoices).toHaveTextContent('never');
    expect(invoices).toHaveTextContent('Not synced yet');

    expect(screen.getByTestId('outbox-pending')).toHaveTextContent('2');
    expect(screen.getByTestId('outbox-failed')).toHaveTextContent('1');
    expect(screen.getByTestId('outbox-synced')).toHaveTextContent('30');

    const open = screen.getByRole('table', { name: /Changes waiting for NetSuite/ });
    const rows = within(open).getAllByTestId('outbox-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByRole('link', { name: 'Client 7' })).toHaveAttribute('href', '/customer/view?id=7');
    expect(rows[0]).toHaveTextContent('Failed');
    expect(rows[0]).toHaveTextContent('Invalid entity status.');
    expect(rows[0]).toHaveTextContent('Waits for a retry');
    expect(within(rows[1]!).getByRole('link', { name: 'Wetland restoration' })).toHaveAttribute('href', '/project/view?id=42');
    expect(rows[1]).toHaveTextContent('Pending');
  });

  it('shows a kind not in the account, one off in the mapping and missing columns as states, not errors', async () => {
    api.on('GET /sync/status', () => json({ data: degraded }));
    renderRoutes(routes, '/sync');
    const kinds = await screen.findByRole('table', { name: 'Sync status of each record kind' });

    const billing = within(kinds).getByRole('row', { name: /^Billing/ });
    const billingState = within(billing).getByTestId('sync-kind-state');
    expect(billingState).toHaveTextContent(/^Not in this account$/);
    // A neutral badge, not the red of a failing kind.
    expect(billingState.getAttribute('style')).toMatch(/gray/);
    expect(within(billing).getByTestId('sync-kind-unavailable')).toHaveTextContent(
      /^Record type customrecord_res_billing \(table customrecord_res_billing; set kinds\.billing\.off: true, or fix its recordType\/table in the mapping\) — NetSuite: Record 'customrecord_res_billing' was not found\.$/,
    );
    expect(billing).not.toHaveTextContent('Error');
    expect(billing).not.toHaveTextContent('erp 400');
    // A sync started here tries it again (after the account or the mapping is fixed).
    expect(within(billing).getByRole('button', { name: 'Sync Billing now' })).toBeEnabled();

    const budgets = within(kinds).getByRole('row', { name: /^Budgets/ });
    expect(within(budgets).getByTestId('sync-kind-state')).toHaveTextContent(/^Off in the mapping$/);
    expect(budgets).toHaveTextContent('Not synced: the NetSuite mapping turns this kind off.');
    expect(within(budgets).queryByRole('button')).not.toBeInTheDocument();

    const clients = within(kinds).getByRole('row', { name: /^Clients/ });
    expect(within(clients).getByTestId('sync-kind-state')).toHaveTextContent(/^OK$/);
    expect(within(clients).getByTestId('sync-kind-missing')).toHaveTextContent(/^Missing in this account: balance \(left empty\)$/);
    const projects = within(kinds).getByRole('row', { name: /^Projects/ });
    expect(within(projects).getByTestId('sync-kind-missing')).toHaveTextContent(/^Missing in this account: projectedtotal, percentcomplete \(left empty\)$/);

    expect(screen.queryByText('Error')).not.toBeInTheDocument();
  });

  it('says when NetSuite\'s two clocks disagree, with both times and the fix', async () => {
    const clock =
      'project 921: SuiteQL\'s last-modified "2026-11-28 16:00:00", read in the mapping\'s timezone UTC, is 2026-11-28T16:00:00Z; the record API\'s (UTC) is 2026-11-29T00:00:00Z — fix: timezone: America/Los_Angeles';
    api.on('GET /sync/status', () => json({ data: { ...status, clock } }));
    renderRoutes(routes, '/sync');
    const alert = await screen.findByTestId('sync-clock');
    expect(alert).toHaveAttribute('role', 'alert');
    expect(alert).toHaveTextContent("NetSuite's times disagree: check the mapping's time zone");
    expect(alert).toHaveTextContent('fix: timezone: America/Los_Angeles');
    expect(alert).toHaveTextContent('portico netsuite check');
  });

  it('shows no clock alert while the times agree', async () => {
    renderRoutes(routes, '/sync');
    await screen.findByRole('table', { name: 'Sync status of each record kind' });
    expect(screen.queryByTestId('sync-clock')).not.toBeInTheDocument();
  });

  it('hides the sync buttons from a role without sync.admin', async () => {
    signInWith(['sync.view']);
    renderRoutes(routes, '/sync');
    await screen.findByRole('table', { name: 'Sync status of each record kind' });
    expect(screen.queryByRole('button', { name: /Sync|resync/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: 'Actions' })).not.toBeInTheDocument();
  });

  it('refuses a role without sync.view', async () => {
    signInWith(['audit.view']);
    renderRoutes(routes, '/sync');
    expect(await screen.findByTestId('forbidden')).toHaveTextContent('may not see the ERP sync status');
    expect(statusCalls()).toBe(0);
  });

  it('starts a pull of one kind, says so and refreshes every 5 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderRoutes(routes, '/sync');
    await user.click(await screen.findByRole('button', { name: 'Sync Projects now' }));
    const started = await screen.findByTestId('sync-started');
    expect(started).toHaveAttribute('role', 'status');
    expect(started).toHaveTextContent('Sync started');
    expect(started).toHaveTextContent('A sync of Projects started');
    expect(runs()).toHaveLength(1);
    expect(runs()[0]!.params.get('kind')).toBe('project');
    expect(runs()[0]!.params.get('full')).toBeNull();

    await waitFor(() => expect(statusCalls()).toBe(2));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(5_000);
    });
    await waitFor(() => expect(statusCalls()).toBe(3));
  });

  it('asks before a full resync, and starts none when cancelled', async () => {
    const user = userEvent.setup();
    renderRoutes(routes, '/sync');
    await screen.findByRole('table', { name: 'Sync status of each record kind' });
    await user.click(await screen.findByRole('button', { name: 'Full resync of Clients' }));
    let dialog = await screen.findByRole('dialog', { name: 'Full resync of Clients?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(runs()).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Full resync of all kinds' }));
    dialog = await screen.findByRole('dialog', { name: 'Full resync of all kinds?' });
    await user.click(within(dialog).getByRole('button', { name: 'Start full resync' }));
    expect(await screen.findByTestId('sync-started')).toHaveTextContent('A full resync of all kinds started');
    expect(runs()).toHaveLength(1);
    expect(runs()[0]!.params.get('kind')).toBeNull();
    expect(runs()[0]!.params.get('full')).toBe('true');
  });

  it('shows why a pull did not start', async () => {
    api.on('POST /sync/run', () => problem(403, 'Your role may not start a sync.'));
    const user = userEvent.setup();
    renderRoutes(routes, '/sync');
    await user.click(await screen.findByRole('button', { name: 'Sync all kinds now' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Your role may not start a sync.');
  });

  it('says so, without an error, when the portal has no ERP', async () => {
    api.on('GET /sync/status', () => json({ data: { connected: false, message: 'This portal is not connected to an ERP: its own database is the system of record.' } }));
    renderRoutes(routes, '/sync');
    expect(await screen.findByTestId('not-connected')).toHaveTextContent('This portal is not connected to an ERP: its own database is the system of record.');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Sync|resync/ })).not.toBeInTheDocument();
  });
});
