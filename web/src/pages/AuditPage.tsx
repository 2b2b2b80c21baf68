/**
 * /audit: the tenant's audit log for roles with audit.view — when, what, who (in which
 * role, from where) and about what — newest first, filtered by event, user and record
 * kind, 100 more at a time with "Load more".
 */
import { Anchor, Button, Group, NativeSelect, Stack, Table, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { formatDateTime } from '../records/format';
import { kindByName } from '../records/kinds';
import { viewPath } from '../records/links';
import { kindsQuery } from '../records/queries';
import { EmptyBlock, ErrorBlock, LoadingBlock, RecordErrorBoundary } from '../records/States';
import { AUDIT_EVENTS, auditPageQuery, detailText, nextCursor, type AuditFilter } from './audit';
import { RequirePermission } from './RequirePermission';
import recordClasses from '../records/records.module.css';
import classes from './AdminPages.module.css';

export const ErrorBoundary = RecordErrorBoundary;

export default function AuditPage() {
  return (
    <RequirePermission permission="audit.view" title="Audit log" what="the audit log">
      <AuditLog />
    </RequirePermission>
  );
}

const eventLabel = (event: string) => AUDIT_EVENTS.find((e) => e.value === event)?.label ?? event;

function AuditLog() {
  const [filter, setFilter] = useState<AuditFilter>({ event: '', userId: '', kind: '' });
  // Where each page shown starts: the newest events, then before the last event of each.
  const [cursors, setCursors] = useState<(number | undefined)[]>([undefined]);
  const [userText, setUserText] = useState('');
  const kinds = useQuery(kindsQuery());
  const pages = useQueries({ queries: cursors.map((before) => auditPageQuery(filter, before)) });
  const first = pages[0]!;
  const last = pages[pages.length - 1]!;
  const more = nextCursor(last.data);
  const set = (patch: Partial<AuditFilter>) => {
    setFilter((f) => ({ ...f, ...patch }));
    setCursors([undefined]);
  };
  const userProblem = userText.trim() !== '' && !/^[1-9]\d*$/.test(userText.trim()) ? 'A user id is a positive number.' : undefined;
  const events = pages.flatMap((p) => p.data ?? []);

  function filterUser(id: string) {
    setUserText(id);
    set({ userId: id });
  }

  let body;
  if (first.error) body = <ErrorBlock error={first.error} what="the audit log" onRetry={() => void first.refetch()} />;
  else if (first.isPending) body = <LoadingBlock label="Loading the audit log…" rows={8} />;
  else if (events.length === 0) body = <EmptyBlock title="No events match these filters" />;
  else
    body = (
      <div className={recordClasses.tableWrap}>
        <Table verticalSpacing={6} horizontalSpacing="sm" aria-busy={pages.some((p) => p.isFetching) || undefined}>
          <caption>
            <VisuallyHidden>Audit log, newest first</VisuallyHidden>
          </caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">When</Table.Th>
              <Table.Th scope="col">Event</Table.Th>
              <Table.Th scope="col">User</Table.Th>
              <Table.Th scope="col">Role</Table.Th>
              <Table.Th scope="col">Record</Table.Th>
              <Table.Th scope="col">Detail</Table.Th>
              <Table.Th scope="col">IP address</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {events.map((e) => {
              const kind = kindByName(kinds.data, e.kind);
              const recordLink = kind && e.recordId ? viewPath(kind, e.recordId) : undefined;
              return (
                <Table.Tr key={e.id} data-testid="audit-row">
                  <Table.Td className={classes.nowrap}>{formatDateTime(e.at)}</Table.Td>
                  <Table.Td>{eventLabel(e.event)}</Table.Td>
                  <Table.Td>
                    {e.userId ? (
                      <Anchor component="button" type="button" size="sm" onClick={() => filterUser(String(e.userId))} title={`Only events of user ${e.userId}`}>
                        {e.user || `User ${e.userId}`}
                      </Anchor>
                    ) : (
                      <Text span size="sm" c="dimmed">
                        Unknown
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>{e.role}</Table.Td>
                  <Table.Td>
                    {e.kind && e.recordId ? recordLink ? <Link to={recordLink}>{`${kind?.label ?? e.kind} ${e.recordId}`}</Link> : `${e.kind} ${e.recordId}` : ''}
                  </Table.Td>
                  <Table.Td className={classes.long}>{detailText(e.detail)}</Table.Td>
                  <Table.Td>{e.ip}</Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </div>
    );

  return (
    <Stack gap="md">
      <Title order={1}>Audit log</Title>
      <Group gap="sm" align="flex-start" role="search" aria-label="Filter the audit log">
        <NativeSelect label="Event" value={filter.event} data={[{ value: '', label: 'Every event' }, ...AUDIT_EVENTS]} onChange={(e) => set({ event: e.currentTarget.value })} />
        <TextInput
          label="User id"
          inputMode="numeric"
          placeholder="Any user"
          value={userText}
          onChange={(e) => {
            const text = e.currentTarget.value;
            setUserText(text);
            if (text.trim() === '' || /^[1-9]\d*$/.test(text.trim())) set({ userId: text.trim() });
          }}
          error={userProblem}
          autoComplete="off"
        />
        <NativeSelect
          label="Record kind"
          value={filter.kind}
          data={[{ value: '', label: 'Any kind' }, ...(kinds.data ?? []).map((k) => ({ value: k.name, label: k.plural }))]}
          onChange={(e) => set({ kind: e.currentTarget.value })}
        />
      </Group>
      {body}
      {events.length > 0 && (
        <Group gap="sm">
          {last.error ? (
            <ErrorBlock error={last.error} what="more events" onRetry={() => void last.refetch()} />
          ) : last.isPending || more !== undefined ? (
            <Button variant="default" loading={last.isPending} onClick={() => more !== undefined && setCursors((c) => [...c, more])}>
              Load more
            </Button>
          ) : (
            <Text size="sm" c="dimmed">
              That is every event{filter.event || filter.userId || filter.kind ? ' matching these filters' : ''}.
            </Text>
          )}
        </Group>
      )}
    </Stack>
  );
}
