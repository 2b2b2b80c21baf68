/**
 * A record as a printable document (`/<route>/view/print?id=42`, no navbar): an invoice
 * or a bill as it goes on paper — the kind and number, its dates and terms, who it is
 * for (with the party's address, when its record keeps one), what it is for, its line items with their total, and its amounts. Built from the
 * registry's fields like every record page, so any kind with line items prints. On
 * screen it is a white sheet with "Back" and "Print" above it; printed, only the sheet.
 */
import { Button, Group, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useId, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { DeclaredValue } from '../FieldValue';
import { recordValues, type FieldEntry } from '../FieldGroups';
import { isRef } from '../format';
import { kindByName, recordTabs, useRouteKind } from '../kinds';
import { LineSections } from '../lineitems/LineItems';
import { lineItemTabs } from '../lineitems/lineItems';
import { viewPath } from '../links';
import { recordQuery, recordTabQuery } from '../queries';
import { recordIdOf } from '../recordId';
import { recordLoader } from '../recordLoader';
import { ErrorBlock, LoadingBlock, NoRecordId, RecordErrorBoundary } from '../States';
import type { Kind, RecordDetail } from '../types';
import classes from './RecordPrintPage.module.css';

/** Starts fetching the record and its lines while the page renders. */
export const loader = recordLoader((queryClient, kind, id) => {
  void queryClient.prefetchQuery(recordQuery(kind.name, id));
  for (const tab of lineItemTabs(kind.tabs)) void queryClient.prefetchQuery(recordTabQuery(kind.name, id, tab.name));
});

export const ErrorBoundary = RecordErrorBoundary;

/** Where each declared field goes on the sheet. */
export interface PrintLayout {
  /** Dates, number-like and plain facts: the block beside the title. */
  facts: FieldEntry[];
  /** Who and what it concerns: the references (client or vendor, project). */
  parties: FieldEntry[];
  /** The amounts, under the lines. */
  amounts: FieldEntry[];
}

/** The sheet's blocks from the kind's fields; the title and number head the sheet, empty fields are left out. */
export function printLayout(kind: Kind, record: RecordDetail): PrintLayout {
  const values = recordValues(record);
  const layout: PrintLayout = { facts: [], parties: [], amounts: [] };
  for (const field of kind.fields) {
    if (field.column === 'title' || field.column === 'code') continue;
    const value = values.get(field.name)?.value;
    if (value === null || value === undefined || value === '') continue;
    const entry = { field, value };
    if (field.type === 'reference') layout.parties.push(entry);
    else if (field.type === 'money' || field.type === 'quantity') layout.amounts.push(entry);
    else layout.facts.push(entry);
  }
  return layout;
}

export default function RecordPrintPage() {
  const { kind, kinds } = useRouteKind();
  const [searchParams] = useSearchParams();
  const id = recordIdOf(searchParams);
  // The parent route (KindPages) shows loading and errors of the kinds.
  if (!kind || !kinds) return null;
  if (id === null) return <NoRecordId kind={kind} />;
  return <PrintDocument kind={kind} kinds={kinds} id={id} />;
}

function PrintDocument({ kind, kinds, id }: { kind: Kind; kinds: Kind[]; id: number }) {
  const record = useQuery(recordQuery(kind.name, id));
  const titleId = useId();
  const label = kind.label.toLowerCase();
  const back = (
    <Button component={Link} to={viewPath(kind, id)} variant="default">
      Back to the {label}
    </Button>
  );
  if (record.isPending) return <LoadingBlock label={`Loading ${label} ${id}…`} rows={6} />;
  if (record.error) {
    return (
      <ErrorBlock error={record.error} what={`this ${label}`} onRetry={() => void record.refetch()}>
        {back}
      </ErrorBlock>
    );
  }
  const data = record.data;
  const { facts, parties, amounts } = printLayout(kind, data);
  return (
    <div className={classes.page}>
      <Group justify="space-between" className={classes.toolbar} gap="xs">
        {back}
        <Button onClick={() => window.print()}>Print</Button>
      </Group>
      <article className={classes.sheet} aria-labelledby={titleId} data-testid="print-sheet">
        <header className={classes.head}>
          <div>
            <h1 id={titleId} className={classes.kind}>
              {kind.label}
            </h1>
            {data.code && <p className={classes.number}>{data.code}</p>}
          </div>
          {facts.length > 0 && <Facts entries={facts} kinds={kinds} currency={data.currency} className={classes.facts} />}
        </header>
        {parties.length > 0 && (
          <Facts
            entries={parties}
            kinds={kinds}
            currency={data.currency}
            className={classes.parties}
            below={(entry) => <PartyAddress entry={entry} kinds={kinds} />}
          />
        )}
        {data.title && data.title !== data.code && (
          <Text className={classes.subject} fw={600}>
            {data.title}
          </Text>
        )}
        <LineSections kind={kind} id={id} tabs={lineItemTabs(recordTabs(kind, data))} currency={data.currency} />
        {amounts.length > 0 && <Facts entries={amounts} kinds={kinds} currency={data.currency} className={classes.amounts} />}
      </article>
    </div>
  );
}

/**
 * Fields of the record as a definition list; `currency` is the record's own
 * (RecordDetail.currency); `below` adds to a value (a party's address).
 */
function Facts({
  entries,
  kinds,
  currency,
  className,
  below,
}: {
  entries: FieldEntry[];
  kinds: Kind[];
  currency?: string;
  className?: string;
  below?: (entry: FieldEntry) => ReactNode;
}) {
  return (
    <dl className={className}>
      {entries.map((entry) => (
        <div key={entry.field.name} className={classes.fact}>
          <dt>{entry.field.label}</dt>
          <dd>
            <DeclaredValue value={entry.value} field={entry.field} kinds={kinds} recordCurrency={currency} compact />
            {below?.(entry)}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * The address of a party the document names (the client an invoice bills, the vendor of a
 * bill), read from its record: when its kind keeps one (Kind.address) and the role may see it.
 */
function PartyAddress({ entry, kinds }: { entry: FieldEntry; kinds: Kind[] }) {
  const partyKind = entry.field.type === 'reference' ? kindByName(kinds, entry.field.ref) : undefined;
  const id = isRef(entry.value) ? entry.value.id : 0;
  const field = partyKind?.address;
  const party = useQuery({ ...recordQuery(partyKind?.name ?? '', id), enabled: !!field && id > 0 });
  const address = field && party.data ? recordValues(party.data).get(field)?.value : undefined;
  if (typeof address !== 'string' || address.trim() === '') return null;
  return <address className={classes.address}>{address}</address>;
}
