/**
 * A record's view page (`/<route>/view?id=42`): header with title, number, status badge,
 * key facts and the actions (approve or reject when it waits for the user's decision, edit,
 * print, open in the ERP); the tab bar; below it the record's line items (transactions)
 * and field groups, or the sub-tab the child route shows (`/<route>/view/<tab>?id=42`,
 * RecordTabPage). Its money (key facts, fields, lines) reads in the record's currency when
 * the answer names one, else in the base currency.
 */
import { useEffect, useRef, useState } from 'react';
import { Button, Group, Stack, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation, useOutlet, useSearchParams } from 'react-router';
import { ApiError } from '../../lib/api';
import { ApprovalActions, DecisionMessage, type DecisionNote } from './approval/RecordApproval';
import { EditingNotice, useEventsConnected } from '../events';
import { BadgeList, type BadgeItem } from '../../components/ui/BadgeList';
import { DeclaredValue } from './FieldValue';
import { fieldOnColumn, recordTabs, useRouteKind } from './kinds';
import { FieldGroups, keyFacts } from './FieldGroups';
import { editPathOf } from './form/links';
import { WriteStateNotice } from './form/WriteStateNotice';
import { LineSections } from './lineitems/LineItems';
import { lineItemTabs, sectionTabs } from './lineitems/lineItems';
import { RecordShortlist } from '../shortlist';
import { recordIdOf } from './recordId';
import { recordLoader } from './recordLoader';
import { listPath, printPath, viewPath } from './links';
import { KindCrumb } from './KindCrumb';
import { recordQuery } from './queries';
import { ErrorBlock, LoadingBlock, NoRecordId, RecordErrorBoundary } from './States';
import { DeviceCopyNote, NoDeviceCopy } from './offline/DeviceCopyNote';
import { statusColor } from './status';
import type { Kind, KindTab, RecordDetail } from './types';
import classes from './records.module.css';
import { recordKey } from '../../lib/queryKeys';

/** Starts fetching the record while the page renders. */
export const loader = recordLoader((queryClient, kind, id) => void queryClient.prefetchQuery(recordQuery(kind.name, id)));

/** The sub-tabs of the view page: the record's tabs but its line items, which show on the page itself. */
export function visibleTabs(kind: Kind, record: RecordDetail | undefined): KindTab[] {
  return sectionTabs(recordTabs(kind, record));
}

function ExternalIcon() {
  return (
    <svg width="14" height="14" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d="M14 4h6v6M20 4l-9 9M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5" />
    </svg>
  );
}

function PrintIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d="M6 9V3h12v6M6 18H4a1 1 0 0 1-1-1v-6a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2v6a1 1 0 0 1-1 1h-2" />
      <path d="M6 14h12v7H6z" />
    </svg>
  );
}

export const ErrorBoundary = RecordErrorBoundary;

export default function RecordViewPage() {
  const { kind, kinds, isPending, error, refetch, model } = useRouteKind();
  const [searchParams] = useSearchParams();
  const id = recordIdOf(searchParams);
  if (error) return <ErrorBlock error={error} what="the record kinds" onRetry={refetch} />;
  if (isPending) return <LoadingBlock label="Loading…" rows={4} />;
  if (!kind || !kinds) return <ErrorBlock error={new ApiError('404', `There is no record type "${model ?? ''}".`, 404)} what="this record type" />;
  if (id === null) return <NoRecordId kind={kind} />;
  return <RecordView key={`${kind.name}:${id}`} kind={kind} kinds={kinds} id={id} />;
}

/**
 * How often a view page refetches its record while its last write is on its way to the ERP
 * and the live event stream is down. While the stream is open, its `write-state` events
 * refresh the record instead (see features/events/apply.ts), so the page does not poll; the slow
 * fallback only keeps a "Saving to NetSuite" notice from hanging while disconnected.
 */
export const PENDING_WRITE_FALLBACK_MS = 15_000;

/** When a view page asks again while the server completes the record's document from the ERP. */
export const COMPLETING_POLL_MS = 1_500;

function RecordView({ kind, kinds, id }: { kind: Kind; kinds: Kind[]; id: number }) {
  // While the last change is pending and the event stream is down, ask now and then until the sync
  // pushed it or NetSuite refused it; while the server fetches the whole document (sublists), ask
  // once more shortly.
  const connected = useEventsConnected();
  const record = useQuery({
    ...recordQuery(kind.name, id),
    refetchInterval: (query) => {
      const data = query.state.data;
      if (data?.write?.state === 'pending' && !connected) return PENDING_WRITE_FALLBACK_MS;
      return data?.completing ? COMPLETING_POLL_MS : false;
    },
  });
  // Tabs read sublists from the document: once it is complete, theirs are stale.
  const queryClient = useQueryClient();
  const completing = record.data?.completing === true;
  const wasCompleting = useRef(false);
  useEffect(() => {
    if (wasCompleting.current && !completing) {
      void queryClient.invalidateQueries({ queryKey: [...recordKey(kind.name, id), 'tab'] });
    }
    wasCompleting.current = completing;
  }, [completing, queryClient, kind.name, id]);
  const outlet = useOutlet();
  const { pathname } = useLocation();
  const [decision, setDecision] = useState<DecisionNote | null>(null);
  const what = `${kind.label.toLowerCase()} ${id}`;

  if (record.isPending) return record.fetchStatus === 'paused' ? <NoDeviceCopy what={`this ${what}`} /> : <LoadingBlock label={`Loading ${what}…`} rows={6} />;
  if (record.error) {
    return (
      <ErrorBlock error={record.error} what={`this ${kind.label.toLowerCase()}`} onRetry={() => void record.refetch()}>
        <Button component={Link} to={listPath(kind)} size="compact-sm" variant="light">
          Go to {kind.plural.toLowerCase()}
        </Button>
      </ErrorBlock>
    );
  }
  const data = record.data;
  const statusField = fieldOnColumn(kind, 'status');
  const badges: BadgeItem[] = [];
  if (data.status) badges.push({ text: data.status, color: statusColor(data.status, statusField?.choices) });
  const tabs = visibleTabs(kind, data);
  const lines = lineItemTabs(recordTabs(kind, data));
  const detailsPath = viewPath(kind, id);
  const onDetails = !outlet;
  const editPath = editPathOf(kind, id);
  const name = data.title || `${kind.label} ${id}`;

  return (
    <Stack gap="md" className={classes.page}>
      <Stack gap={4}>
        <KindCrumb kind={kind} place={data.code} />
        <Group justify="space-between" align="flex-start" gap="sm" wrap="wrap">
          <Title order={1} className={classes.recordTitle}>
            {name}
          </Title>
          <Group gap="xs">
            <RecordShortlist kind={kind.name} id={id} />
            <ApprovalActions kind={kind} id={id} name={name} canApprove={data.canApprove} onDecided={setDecision} />
            {editPath && (
              <Button component={Link} to={editPath}>
                Edit
              </Button>
            )}
            {lines.length > 0 && (
              <Button component={Link} to={printPath(kind, id)} variant="default" leftSection={<PrintIcon />}>
                Print
              </Button>
            )}
            {data.erpUrl && (
              <Button component="a" href={data.erpUrl} target="_blank" rel="noopener noreferrer" variant="default" rightSection={<ExternalIcon />}>
                Open in NetSuite
              </Button>
            )}
          </Group>
        </Group>
        <BadgeList badges={badges} aria-label="Status" />
      </Stack>

      <DeviceCopyNote queryKey={recordQuery(kind.name, id).queryKey} dataUpdatedAt={record.dataUpdatedAt} what={`this ${kind.label.toLowerCase()}`} />
      <DecisionMessage note={decision} onDismiss={() => setDecision(null)} />

      <EditingNotice kind={kind} id={id} />
      <WriteStateNotice kind={kind} id={id} write={data.write} />

      <KeyFacts kind={kind} kinds={kinds} record={data} />

      {tabs.length > 0 && (
        <nav aria-label={`${kind.label} sections`} className={classes.tabBar}>
          <Link to={detailsPath} className={classes.tab} aria-current={onDetails ? 'page' : undefined}>
            Details
          </Link>
          {tabs.map((tab) => {
            const href = viewPath(kind, id, tab.name);
            return (
              <Link key={tab.name} to={href} className={classes.tab} aria-current={pathname === href.split('?')[0] ? 'page' : undefined}>
                {tab.label}
              </Link>
            );
          })}
        </nav>
      )}

      {outlet ?? (
        <>
          <LineSections kind={kind} id={id} tabs={lines} currency={data.currency} />
          <FieldGroups kind={kind} kinds={kinds} record={data} />
        </>
      )}
    </Stack>
  );
}

function KeyFacts({ kind, kinds, record }: { kind: Kind; kinds: Kind[]; record: RecordDetail }) {
  const facts = keyFacts(kind, record);
  if (facts.length === 0) return null;
  return (
    <dl className={classes.facts} aria-label="Key facts">
      {facts.map(({ field, value }) => (
        <div key={field.name}>
          <dt>{field.label}</dt>
          <dd>
            <DeclaredValue value={value} field={field} kinds={kinds} recordCurrency={record.currency} />
          </dd>
        </div>
      ))}
    </dl>
  );
}
