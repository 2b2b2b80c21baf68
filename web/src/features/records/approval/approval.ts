/**
 * Approval decisions (`POST {product}-approval`): who may make them in bulk, the comment
 * check the server makes too, and what a decision and its outcome read as.
 */
import { formatCount } from '../format';
import type { ApprovalDecision, BulkOutcome, Kind } from '../types';
import { MAX_NOTE } from '../writes';

/** Whether the role may decide records of the kind in bulk: it goes through approval and the role approves. */
export function canDecide(kind: Pick<Kind, 'approval' | 'canApprove'>): boolean {
  return !!kind.approval && kind.canApprove;
}

/**
 * What is wrong with a decision's comment, in the server's words, before it is sent: a
 * rejection says why; no comment is longer than {@link MAX_NOTE} characters (it becomes a note). Null when
 * it may go. The server checks again (its 422 names the field `comment`).
 */
export function commentProblem(kind: Pick<Kind, 'label'>, decision: ApprovalDecision, comment: string): string | null {
  const text = comment.trim();
  if (decision === 'reject' && text === '') return `Say why you reject the ${kind.label.toLowerCase()}: the comment is added to its notes.`;
  if ([...text].length > MAX_NOTE) return `Keep the comment under ${formatCount(MAX_NOTE + 1)} characters.`;
  return null;
}

/** "Approve 3 vendor bills", "Reject vendor bill" (one record, on its page): the decision's button and title. */
export function decisionTitle(decision: ApprovalDecision, kind: Pick<Kind, 'label' | 'plural'>, count?: number): string {
  const verb = decision === 'approve' ? 'Approve' : 'Reject';
  if (count === undefined) return `${verb} ${kind.label.toLowerCase()}`;
  return `${verb} ${formatCount(count)} ${(count === 1 ? kind.label : kind.plural).toLowerCase()}`;
}

/** "Approved", "Rejected". */
export function decided(decision: ApprovalDecision): string {
  return decision === 'approve' ? 'Approved' : 'Rejected';
}

/**
 * What became of a record decided on its page, in a sentence: "Approved." once NetSuite has
 * it, "Approved. Sending to NetSuite…" while it is on its way, and what the server adds (a
 * comment that could not be added to the notes); when it was not decided, why.
 */
export function outcomeMessage(decision: ApprovalDecision, outcome: BulkOutcome): string {
  if (!outcome.saved) return outcome.message || `It was not ${decided(decision).toLowerCase()}.`;
  const done = decided(decision);
  const said =
    outcome.write?.state === 'pending'
      ? `${done}. Sending to NetSuite…`
      : outcome.write?.state === 'failed'
        ? `${done} here, but NetSuite did not take it${outcome.write.error ? `: ${outcome.write.error}` : '.'}`
        : `${done}.`;
  return outcome.message ? `${said} ${outcome.message}` : said;
}
