/**
 * /sync: where the ERP sync stands, for roles with sync.view — per kind the last pull,
 * the records it pulled, the replica's lag and the last error, or that the kind is off in
 * the mapping or not in this account (and why), and the optional columns the account
 * lacks; the outbox's counts and
 * its open entries (changes on their way to NetSuite, or refused by it). A role under access
 * rules sees the kinds and entries of the records it may see, and the outbox counted over
 * those entries (no "Synced" count). Roles with
 * sync.admin start a pull of one kind or of all, incremental or full (asked first);
 * the page then refreshes every 5 seconds. A portal without an ERP says so.
 */
import { Alert, Badge, Button, Group, Modal, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { formatCount, formatDateTime, kindByName, viewPath, kindsQuery, EmptyBlock, ErrorBlock, LoadingBlock, RecordErrorBoundary, type Kind, recordClasses } from '../records';
import { failureMessage } from '../reports';
import { RequirePermission, useCan } from '../../components/RequirePermission';
import {
  formatLag,
  isNever,
  kindState,
  missingColumns,
  startSync,
  SYNC_POLL_MS,
  syncStatusQuery,
  unavailableReason,
  type KindState,
  type OutboxEntry,
  type SyncKind,
  type SyncStatus,
} from './sync';
import classes from './AdminPages.module.css';

export const ErrorBoundary = RecordErrorBoundary;

export default function SyncStatusPage() {
  return (
    <RequirePermission permission="sync.view" title="ERP sync" what="the ERP sync status">
      <SyncStatusView />
    </RequirePermission>
  );
}

/** A pull to start: one kind (by name, with its label) or every kind; incremental or full. */
interface RunRequest {
  kind?: string;
  label: string;
  full: boolean;
}

const runText = (run: RunRequest) => (run.full ? `A full resync of ${run.label}` : `A sync of ${run.label}`);

function SyncStatusView() {
  const isAdmin = useCan('sync.admin');
  const [polling, setPolling] = useState(false);
  const [confirmFull, setConfirmFull] = useState<RunRequest | null>(null);
  const status = useQuery({ ...syncStatusQuery(), refetchInterval: polling ? SYNC_POLL_MS : false });
  const kinds = useQuery(kindsQuery());
  const run = useMutation<unknown, Error, RunRequest>({
    mutationFn: ({ kind, full }) => startSync(kind, full),
    onSuccess: () => {
      setPolling(true);
      void status.refetch();
    },
  });

  function request(next: RunRequest) {
    if (next.full) setConfirmFull(next);
    else run.mutate(next);
  }

  // A portal without an ERP has no sync: its own database is the system of record.
  const notConnected = status.data && !status.data.connected ? status.data : null;
  const connected = status.data?.connected ? status.data : null;
  let body;
  if (notConnected) {
    body = (
      <Alert color="gray" variant="light" title="No ERP connected" role="note" data-testid="not-connected">
        <Text size="sm">{notConnected.message}</Text>
      </Alert>
    );
  } else if (status.error) {
    body = <ErrorBlock error={status.error} what="the sync status" onRetry={() => void status.refetch()} />;
  } else if (!connected) {
    body = <LoadingBlock label="Loading the sync status…" rows={6} />;
  } else {
    body = <StatusBody status={connected} kinds={kinds.data} isAdmin={isAdmin} busy={run.isPending} onRun={request} fetching={status.isFetching} />;
  }

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Title order={1}>ERP sync</Title>
        {isAdmin && connected && (
          <Group gap="xs">
            <Button onClick={() => request({ label: 'all kinds', full: false })} disabled={run.isPending}>
              Sync all kinds now
            </Button>
            <Button variant="default" onClick={() => request({ label: 'all kinds', full: true })} disabled={run.isPending}>
              Full resync of all kinds
            </Button>
          </Group>
        )}
      </Group>
      {run.isSuccess && (
        <Alert color="green" variant="light" title="Sync started" role="status" withCloseButton closeButtonLabel="Dismiss" onClose={() => run.reset()} data-testid="sync-started">
          <Text size="sm">
            {runText(run.variables)} started in the background. This page refreshes every {SYNC_POLL_MS / 1000} seconds while it is open.
          </Text>
        </Alert>
      )}
      {run.isError && (
        <Alert color="red" variant="light" title="The sync did not start" role="alert" withCloseButton closeButtonLabel="Dismiss" onClose={() => run.reset()}>
          <Text size="sm">{failureMessage(run.error)}</Text>
        </Alert>
      )}
      {body}
      <Modal opened={confirmFull !== null} onClose={() => setConfirmFull(null)} title={confirmFull ? `Full resync of ${confirmFull.label}?` : ''} centered>
        <Text size="sm">
          A full resync pulls every record{confirmFull?.kind ? ` of ${confirmFull.label}` : ''} from NetSuite again, not only what changed since the last pull. It takes longer and
          loads NetSuite more; the portal stays usable meanwhile.
        </Text>
        <Group justify="flex-end" mt="lg" gap="sm">
          <Button variant="default" onClick={() => setConfirmFull(null)} data-autofocus>
            Cancel
          </Button>
          <Button
            onClick={() => {
              if (confirmFull) run.mutate(confirmFull);
              setConfirmFull(null);
            }}
          >
            Start full resync
          </Button>
        </Group>
      </Modal>
    </Stack>
  );
}

interface StatusBodyProps {
  status: SyncStatus & { names?: Record<string, string> };
  kinds: Kind[] | undefined;
  isAdmin: boolean;
  busy: boolean;
  fetching: boolean;
  onRun: (run: RunRequest) => void;
}

function StatusBody({ status, kinds, isAdmin, busy, fetching, onRun }: StatusBodyProps) {
  const counts = status.outbox ?? {};
  return (
    <Stack gap="lg">
      <Text size="sm" c="dimmed">
        The portal pulls what changed in NetSuite every {formatLag(status.intervalSeconds)}, and sends the changes made here to NetSuite.
      </Text>
      {status.clock && (
        <Alert color="red" variant="light" title="NetSuite's times disagree: check the mapping's time zone" role="alert" data-testid="sync-clock">
          <Text size="sm">{status.clock}</Text>
          <Text size="sm" mt="xs">
            Records keep syncing, but the times shown for them are off until the mapping's <code>timezone</code> is corrected; run{' '}
            <code>portico netsuite check</code> to confirm the fix.
          </Text>
        </Alert>
      )}

      <Stack gap="xs" component="section" aria-labelledby="sync-kinds">
        <Title order={2} size="h3" id="sync-kinds">
          Record kinds
        </Title>
        <div className={recordClasses.tableWrap}>
          <Table verticalSpacing={6} horizontalSpacing="sm" aria-busy={fetching || undefined}>
            <caption>
              <VisuallyHidden>Sync status of each record kind</VisuallyHidden>
            </caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Kind</Table.Th>
                <Table.Th scope="col">Last pull</Table.Th>
                <Table.Th scope="col">Records pulled (last / total)</Table.Th>
                <Table.Th scope="col">Lag</Table.Th>
                <Table.Th scope="col">Status</Table.Th>
                {isAdmin && <Table.Th scope="col">Actions</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {status.kinds.map((k) => (
                <KindRow key={k.kind} kind={k} isAdmin={isAdmin} busy={busy} onRun={onRun} />
              ))}
            </Table.Tbody>
          </Table>
        </div>
      </Stack>

      <Stack gap="xs" component="section" aria-labelledby="sync-outbox">
        <Title order={2} size="h3" id="sync-outbox">
          Changes sent to NetSuite
        </Title>
        <dl className={recordClasses.facts} aria-label="Outbox">
          <div>
            <dt>Pending</dt>
            <dd data-testid="outbox-pending">{formatCount(counts.pending ?? 0)}</dd>
          </div>
          <div>
            <dt>Failed</dt>
            <dd data-testid="outbox-failed">{formatCount(counts.failed ?? 0)}</dd>
          </div>
          {counts.synced !== undefined && (
            <div>
              <dt>Synced</dt>
              <dd data-testid="outbox-synced">{formatCount(counts.synced)}</dd>
            </div>
          )}
          {!!counts.discarded && (
            <div>
              <dt>Discarded</dt>
              <dd data-testid="outbox-discarded">{formatCount(counts.discarded)}</dd>
            </div>
          )}
        </dl>
        {status.open.length === 0 ? (
          <EmptyBlock title="Nothing waiting: every change made here is in NetSuite" />
        ) : (
          <OpenEntries entries={status.open} names={status.names ?? {}} kinds={kinds} syncKinds={status.kinds} />
        )}
      </Stack>
    </Stack>
  );
}

function KindRow({ kind, isAdmin, busy, onRun }: { kind: SyncKind; isAdmin: boolean; busy: boolean; onRun: (run: RunRequest) => void }) {
  return (
    <Table.Tr data-testid="sync-kind-row">
      <Table.Th scope="row" fw={500}>
        {kind.label}
      </Table.Th>
      <Table.Td className={classes.nowrap}>{isNever(kind.lastRun) ? 'never' : formatDateTime(kind.lastRun)}</Table.Td>
      <Table.Td className={classes.nowrap}>
        {formatCount(kind.lastPulled)} / {formatCount(kind.pulledTotal)}
      </Table.Td>
      <Table.Td className={classes.nowrap}>{formatLag(kind.lagSeconds)}</Table.Td>
      <Table.Td className={classes.long}>
        <KindStatus kind={kind} />
      </Table.Td>
      {isAdmin && (
        <Table.Td>
          {/* A kind the mapping turns off is never synced: nothing to start. */}
          {!kind.off && (
            <Group gap="xs" wrap="nowrap">
              <Button size="compact-sm" variant="light" disabled={busy} onClick={() => onRun({ kind: kind.kind, label: kind.label, full: false })}>
                {/* One inline span: the button's label is a flex box, which would drop the spaces ("Syncnow"). */}
                <span>
                  Sync <VisuallyHidden>{kind.label}</VisuallyHidden> now
                </span>
              </Button>
              <Button size="compact-sm" variant="default" disabled={busy} onClick={() => onRun({ kind: kind.kind, label: kind.label, full: true })}>
                Full resync <VisuallyHidden>of {kind.label}</VisuallyHidden>
              </Button>
            </Group>
          )}
        </Table.Td>
      )}
    </Table.Tr>
  );
}

/**
 * A kind's status cell: a badge for where it stands, then what it needs said, in the body
 * text colour (readable in both colour schemes). A kind the account does not have, or the
 * mapping turns off, is a state of the account (a gray badge), not a failure (red);
 * optional columns the account lacks are named under the badge.
 */
function KindStatus({ kind }: { kind: SyncKind }) {
  const state = kindState(kind);
  const missing = state === 'off' || state === 'unavailable' ? [] : missingColumns(kind.missing);
  // A later failure that is not the account's lack of the kind is shown too.
  const otherError = state === 'unavailable' && kind.lastError && kind.lastError !== kind.unavailable ? kind.lastError : undefined;
  return (
    <Stack gap={4} align="flex-start">
      <Badge color={BADGE[state].color} variant={state === 'off' ? 'outline' : 'light'} data-testid="sync-kind-state">
        {BADGE[state].text}
      </Badge>
      {state === 'off' && (
        <Text size="sm">
          Not synced: the NetSuite mapping turns this kind off.
        </Text>
      )}
      {state === 'unavailable' && (
        <Text size="sm" data-testid="sync-kind-unavailable">
          {unavailableReason(kind.unavailable ?? '')}
        </Text>
      )}
      {(state === 'error' || otherError) && (
        <Text size="sm" c="red.8">
          {otherError ?? kind.lastError}
        </Text>
      )}
      {missing.length > 0 && (
        <Text size="sm" data-testid="sync-kind-missing">
          Missing in this account: {missing.join(', ')} (left empty)
        </Text>
      )}
    </Stack>
  );
}

const BADGE: Record<KindState, { text: string; color: string }> = {
  off: { text: 'Off in the mapping', color: 'gray' },
  unavailable: { text: 'Not in this account', color: 'gray' },
  error: { text: 'Error', color: 'red' },
  never: { text: 'Not synced yet', color: 'gray' },
  ok: { text: 'OK', color: 'green' },
};

/** The changes on their way to NetSuite or refused by it; each record by its name (its kind and id only when the portal no longer has it). */
function OpenEntries({ entries, names, kinds, syncKinds }: { entries: OutboxEntry[]; names: Record<string, string>; kinds: Kind[] | undefined; syncKinds: SyncKind[] }) {
  return (
    <div className={recordClasses.tableWrap}>
      <Table verticalSpacing={6} horizontalSpacing="sm">
        <caption>
          <VisuallyHidden>Changes waiting for NetSuite or refused by it, newest first</VisuallyHidden>
        </caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Kind</Table.Th>
            <Table.Th scope="col">Record</Table.Th>
            <Table.Th scope="col">Operation</Table.Th>
            <Table.Th scope="col">State</Table.Th>
            <Table.Th scope="col">Attempts</Table.Th>
            <Table.Th scope="col">Next attempt</Table.Th>
            <Table.Th scope="col">Error</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map((e) => {
            const kind = kindByName(kinds, e.kind);
            const kindLabel = kind?.label ?? syncKinds.find((k) => k.kind === e.kind)?.label ?? e.kind;
            const link = kind ? viewPath(kind, e.recordId) : undefined;
            const recordText = names[String(e.id)] ?? `${kindLabel} ${e.recordId}`;
            return (
              <Table.Tr key={e.id} data-testid="outbox-row">
                <Table.Td>{kindLabel}</Table.Td>
                <Table.Td className={classes.nowrap}>{link ? <Link to={link}>{recordText}</Link> : recordText}</Table.Td>
                <Table.Td>{e.op === 'create' ? 'Create' : 'Edit'}</Table.Td>
                <Table.Td>
                  <Badge color={e.state === 'failed' ? 'red' : 'blue'} variant="light">
                    {e.state === 'failed' ? 'Failed' : 'Pending'}
                  </Badge>
                </Table.Td>
                <Table.Td>{e.attempts}</Table.Td>
                <Table.Td className={classes.nowrap}>
                  {e.state === 'failed' ? (
                    <Text span size="sm" c="dimmed">
                      Waits for a retry
                    </Text>
                  ) : isNever(e.nextAt) ? (
                    'now'
                  ) : (
                    formatDateTime(e.nextAt)
                  )}
                </Table.Td>
                <Table.Td className={classes.long}>
                  {e.error ? (
                    <Text span size="sm" c="red.8">
                      {e.error}
                    </Text>
                  ) : null}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </div>
  );
}
