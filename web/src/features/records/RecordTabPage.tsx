/**
 * One sub-tab of a record's page (`/<route>/view/<tab>?id=42`; also below the create and
 * edit forms). What it shows depends on the tab's source in the kind registry:
 * files → the attachments with download; related/custom → a table of records of the
 * tab's kind, linked to their view pages; sublist (and custom tabs without a kind) → a
 * plain table.
 */
import { Button, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useRouteTab } from '../../lib/meta';
import { downloadFile, saveDownload } from './api';
import { FileWriteState } from './attachments/FileWriteState';
import { TabAdditions } from './attachments/TabAdditions';
import { DataTable } from './DataTable';
import { EquipmentCharges } from './EquipmentCharges';
import { fileTypeName, formatBytes, formatDateTime } from './format';
import { baseCurrency, kindByName, useRouteKind } from './kinds';
import { recordFilesQuery, recordQuery, recordTabQuery } from './queries';
import { recordIdOf } from './recordId';
import { recordLoader } from './recordLoader';
import { EmptyBlock, ErrorBlock, LoadingBlock, RecordErrorBoundary } from './States';
import { StatusTotalsTable } from './StatusTotals';
import type { FileInfo, Kind, KindTab } from './types';
import classes from './records.module.css';

/** The tab segment of a view path: `/project/view/billing` → "billing"; none on the bare view. */
export function tabFromPath(pathname: string): string | undefined {
  const parts = pathname.split('/').filter(Boolean);
  const view = parts.indexOf('view');
  const tab = view >= 0 ? parts[view + 1] : undefined;
  return tab ? decodeURIComponent(tab) : undefined;
}

function tabOf(kind: Kind, name: string | undefined, recordTabs?: KindTab[]): KindTab | undefined {
  if (!name) return undefined;
  return kind.tabs.find((t) => t.name === name) ?? recordTabs?.find((t) => t.name === name);
}

/** Starts fetching the tab's rows (or files) together with the record. */
export const loader = recordLoader((queryClient, kind, id, url) => {
  const name = tabFromPath(url.pathname);
  if (!name) return;
  if (tabOf(kind, name)?.source === 'files') void queryClient.prefetchQuery(recordFilesQuery(kind.name, id));
  else void queryClient.prefetchQuery(recordTabQuery(kind.name, id, name));
});

export const ErrorBoundary = RecordErrorBoundary;

export default function RecordTabPage() {
  const { kind, kinds } = useRouteKind();
  const [searchParams] = useSearchParams();
  const id = recordIdOf(searchParams);
  const name = useRouteTab();
  // The view page around this one shows loading and errors of the kinds and the record.
  const record = useQuery({ ...recordQuery(kind?.name ?? '', id ?? 0), enabled: !!kind && id !== null });
  if (!kind || !kinds || id === null || !name) return null;

  const tab = tabOf(kind, name, record.data?.tabs);
  if (!tab) {
    if (record.isPending) return <LoadingBlock label="Loading…" rows={4} />;
    return <EmptyBlock title={`This ${kind.label.toLowerCase()} has no “${name}” tab.`} />;
  }
  return (
    <section aria-label={tab.label} data-testid="record-tab">
      <Stack gap="sm">
        <TabAdditions kind={kind} id={id} tab={tab} />
        {tab.source === 'files' ? <FilesTab kind={kind} id={id} /> : <RowsTab kind={kind} kinds={kinds} id={id} tab={tab} />}
      </Stack>
    </section>
  );
}

function RowsTab({ kind, kinds, id, tab }: { kind: Kind; kinds: Kind[]; id: number; tab: KindTab }) {
  const rows = useQuery(recordTabQuery(kind.name, id, tab.name));
  const rowKind = tab.source === 'related' || tab.source === 'custom' ? kindByName(kinds, tab.kind) : undefined;
  const label = tab.label.toLowerCase();
  if (rows.isPending) return <LoadingBlock label={`Loading ${label}…`} rows={5} />;
  if (rows.error) return <ErrorBlock error={rows.error} what={label} onRetry={() => void rows.refetch()} />;
  // The project's cost details also carry the equipment charges, under the bills.
  const equipment = rows.data.equipment && <EquipmentCharges section={rows.data.equipment} currency={baseCurrency(kinds)} />;
  if (rows.data.rows.length === 0) {
    return (
      <>
        <EmptyBlock title={`No ${label} yet.`} />
        {equipment}
      </>
    );
  }
  // Records with a status and an amount are totalled by status over all of them, by the
  // server; the table's own total row would add up statuses and count only the rows shown.
  const totals = rows.data.totals;
  return (
    <Stack gap="xs">
      {totals && <StatusTotalsTable totals={totals} kind={rowKind} what={label} />}
      <DataTable caption={tab.label} columns={rows.data.columns} rows={rows.data.rows} kind={rowKind} kinds={kinds} totals={!totals} />
      {rows.data.hasMore && (
        <Text size="sm" c="dimmed">
          Showing the first {rows.data.rows.length} {label}.
        </Text>
      )}
      {equipment}
    </Stack>
  );
}

function FilesTab({ kind, id }: { kind: Kind; id: number }) {
  const files = useQuery(recordFilesQuery(kind.name, id));
  const [downloading, setDownloading] = useState<number | null>(null);
  const [problem, setProblem] = useState<unknown>(null);

  async function download(file: FileInfo) {
    setDownloading(file.id);
    setProblem(null);
    try {
      saveDownload(await downloadFile(kind.name, id, file.id), file.name);
    } catch (error) {
      setProblem(error);
    } finally {
      setDownloading(null);
    }
  }

  if (files.isPending) return <LoadingBlock label="Loading files…" rows={3} />;
  if (files.error) return <ErrorBlock error={files.error} what="the files" onRetry={() => void files.refetch()} />;
  if (files.data.length === 0) return <EmptyBlock title="No files are attached." />;
  return (
    <>
      {problem !== null && <ErrorBlock error={problem} what="the file" />}
      <div className={classes.tableWrap}>
        <Table className={classes.table} verticalSpacing={6} horizontalSpacing="sm">
          <caption className={classes.srOnly}>Files</caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Name</Table.Th>
              <Table.Th scope="col">Type</Table.Th>
              <Table.Th scope="col" className={classes.numeric}>
                Size
              </Table.Th>
              <Table.Th scope="col">Modified</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {files.data.map((file) => (
              <Table.Tr key={file.id}>
                <Table.Td>
                  <Button
                    variant="subtle"
                    size="compact-sm"
                    px={4}
                    loading={downloading === file.id}
                    onClick={() => void download(file)}
                    aria-label={`Download ${file.name}`}
                  >
                    {file.name}
                  </Button>
                  <FileWriteState file={file} />
                </Table.Td>
                <Table.Td>
                  <Text size="sm" c="dimmed" title={file.contentType}>
                    {fileTypeName(file.contentType, file.name)}
                  </Text>
                </Table.Td>
                <Table.Td className={classes.numeric}>{formatBytes(file.size)}</Table.Td>
                <Table.Td>{formatDateTime(file.modified)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </div>
    </>
  );
}
