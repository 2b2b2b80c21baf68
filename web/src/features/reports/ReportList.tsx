/**
 * /reports/list: the reports the user may see (their own and their role's), each with its
 * kind, chart and who sees it; open, edit and delete (with a confirmation) the ones they
 * may change; "New report".
 */
import { Anchor, Button, Group, Modal, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { paths, reportPath } from '../../lib/paths';
import { kindByName, kindsQuery, EmptyBlock, ErrorBlock, LoadingBlock, recordClasses } from '../records';
import { CHARTS, aggregateLabel } from './builder';
import { failureMessage } from './http';
import { reportsQuery, useDeleteReport } from './queries';
import type { Report } from './types';

/** /reports/{id}?edit=1 opens a report in the builder. */
export const EDIT_PARAM = 'edit';

export function reportEditPath(id: string): string {
  return `${reportPath(id)}?${EDIT_PARAM}=1`;
}

export function ReportList() {
  const reports = useQuery(reportsQuery());
  const kinds = useQuery(kindsQuery());
  const remove = useDeleteReport();
  const [deleting, setDeleting] = useState<Report | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);

  async function confirmDelete() {
    if (!deleting) return;
    try {
      await remove.mutateAsync({ type: deleting.type, id: deleting.id });
      setDeleteError(null);
    } catch (error) {
      setDeleteError(failureMessage(error));
    }
    setDeleting(null);
  }

  let body;
  if (reports.error) body = <ErrorBlock error={reports.error} what="your reports" onRetry={() => void reports.refetch()} />;
  else if (reports.isPending) body = <LoadingBlock label="Loading your reports…" rows={4} />;
  else if (reports.data.length === 0)
    body = (
      <EmptyBlock title="No reports yet">
        <Text size="sm" c="dimmed">
          A report groups and sums records of a kind, with a chart.
        </Text>
      </EmptyBlock>
    );
  else
    body = (
      <div className={recordClasses.tableWrap}>
        <Table verticalSpacing={6} horizontalSpacing="sm">
          <caption>
            <VisuallyHidden>Your reports</VisuallyHidden>
          </caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Name</Table.Th>
              <Table.Th scope="col">Records</Table.Th>
              <Table.Th scope="col">Shows</Table.Th>
              <Table.Th scope="col">Chart</Table.Th>
              <Table.Th scope="col">Who sees it</Table.Th>
              <Table.Th scope="col">
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {reports.data.map((r) => {
              const kind = kindByName(kinds.data, r.type);
              const group = kind?.fields.find((f) => f.name === r.report.groupBy);
              return (
                <Table.Tr key={r.id} data-testid="report-row">
                  <Table.Td>
                    <Anchor component={Link} to={reportPath(r.id)}>
                      {r.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{kind?.plural ?? r.type}</Table.Td>
                  <Table.Td>{group ? `${r.report.aggregates.map((a) => aggregateLabel(a, kind)).join(', ')} by ${group.label.toLowerCase()}` : 'Records'}</Table.Td>
                  <Table.Td>{CHARTS.find((c) => c.value === r.report.chart)?.label ?? r.report.chart}</Table.Td>
                  <Table.Td>{r.visibility === 'role' ? 'Shared with the role' : 'Only me'}</Table.Td>
                  <Table.Td>
                    {r.editable && (
                      <Group gap={4} wrap="nowrap" justify="flex-end">
                        <Button component={Link} to={reportEditPath(r.id)} size="compact-sm" variant="subtle" aria-label={`Edit ${r.name}`}>
                          Edit
                        </Button>
                        <Button size="compact-sm" variant="subtle" color="red" aria-label={`Delete ${r.name}`} onClick={() => setDeleting(r)}>
                          Delete
                        </Button>
                      </Group>
                    )}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </div>
    );

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <Title order={1}>Reports</Title>
        <Button component={Link} to={paths.reportCreate}>
          New report
        </Button>
      </Group>
      {deleteError && (
        <Text c="red" size="sm" role="alert">
          {deleteError}
        </Text>
      )}
      {body}
      <Modal opened={!!deleting} onClose={() => setDeleting(null)} title={`Delete “${deleting?.name ?? ''}”?`} centered>
        <Stack gap="md">
          <Text size="sm">{deleting?.visibility === 'role' ? 'Everyone in the role loses this report.' : 'The report goes for good.'} The records themselves stay.</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setDeleting(null)} data-autofocus>
              Keep it
            </Button>
            <Button color="red" loading={remove.isPending} onClick={() => void confirmDelete()}>
              Delete
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
