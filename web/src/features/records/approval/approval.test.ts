import { describe, expect, it } from 'vitest';
import { vendorBillKind } from '../kinds.fixture';
import { canDecide, commentProblem, decisionTitle, outcomeMessage } from './approval';
import { MAX_NOTE } from '../writes';

describe('approval decisions', () => {
  it('check the comment as the server does: a rejection says why, none is too long', () => {
    expect(commentProblem(vendorBillKind, 'reject', ' \n ')).toBe('Say why you reject the vendor bill: the comment is added to its notes.');
    expect(commentProblem(vendorBillKind, 'approve', '')).toBeNull();
    expect(commentProblem(vendorBillKind, 'reject', 'Wrong rate')).toBeNull();
    // Characters as the server counts them (code points), after trimming.
    expect(commentProblem(vendorBillKind, 'approve', ` ${'é'.repeat(MAX_NOTE)} `)).toBeNull();
    expect(commentProblem(vendorBillKind, 'approve', '😀'.repeat(MAX_NOTE))).toBeNull();
    expect(commentProblem(vendorBillKind, 'approve', 'x'.repeat(MAX_NOTE + 1))).toBe('Keep the comment under 4,001 characters.');
  });

  it('are named by the kind, with how many for a selection', () => {
    expect(decisionTitle('approve', vendorBillKind)).toBe('Approve vendor bill');
    expect(decisionTitle('reject', vendorBillKind, 1)).toBe('Reject 1 vendor bill');
    expect(decisionTitle('approve', vendorBillKind, 1200)).toBe('Approve 1,200 vendor bills');
  });

  it('say what became of a record', () => {
    expect(outcomeMessage('approve', { id: 1, saved: true, write: { state: '' } })).toBe('Approved.');
    expect(outcomeMessage('approve', { id: 1, saved: true, unchanged: true })).toBe('Approved.');
    expect(outcomeMessage('reject', { id: 1, saved: true, write: { state: 'pending' } })).toBe('Rejected. Sending to NetSuite…');
    expect(outcomeMessage('approve', { id: 1, saved: true, write: { state: 'failed', error: 'Period closed.' } })).toBe('Approved here, but NetSuite did not take it: Period closed.');
    expect(outcomeMessage('approve', { id: 1, saved: true, write: { state: '' }, message: 'Decided, but the comment was not added: Not found.' })).toBe(
      'Approved. Decided, but the comment was not added: Not found.',
    );
    expect(outcomeMessage('reject', { id: 1, saved: false, message: 'This vendor bill is no longer waiting for approval (it is Approved).' })).toBe(
      'This vendor bill is no longer waiting for approval (it is Approved).',
    );
    expect(outcomeMessage('reject', { id: 1, saved: false })).toBe('It was not rejected.');
  });

  it('are offered in bulk only for a kind that goes through approval, to a role that approves', () => {
    expect(canDecide(vendorBillKind)).toBe(true);
    expect(canDecide({ ...vendorBillKind, canApprove: false })).toBe(false);
    expect(canDecide({ ...vendorBillKind, approval: undefined })).toBe(false);
  });
});
