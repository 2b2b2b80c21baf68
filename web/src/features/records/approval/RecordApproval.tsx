/**
 * A record's approval on its view page: "Approve" and "Reject" among its actions while it
 * waits for a decision the user may make (its answer's `canApprove`), each opening the
 * decision's dialog; once decided, what became of it, in a message the page shows under
 * its header (the record refetches, so the buttons go once it no longer waits).
 */
import { Alert, Button } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import type { ApprovalDecision, ApprovalResult, Kind } from '../types';
import { decided, outcomeMessage } from './approval';
import { ApprovalDialog } from './ApprovalDialog';

/** What became of the last decision made on the page. */
export interface DecisionNote {
  decision: ApprovalDecision;
  /** It was decided (else `text` says why not). */
  ok: boolean;
  text: string;
}

/** The page's note about a decision, from the server's answer (one record's outcome). */
export function decisionNote(decision: ApprovalDecision, result: ApprovalResult): DecisionNote {
  const outcome = result.results[0] ?? { id: 0, saved: false };
  return { decision, ok: outcome.saved, text: outcomeMessage(decision, outcome) };
}

export interface ApprovalActionsProps {
  kind: Kind;
  id: number;
  /** The record's name, as the dialog speaks of it. */
  name: string;
  /** The record waits for the user's decision (its answer's `canApprove`). */
  canApprove: boolean | undefined;
  onDecided: (note: DecisionNote) => void;
}

/** The header's "Approve" and "Reject" buttons and their dialog; nothing when the record waits for no decision of the user's. */
export function ApprovalActions({ kind, id, name, canApprove, onDecided }: ApprovalActionsProps) {
  const [deciding, setDeciding] = useState<ApprovalDecision | null>(null);
  return (
    <>
      {canApprove && (
        <>
          <Button color="teal" onClick={() => setDeciding('approve')}>
            Approve
          </Button>
          <Button variant="light" color="red" onClick={() => setDeciding('reject')}>
            Reject
          </Button>
        </>
      )}
      {deciding && (
        <ApprovalDialog
          kind={kind}
          decision={deciding}
          ids={[id]}
          subject={`“${name}”`}
          onClose={() => setDeciding(null)}
          onDecided={(result) => {
            setDeciding(null);
            onDecided(decisionNote(deciding, result));
          }}
        />
      )}
    </>
  );
}

/**
 * The message about the last decision: a status when it was made, an alert when it was
 * not. It takes the focus as it shows (the button that opened the dialog is gone).
 */
export function DecisionMessage({ note, onDismiss }: { note: DecisionNote | null; onDismiss: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (note) ref.current?.focus();
  }, [note]);
  if (!note) return null;
  return (
    <Alert
      ref={ref}
      tabIndex={-1}
      color={note.ok ? 'green' : 'red'}
      variant="light"
      role={note.ok ? 'status' : 'alert'}
      title={note.ok ? undefined : `Not ${decided(note.decision).toLowerCase()}`}
      withCloseButton
      closeButtonLabel="Dismiss"
      onClose={onDismiss}
      data-testid="approval-message"
    >
      {note.text}
    </Alert>
  );
}
