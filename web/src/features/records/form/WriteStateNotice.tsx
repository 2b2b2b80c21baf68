import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError } from '../../../lib/api';
import { useAppStore } from '../../../lib/appState';
import { listPath } from '../links';
import { recordQuery } from '../queries';
import type { Kind, WriteState } from '../types';
import { useWriteAction } from '../writes';

/**
 * Where the portal's last write of a record stands with the ERP, on its view page:
 * nothing while in sync; "pending" while the change is on its way to NetSuite (the page
 * shows the portal's values meanwhile); "failed" with NetSuite's message, the portal's
 * values not being NetSuite's. A role that may edit or create the kind can then send the
 * change again ("Retry") or drop it ("Discard my changes", after a confirmation).
 */
export function WriteStateNotice({ kind, id, write }: { kind: Kind; id: number; write: WriteState | undefined }) {
  const label = kind.label.toLowerCase();
  if (write?.state === 'pending') {
    return (
      <Alert color="blue" variant="light" title="Saving to NetSuite" role="status" data-testid="write-state">
        <Text size="sm">The last change to this {label} is on its way to NetSuite. This page shows it already; NetSuite has it shortly.</Text>
      </Alert>
    );
  }
  if (write?.state === 'failed') {
    const canAct = kind.canEdit || kind.canCreate;
    return (
      <Alert color="red" variant="light" title="NetSuite did not take the last change" role="alert" data-testid="write-state">
        <Stack gap="xs">
          <Text size="sm">
            {write.error ? `NetSuite answered: ${write.error}` : 'NetSuite refused it.'}{' '}
            {canAct
              ? `${kind.canEdit ? `Edit the ${label} to correct it, retry` : 'Retry'} sending it as it is, or discard your changes.`
              : `Ask someone who may change ${kind.plural.toLowerCase()}, or an administrator.`}
          </Text>
          {canAct && <FailedWriteActions kind={kind} id={id} />}
        </Stack>
      </Alert>
    );
  }
  return null;
}

/** "Retry" and "Discard my changes" (confirmed in a dialog) of a failed write; their failures show below them. */
function FailedWriteActions({ kind, id }: { kind: Kind; id: number }) {
  const action = useWriteAction(kind.name, id);
  const [confirming, setConfirming] = useState(false);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const raiseAlert = useAppStore((s) => s.raiseAlert);
  const busy = action.isPending ? action.variables : undefined;

  function discard() {
    setConfirming(false);
    action.mutate('discard', {
      onSuccess: () => {
        // A new record NetSuite never had is gone with its changes: back to the list.
        const error = queryClient.getQueryState(recordQuery(kind.name, id).queryKey)?.error;
        if (error instanceof ApiError && error.status === 404) {
          raiseAlert({ type: 'alert-info', message: `The new ${kind.label.toLowerCase()} was discarded: NetSuite never had it.` });
          void navigate(listPath(kind));
        }
      },
    });
  }

  return (
    <>
      <Group gap="xs">
        <Button size="compact-sm" variant="light" color="red" loading={busy === 'retry'} disabled={action.isPending && busy !== 'retry'} onClick={() => action.mutate('retry')}>
          Retry
        </Button>
        <Button size="compact-sm" variant="default" loading={busy === 'discard'} disabled={action.isPending && busy !== 'discard'} onClick={() => setConfirming(true)}>
          Discard my changes
        </Button>
      </Group>
      {action.error && (
        <Text size="sm" c="red.8" data-testid="write-action-error">
          {action.variables === 'discard' ? 'Your changes could not be discarded' : 'The change could not be sent again'}: {action.error.message}
        </Text>
      )}
      <Modal opened={confirming} onClose={() => setConfirming(false)} title="Discard your changes?" centered>
        <Text size="sm">Discard your changes to this record? It goes back to what NetSuite has.</Text>
        <Group justify="flex-end" mt="lg" gap="sm">
          <Button variant="default" onClick={() => setConfirming(false)} data-autofocus>
            Keep my changes
          </Button>
          <Button color="red" onClick={discard}>
            Discard
          </Button>
        </Group>
      </Modal>
    </>
  );
}
