/**
 * Approving or rejecting a list's selected records, against a fake record API: offered
 * only for a kind that goes through approval to a role that approves, one request for the
 * selection, and its outcome record by record as a bulk edit's.
 */
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetAppStore } from '../../lib/appState';
import { useSessionStore } from '../../lib/session/store';
import RecordListPage from './RecordListPage';
import { registry, vendorBillKind } from './kinds.fixture';
import { fakeApi, json, renderRoutes, signIn, type FakeApi } from './testing';
import type { ApprovalResult, Kind, ListPage } from './types';

const routes = [{ path: '/vendorbill', handle: { model: 'vendorbill' }, children: [{ path: 'list', handle: { isList: true }, Component: RecordListPage }] }];
const awaiting = vendorBillKind.approval!.awaiting;

function page(): ListPage {
  return {
    list: { id: vendorBillKind.defaultList, name: 'All vendor bills' },
    columns: [
      { name: 'memo', label: 'Description', type: 'text', sortable: true },
      { name: 'total', label: 'Amount', type: 'money', sortable: true },
    ],
    rows: [
      { id: 10, memo: 'Office chairs', total: 1250.5 },
      { id: 11, memo: 'Survey drone', total: 8000 },
      { id: 12, memo: 'Site fencing', total: 300 },
    ],
    hasMore: false,
    nextCursor: null,
  };
}

// A busy machine renders slowly: wait up to 5 s for what the page shows.
configure({ asyncUtilTimeout: 5000 });

let api: FakeApi;
const rowReads = () => api.calls.filter((c) => c.path === '/netsuite/portal-list' && !c.params.has('count') && !c.params.has('totals'));
const decisions = () => api.calls.filter((c) => c.method === 'POST' && c.path === '/netsuite/portal-approval');

function serve(kind: Kind) {
  api.on('GET /kinds', () => json({ data: [...registry, kind] }));
}

beforeEach(() => {
  signIn();
  resetAppStore();
  api = fakeApi();
  serve(vendorBillKind);
  api.on('GET /netsuite/listConfiguration', () => json({ data: { lists: [], defaultId: vendorBillKind.defaultList } }));
  api.on('GET /netsuite/portal-list', () => json({ data: page() }));
});

afterEach(() => {
  vi.unstubAllGlobals();
  useSessionStore.getState().clearSession();
});

/** Opens the list of bills awaiting the user, selects `names` and returns the selection bar. */
async function select(user: ReturnType<typeof userEvent.setup>, ...names: string[]) {
  renderRoutes(routes, `/vendorbill/list?${new URLSearchParams({ filter: awaiting })}`);
  const table = await screen.findByRole('table');
  for (const name of names) await user.click(within(table).getByRole('checkbox', { name: `Select ${name}` }));
  return screen.getByRole('region', { name: 'Selected records' });
}

describe('approving the selected records', () => {
  it('is offered only for a kind that goes through approval, to a role that approves', async () => {
    const user = userEvent.setup();
    const bar = await select(user, 'Office chairs');
    expect(within(bar).getByRole('button', { name: 'Approve' })).toBeInTheDocument();
    expect(within(bar).getByRole('button', { name: 'Reject' })).toBeInTheDocument();
    // The list read only what awaits the user: the server puts them in for $me, which its
    // filter reads as "Me".
    expect(rowReads()[0]!.params.get('filter')).toBe(awaiting);
    expect(screen.getByRole('combobox', { name: 'Condition 2 value' })).toHaveAttribute('placeholder', 'Me');
  });

  it.each([
    ['a role that approves none of them', { ...vendorBillKind, canApprove: false }],
    ['a kind that does not go through approval', { ...vendorBillKind, approval: undefined }],
  ])('is not offered to %s', async (_what, kind) => {
    const user = userEvent.setup();
    serve(kind);
    const bar = await select(user, 'Office chairs');
    expect(within(bar).getByRole('button', { name: 'Export selected' })).toBeInTheDocument();
    expect(within(bar).queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(within(bar).queryByRole('button', { name: 'Reject' })).toBeNull();
  });

  it('approves them in one request, with an Idempotency-Key, and reports each failure as a bulk edit does', async () => {
    const user = userEvent.setup();
    api.on('POST /netsuite/portal-approval', () => {
      const answer: ApprovalResult = {
        decision: 'approve',
        saved: 2,
        failed: 1,
        results: [
          { id: 10, title: 'Office chairs', saved: true, write: { state: 'pending' } },
          { id: 11, title: 'Survey drone', saved: false, message: 'This vendor bill is no longer waiting for approval (it is Approved).' },
          { id: 12, title: 'Site fencing', saved: true, unchanged: true, write: { state: '' } },
        ],
      };
      return json({ data: answer });
    });
    const bar = await select(user, 'Office chairs', 'Survey drone', 'Site fencing');
    await user.click(within(bar).getByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve 3 vendor bills' });
    expect(dialog).toHaveTextContent('Approves the 3 selected vendor bills.');
    await user.click(within(dialog).getByRole('button', { name: 'Approve 3 vendor bills' }));

    const result = await within(dialog).findByTestId('bulk-result');
    const [post] = decisions();
    expect(post!.params.get('type')).toBe('vendorbill');
    expect(post!.body).toEqual({ ids: [10, 11, 12], decision: 'approve', comment: '' });
    expect(post!.headers.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{20,}$/);
    expect(result).toHaveTextContent('Approved 2 of 3 vendor bills.');
    expect(result).toHaveTextContent('The decisions are on their way to NetSuite.');
    expect(result).toHaveTextContent('These were not approved and stay selected:');
    expect(result).toHaveTextContent('Survey drone: This vendor bill is no longer waiting for approval (it is Approved).');
    // The dialog still names what it decided, though the decided ones are no longer selected.
    expect(screen.getByRole('dialog', { name: 'Approve 3 vendor bills' })).toBe(dialog);
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.getByTestId('selection-count')).toHaveTextContent('1 vendor bill selected');
    // The list was read again.
    await waitFor(() => expect(rowReads().length).toBeGreaterThan(1));
  });

  it('rejects them only with a comment, said before anything is sent', async () => {
    const user = userEvent.setup();
    api.on('POST /netsuite/portal-approval', () =>
      json({ data: { decision: 'reject', saved: 2, failed: 0, results: [10, 12].map((id) => ({ id, saved: true, write: { state: '' as const } })) } satisfies ApprovalResult }),
    );
    const bar = await select(user, 'Office chairs', 'Site fencing');
    await user.click(within(bar).getByRole('button', { name: 'Reject' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject 2 vendor bills' });
    await user.click(within(dialog).getByRole('button', { name: 'Reject 2 vendor bills' }));
    const comment = within(dialog).getByRole('textbox', { name: 'Comment' });
    expect(comment).toHaveAccessibleDescription(expect.stringContaining('Say why you reject the vendor bill: the comment is added to its notes.'));
    expect(decisions()).toEqual([]);
    await user.type(comment, 'Not ours');
    await user.click(within(dialog).getByRole('button', { name: 'Reject 2 vendor bills' }));
    expect(await within(dialog).findByTestId('bulk-result')).toHaveTextContent('Rejected 2 of 2 vendor bills.');
    expect(decisions()[0]!.body).toEqual({ ids: [10, 12], decision: 'reject', comment: 'Not ours' });
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByTestId('selection-count')).toBeNull();
  });
});
