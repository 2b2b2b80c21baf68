/**
 * /feedback/submissions: what users sent through the feedback form, newest first, for
 * roles with feedback.admin — when, who, category, page, message, attachment (downloaded
 * through the API client) and where forwarding to the ERP stands. Filtered by category;
 * 50 rows at a time with "Load more".
 */
import { Anchor, Button, Group, NativeSelect, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { saveDownload, formatBytes, formatDateTime, EmptyBlock, ErrorBlock, LoadingBlock, RecordErrorBoundary, recordClasses } from '../records';
import { failureMessage } from '../reports';
import { categoryLabel, downloadAttachment, fetchSubmissions, FEEDBACK_CATEGORIES, type Submission } from '../feedback';
import { RequirePermission } from '../../components/RequirePermission';
import classes from './AdminPages.module.css';
import { recordsKey } from '../../lib/queryKeys';

export const ErrorBoundary = RecordErrorBoundary;

/** Rows shown at first and added by each "Load more". */
export const SUBMISSIONS_PAGE = 50;

export default function FeedbackSubmissionsPage() {
  return (
    <RequirePermission permission="feedback.admin" title="Feedback received" what="the feedback users sent">
      <Submissions />
    </RequirePermission>
  );
}

function AttachmentLink({ submission, onError }: { submission: Submission; onError: (message: string | null) => void }) {
  const [busy, setBusy] = useState(false);
  if (!submission.fileName) return null;
  async function download() {
    setBusy(true);
    onError(null);
    try {
      saveDownload(await downloadAttachment(submission.id), submission.fileName!);
    } catch (error) {
      onError(`${submission.fileName} could not be downloaded: ${failureMessage(error)}`);
    } finally {
      setBusy(false);
    }
  }
  return (
    <Anchor component="button" type="button" size="sm" disabled={busy} onClick={() => void download()}>
      {submission.fileName}
      <Text span size="xs" c="dimmed">
        {' '}
        ({formatBytes(submission.fileSize ?? 0)})
      </Text>
    </Anchor>
  );
}

/** Where forwarding to the ERP stands, as coloured text (the failure's reason as its title). */
function ErpState({ submission }: { submission: Submission }) {
  const [label, color] = submission.erpState === 'failed' ? ['Failed', 'red'] : submission.erpState === 'pending' ? ['Pending', 'yellow.8'] : ['Forwarded', 'teal'];
  return (
    <Text span size="sm" fw={500} c={color} title={submission.erpError}>
      {label}
    </Text>
  );
}

function Submissions() {
  const [category, setCategory] = useState('');
  const [shown, setShown] = useState(SUBMISSIONS_PAGE);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const submissions = useQuery({ queryKey: [...recordsKey(), 'feedback'], queryFn: ({ signal }) => fetchSubmissions(signal) });

  let body;
  const matching = (submissions.data ?? []).filter((s) => !category || s.category === category);
  if (submissions.error) body = <ErrorBlock error={submissions.error} what="the feedback received" onRetry={() => void submissions.refetch()} />;
  else if (submissions.isPending) body = <LoadingBlock label="Loading the feedback received…" rows={6} />;
  else if (matching.length === 0) body = <EmptyBlock title={category ? 'No feedback in this category' : 'No feedback yet'} />;
  else
    body = (
      <div className={recordClasses.tableWrap}>
        <Table verticalSpacing={6} horizontalSpacing="sm">
          <caption>
            <VisuallyHidden>Feedback received, newest first</VisuallyHidden>
          </caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">When</Table.Th>
              <Table.Th scope="col">From</Table.Th>
              <Table.Th scope="col">Category</Table.Th>
              <Table.Th scope="col">Page</Table.Th>
              <Table.Th scope="col">Message</Table.Th>
              <Table.Th scope="col">Attachment</Table.Th>
              <Table.Th scope="col">ERP</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {matching.slice(0, shown).map((s) => (
              <Table.Tr key={s.id} data-testid="submission-row">
                <Table.Td className={classes.nowrap}>{formatDateTime(s.at)}</Table.Td>
                <Table.Td>{s.user}</Table.Td>
                <Table.Td>{categoryLabel(s.category) ?? s.category}</Table.Td>
                <Table.Td>{s.page.startsWith('/') ? <Link to={s.page}>{s.page}</Link> : s.page}</Table.Td>
                <Table.Td className={classes.long}>{s.message}</Table.Td>
                <Table.Td>
                  <AttachmentLink submission={s} onError={setDownloadError} />
                </Table.Td>
                <Table.Td>
                  <ErpState submission={s} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </div>
    );

  return (
    <Stack gap="md">
      <Title order={1}>Feedback received</Title>
      <Group gap="sm" align="flex-end" role="search" aria-label="Filter the feedback">
        <NativeSelect
          label="Category"
          value={category}
          data={[{ value: '', label: 'Every category' }, ...FEEDBACK_CATEGORIES]}
          onChange={(e) => {
            setCategory(e.currentTarget.value);
            setShown(SUBMISSIONS_PAGE);
          }}
        />
      </Group>
      {downloadError && (
        <Text c="red" size="sm" role="alert">
          {downloadError}
        </Text>
      )}
      {body}
      {matching.length > shown && (
        <Group>
          <Button variant="default" onClick={() => setShown((n) => n + SUBMISSIONS_PAGE)}>
            Load more
          </Button>
        </Group>
      )}
    </Stack>
  );
}
