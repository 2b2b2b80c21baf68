/**
 * A record's approval on its view page, against a fake record API: Approve and Reject
 * while the record waits for the user's decision, the dialog's comment (required to
 * reject), the request and what became of the record.
 */
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSessionStore } from '../../lib/session/store';
import { registry, vendorBillKind, vendorBillRecord } from './kinds.fixture';
import { recordRoutes } from './routes';
import { fakeApi, json, problem, renderRoutes, signIn, type FakeApi } from './testing';
import type { ApprovalResult, RecordDetail, WriteState } from './types';

// A busy machine renders slowly: wait up to 5 s for what the page shows.
configure({ asyncUtilTimeout: 5000 });

const routes = [recordRoutes];
const PATH = '/vendorbill/view?id=91';

let api: FakeApi;
/** The record as the server answers it now. */
let record: RecordDetail;

const decisions = () => api.calls.filter((c) => c.method === 'POST' && c.path === '/netsuite/portal-approval');
const recordReads = () => api.calls.filter((c) => c.method === 'GET' && c.path === '/netsuite/portal-record');

/** Answers a decision on bill 91 as made (its write in `write`): the record no longer waits. */
function decidedAs(decision: 'approve' | 'reject', write: WriteState) {
  api.on('POST /netsuite/portal-approval', () => {
    record = { ...vendorBillRecord, canApprove: false, status: decision === 'approve' ? 'Open' : 'Rejected', write };
    const answer: ApprovalResult = { decision, saved: 1, failed: 0, results: [{ id: 91, title: 'Office chairs', saved: true, write }] };
    return json({ data: answer });
  });
}

beforeAll(async () => {
  await import('./RecordViewPage');
});

beforeEach(() => {
  signIn();
  record = vendorBillRecord;
  api = fakeApi();
  api.on('GET /kinds', () => json({ data: [...registry, vendorBillKind] }));
  api.on('GET /netsuite/portal-record', () => json({ data: record }));
});

afterEach(() => {
  vi.unstubAllGlobals();
  useSessionStore.getState().clearSession();
});

describe('RecordViewPage: approval', () => {
  it('offers Approve and Reject only while the record waits for the user’s decision', async () => {
    const { unmount } = renderRoutes(routes, PATH);
    await screen.findByRole('heading', { level: 1, name: 'Office chairs' });
    expect(screen.getByRole('button', { name: 'Approve' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reject' })).toBeInTheDocument();
    unmount();

    // Waiting for someone else's decision (or decided): its answer says no.
    const { canApprove: _waits, ...other } = vendorBillRecord;
    record = other;
    renderRoutes(routes, PATH);
    await screen.findByRole('heading', { level: 1, name: 'Office chairs' });
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Reject' })).toBeNull();
  });

  it('approves with an optional comment: the request, its Idempotency-Key, the message, the record read again', async () => {
    const user = userEvent.setup();
    decidedAs('approve', { state: 'pending' });
    renderRoutes(routes, PATH);
    await user.click(await screen.findByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve vendor bill' });
    expect(dialog).toHaveTextContent('Approves “Office chairs”.');
    const comment = within(dialog).getByRole('textbox', { name: 'Comment (optional)' });
    expect(comment).not.toBeRequired();
    expect(comment).toHaveFocus();
    await user.type(comment, '  Checked against the PO  ');
    await user.click(within(dialog).getByRole('button', { name: 'Approve vendor bill' }));

    const message = await screen.findByTestId('approval-message');
    expect(message).toHaveAttribute('role', 'status');
    expect(message).toHaveTextContent('Approved. Sending to NetSuite…');
    // The button that opened the dialog is gone: the message has the focus.
    await waitFor(() => expect(message).toHaveFocus());
    expect(screen.queryByRole('dialog')).toBeNull();
    const [post] = decisions();
    expect(post!.params.get('type')).toBe('vendorbill');
    expect(post!.body).toEqual({ ids: [91], decision: 'approve', comment: 'Checked against the PO' });
    expect(post!.headers.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{20,}$/);
    // The record was read again: it no longer waits, so the buttons are gone.
    expect(recordReads().length).toBeGreaterThanOrEqual(2);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull());
    expect(within(screen.getByRole('list', { name: 'Status' })).getByText('Open')).toBeInTheDocument();
  });

  it('says only “Approved.” once NetSuite has the decision, and approves without a comment', async () => {
    const user = userEvent.setup();
    decidedAs('approve', { state: '' });
    renderRoutes(routes, PATH);
    await user.click(await screen.findByRole('button', { name: 'Approve' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Approve vendor bill' }));
    expect(await screen.findByTestId('approval-message')).toHaveTextContent(/^Approved\.$/);
    expect(decisions()[0]!.body).toEqual({ ids: [91], decision: 'approve', comment: '' });
  });

  it('rejects only with a comment: said before anything is sent, and the server’s word on it beside it too', async () => {
    const user = userEvent.setup();
    api.on('POST /netsuite/portal-approval', () =>
      problem(422, 'Please correct the comment.', [{ field: 'comment', message: 'Remove the control characters (line breaks and tabs are fine).' }]),
    );
    renderRoutes(routes, PATH);
    await user.click(await screen.findByRole('button', { name: 'Reject' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject vendor bill' });
    const comment = within(dialog).getByRole('textbox', { name: 'Comment' });
    expect(comment).toBeRequired();
    await user.type(comment, '   ');
    await user.click(within(dialog).getByRole('button', { name: 'Reject vendor bill' }));
    expect(comment).toHaveAccessibleDescription(expect.stringContaining('Say why you reject the vendor bill: the comment is added to its notes.'));
    expect(comment).toHaveAttribute('aria-invalid', 'true');
    expect(decisions()).toEqual([]);

    await user.type(comment, 'Wrong rate');
    await user.click(within(dialog).getByRole('button', { name: 'Reject vendor bill' }));
    await waitFor(() => expect(comment).toHaveAccessibleDescription(expect.stringContaining('Remove the control characters (line breaks and tabs are fine).')));
    // Refused: the dialog stays, the comment as typed.
    expect(screen.getByRole('dialog', { name: 'Reject vendor bill' })).toBe(dialog);
    expect(comment).toHaveValue('   Wrong rate');
    expect(decisions()[0]!.body).toEqual({ ids: [91], decision: 'reject', comment: 'Wrong rate' });
  });

  it('keeps the dialog and the comment when the request fails, and sends the same key again', async () => {
    const user = userEvent.setup();
    api.on('POST /netsuite/portal-approval', () => problem(503, 'NetSuite is not answering; try again shortly.'));
    renderRoutes(routes, PATH);
    await user.click(await screen.findByRole('button', { name: 'Reject' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject vendor bill' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Comment' }), 'Duplicate of BILL-0090');
    await user.click(within(dialog).getByRole('button', { name: 'Reject vendor bill' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('NetSuite is not answering; try again shortly.');
    expect(within(dialog).getByRole('textbox', { name: 'Comment' })).toHaveValue('Duplicate of BILL-0090');

    decidedAs('reject', { state: 'pending' });
    await user.click(within(dialog).getByRole('button', { name: 'Reject vendor bill' }));
    expect(await screen.findByTestId('approval-message')).toHaveTextContent('Rejected. Sending to NetSuite…');
    const [first, again] = decisions();
    expect(again!.headers.get('Idempotency-Key')).toBe(first!.headers.get('Idempotency-Key'));
    expect(again!.body).toEqual(first!.body);
  });

  it('says why the record was not decided', async () => {
    const user = userEvent.setup();
    api.on('POST /netsuite/portal-approval', () => {
      record = { ...vendorBillRecord, canApprove: false, status: 'Open' };
      const message = 'This vendor bill is no longer waiting for approval (it is Approved).';
      return json({ data: { decision: 'approve', saved: 0, failed: 1, results: [{ id: 91, title: 'Office chairs', saved: false, message }] } satisfies ApprovalResult });
    });
    renderRoutes(routes, PATH);
    await user.click(await screen.findByRole('button', { name: 'Approve' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Approve vendor bill' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Not approved');
    expect(alert).toHaveTextContent('This vendor bill is no longer waiting for approval (it is Approved).');
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull());
    await user.click(within(alert).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
