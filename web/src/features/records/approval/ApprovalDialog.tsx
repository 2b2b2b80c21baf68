/**
 * The dialog of an approval decision: approve or reject one record (its page) or the
 * selected records of a list, with a comment — required to reject, optional to approve —
 * checked as the server checks it before it is sent. One request; the server decides each
 * record on its own and says what became of each. A refused request (the server's message
 * about the comment beside it, any other above the buttons) keeps the dialog open and the
 * comment as typed; sending it again unchanged carries the same Idempotency-Key, so a
 * decision whose answer was lost is not made twice.
 */
import { Alert, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { additionProblem, fieldMessage } from '../attachments/problems';
import { BulkResultView, newKey } from '../BulkActions';
import { formatCount } from '../format';
import { useApproval } from '../queries';
import type { ApprovalDecision, ApprovalResult, Kind } from '../types';
import { commentProblem, decided, decisionTitle } from './approval';
import { MAX_NOTE } from '../writes';

export interface ApprovalDialogProps {
  kind: Kind;
  decision: ApprovalDecision;
  /** The records decided: one record's page gives its id and `subject`; a list its selection. */
  ids: readonly number[];
  /** The record decided on its page, by name ("“Office chairs”"); absent for a list's selection. */
  subject?: string;
  onClose: () => void;
  /**
   * The server answered. With `report`, the dialog then shows what became of each record
   * (a list's selection); without, the caller says it and closes the dialog (a record page).
   */
  onDecided: (result: ApprovalResult) => void;
  report?: boolean;
}

/** Mount it only while open (a fresh comment each time). */
export function ApprovalDialog({ kind, decision, ids: asked, subject, onClose, onDecided, report }: ApprovalDialogProps) {
  // The records as it opened: deciding them unselects them, and the dialog still speaks of
  // them ("Approve 3 vendor bills", not 0) until it closes.
  const [ids] = useState(() => [...asked]);
  const [comment, setComment] = useState('');
  const [commentError, setCommentError] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  // One key per comment: a retry of the same decision (after a lost answer) reuses it.
  const [key, setKey] = useState(newKey);
  const [result, setResult] = useState<ApprovalResult | null>(null);
  const approval = useApproval();
  const title = decisionTitle(decision, kind, subject === undefined ? ids.length : undefined);
  const rejecting = decision === 'reject';
  const what = subject ?? `the ${formatCount(ids.length)} selected ${(ids.length === 1 ? kind.label : kind.plural).toLowerCase()}`;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const wrong = commentProblem(kind, decision, comment);
    setCommentError(wrong);
    setProblem(null);
    if (wrong) return;
    try {
      const answer = await approval.mutateAsync({ type: kind.name, input: { ids, decision, comment: comment.trim() }, key });
      if (report) setResult(answer);
      onDecided(answer);
    } catch (error) {
      const onComment = fieldMessage(error, 'comment');
      if (onComment) setCommentError(onComment);
      else setProblem(additionProblem(error, 'comment'));
    }
  }

  return (
    <Modal opened onClose={onClose} title={title} centered size="md">
      {result ? (
        <BulkResultView kind={kind} result={result} done={decided(decision)} what="decisions" onClose={onClose} />
      ) : (
        <form onSubmit={(e) => void submit(e)} noValidate aria-label={title}>
          <Stack gap="sm">
            <Text size="sm">
              {rejecting ? `Rejects ${what}. Say why: the comment is added to the notes.` : `Approves ${what}. A comment is added to the notes.`}
            </Text>
            <Textarea
              label={rejecting ? 'Comment' : 'Comment (optional)'}
              required={rejecting}
              description={`${formatCount([...comment.trim()].length)} / ${formatCount(MAX_NOTE)} characters`}
              rows={4}
              resize="vertical"
              value={comment}
              onChange={(event) => {
                setComment(event.currentTarget.value);
                setCommentError(null);
                setKey(newKey());
              }}
              error={commentError}
              data-autofocus
            />
            {problem && (
              <Alert color="red" variant="light" role="alert" title={`Not ${decided(decision).toLowerCase()}`}>
                {problem}
              </Alert>
            )}
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit" loading={approval.isPending} color={rejecting ? 'red' : 'teal'}>
                {title}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
