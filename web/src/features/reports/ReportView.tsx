/**
 * /reports/{id}: a saved report run now: its chart and table, a CSV export of every group
 * or record, and Edit (for those who may change it), which opens the builder in place
 * (/reports/{id}?edit=1).
 */
import { Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../../lib/paths';
import { saveDownload, kindByName, kindsQuery, ErrorBlock, LoadingBlock } from '../records';
import { downloadReportCsv } from './api';
import { failureMessage } from './http';
import { reportEditPath } from './ReportList';
import { reportRunQuery, reportsQuery } from './queries';
import { ReportResult } from './ReportResult';

export function ReportView({ id }: { id: string }) {
  const run = useQuery(reportRunQuery(id));
  const kinds = useQuery(kindsQuery());
  const saved = useQuery(reportsQuery());
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<string | null>(null);

  if (run.error) return <ErrorBlock error={run.error} what="this report" onRetry={() => void run.refetch()} />;
  if (run.isPending) return <LoadingBlock label="Running the report…" rows={6} />;

  const { report } = run.data;
  const kind = kindByName(kinds.data, report.type);
  const editable = !!saved.data?.find((r) => r.id === id)?.editable;

  async function exportCsv() {
    setExporting(true);
    setExportError(null);
    try {
      saveDownload(await downloadReportCsv(id), `${report.name}.csv`);
    } catch (error) {
      setExportError(failureMessage(error));
    } finally {
      setExporting(false);
    }
  }

  return (
    <Stack gap="md">
      <div>
        <Text size="sm">
          <Anchor component={Link} to={paths.reportList}>
            Reports
          </Anchor>
          <Text span c="dimmed">
            {' '}
            / {kind?.plural ?? report.type}
          </Text>
        </Text>
        <Group justify="space-between" align="flex-end">
          <Title order={1}>{report.name}</Title>
          <Group gap="sm">
            <Button variant="default" loading={exporting} onClick={() => void exportCsv()}>
              Export CSV
            </Button>
            {editable && (
              <Button component={Link} to={reportEditPath(id)}>
                Edit
              </Button>
            )}
          </Group>
        </Group>
      </div>
      {exportError && (
        <Text c="red" size="sm" role="alert">
          The CSV could not be made: {exportError}
        </Text>
      )}
      <ReportResult run={run.data} chart={report.report?.chart ?? 'table'} title={report.name} kind={kind} kinds={kinds.data} busy={run.isFetching} />
    </Stack>
  );
}
