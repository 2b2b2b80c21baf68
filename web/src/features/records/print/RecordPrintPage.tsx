/**
 * A record as a printable document (`/<route>/view/print?id=42`, no navbar): an invoice
 * or a bill as it goes on paper — the company's letterhead (its name, address and contact
 * lines, `GET /api/v1/company`), the kind and number, its dates and terms, who it is for
 * (with the party's address, when its record keeps one), what it is for, its line items
 * with their total, and its amounts in the record's currency. Built from the registry's
 * fields like every record page, so any kind with line items prints. On screen it is a
 * white sheet with "Back", "Download PDF" and "Print" above it; printed, only the sheet.
 * The PDF is the same document drawn as text (printDocument.ts, pdf.ts), made in the
 * browser; its code loads only when asked for.
 */
import { Alert, Button, Group, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { saveDownload } from '../api';
import { DeclaredValue } from '../FieldValue';
import type { FieldEntry } from '../FieldGroups';
import { recordTabs, useRouteKind } from '../kinds';
import { LineSections } from '../lineitems/LineItems';
import { lineItemTabs } from '../lineitems/lineItems';
import { viewPath } from '../links';
import { recordQuery, recordTabQuery } from '../queries';
import { recordIdOf } from '../recordId';
import { recordLoader } from '../recordLoader';
import { ErrorBlock, errorSentence, LoadingBlock, NoRecordId, RecordErrorBoundary } from '../States';
import type { Kind, RecordDetail } from '../types';
import { companyQuery, letterhead } from './company';
import { printDocument } from './printDocument';
import { partyAddress, partyAddressSource, printLayout } from './printLayout';
import { loadPrintSources } from './printSources';
import classes from './RecordPrintPage.module.css';

/** Starts fetching the record, its lines and the letterhead while the page renders. */
export const loader = recordLoader((queryClient, kind, id) => {
  void queryClient.prefetchQuery(recordQuery(kind.name, id));
  void queryClient.prefetchQuery(companyQuery());
  for (const tab of lineItemTabs(kind.tabs)) void queryClient.prefetchQuery(recordTabQuery(kind.name, id, tab.name));
});

export const ErrorBoundary = RecordErrorBoundary;

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
  const pdf = usePdfDownload(kind, kinds);
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
  const { facts, parties, amounts, subject } = printLayout(kind, data);
  return (
    <div className={classes.page}>
      <Group justify="space-between" className={classes.toolbar} gap="xs">
        {back}
        <Group gap="xs">
          <Button variant="default" onClick={() => void pdf.make(data)} loading={pdf.busy} aria-busy={pdf.busy}>
            Download PDF
          </Button>
          <Button onClick={() => window.print()}>Print</Button>
        </Group>
      </Group>
      {pdf.error && (
        <Alert color="red" variant="light" role="alert" title="The PDF could not be made" className={classes.toolbar}>
          {pdf.error} Try again, or print the sheet and save it as a PDF from the print dialog.
        </Alert>
      )}
      <article className={classes.sheet} aria-labelledby={titleId} data-testid="print-sheet">
        <Letterhead />
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
        {subject && (
          <Text className={classes.subject} fw={600}>
            {subject}
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
  const source = partyAddressSource(entry, kinds);
  const party = useQuery({ ...recordQuery(source?.kind.name ?? '', source?.id ?? 0), enabled: !!source });
  const address = source && party.data ? partyAddress(party.data, source.field) : '';
  if (address === '') return null;
  return <address className={classes.address}>{address}</address>;
}

/**
 * The company's letterhead at the top of the sheet: its name, address and contact lines.
 * Nothing while it loads or when it cannot be read (the document stands without it).
 */
function Letterhead() {
  const company = useQuery(companyQuery());
  if (!company.data) return null;
  const { name, address, contact } = letterhead(company.data);
  return (
    <div className={classes.letterhead} data-testid="letterhead">
      <p className={classes.company}>{name}</p>
      {address.length > 0 && <address className={classes.companyAddress}>{address.join('\n')}</address>}
      {contact.length > 0 && (
        <p className={classes.contact}>
          {contact.map((line) => (
            <span key={line}>{line}</span>
          ))}
        </p>
      )}
    </div>
  );
}

/**
 * "Download PDF": makes the sheet a PDF file named after the document ("Invoice
 * INV-1042.pdf") in the browser and hands it to the browser as a download. `busy` while it
 * is made; `error` says why the last try failed (a new try clears it).
 */
function usePdfDownload(kind: Kind, kinds: Kind[]) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const make = async (record: RecordDetail) => {
    setBusy(true);
    setError(null);
    try {
      const [sources, { buildPdf }] = await Promise.all([loadPrintSources(queryClient, kind, kinds, record), import('./pdf')]);
      const document = printDocument(sources);
      saveDownload({ blob: buildPdf(document, sources.company?.address.country), filename: document.filename }, document.filename);
    } catch (e) {
      setError(errorSentence(e, `the ${kind.label.toLowerCase()}`));
    } finally {
      setBusy(false);
    }
  };
  return { make, busy, error };
}
