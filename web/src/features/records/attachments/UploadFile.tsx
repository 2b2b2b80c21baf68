import { Button, FileInput, Group, Paper, Progress, Stack, Text } from '@mantine/core';
import { useRef, useState, type FormEvent } from 'react';
import { formatBytes, formatPercent } from '../format';
import { FILE_EXTENSIONS, fileProblem, useUploadFile } from '../writes';
import type { Kind } from '../types';
import { additionProblem } from './problems';

const ACCEPT = FILE_EXTENSIONS.map((e) => `.${e}`).join(',');

/**
 * "Upload file" on a record's Files tab: a labelled file chooser, its button, and while it
 * goes a progress bar. The file is checked as the server checks it (an allowed type, not
 * empty, at most 5 MB) before it is sent; a failure says why and keeps the chosen file, so
 * "Upload file" tries again with the same Idempotency-Key (a file whose answer was lost is
 * not attached twice). Once attached the Files tab below lists it — in NetSuite mode as on
 * its way until NetSuite has it.
 */
export function UploadFile({ kind, id }: { kind: Kind; id: number }) {
  const upload = useUploadFile(kind.name, id);
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const submission = useRef<{ file: File; key: string } | null>(null);

  function choose(next: File | null) {
    setFile(next);
    setDone(null);
    setError(next ? fileProblem(next) : null);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    setDone(null);
    if (!file) return setError('Choose a file first.');
    const problem = fileProblem(file);
    if (problem) return setError(problem);
    setError(null);
    if (submission.current?.file !== file) submission.current = { file, key: crypto.randomUUID() };
    setProgress(0);
    upload.mutate(
      { file, key: submission.current.key, onProgress: (sent, total) => setProgress(total > 0 ? Math.round((sent / total) * 100) : null) },
      {
        onSuccess: (attached) => {
          setFile(null);
          submission.current = null;
          setDone(
            attached.write?.state === 'pending'
              ? `${attached.name} is attached; it is on its way to NetSuite.`
              : `${attached.name} is attached.`,
          );
        },
        onError: (failure) => setError(additionProblem(failure, 'file')),
        onSettled: () => setProgress(null),
      },
    );
  }

  return (
    <Paper withBorder radius="md" p="sm" component="form" onSubmit={submit} noValidate aria-label="Upload a file">
      <Stack gap="xs">
        <FileInput
          label="File to attach"
          description="PDF, image, text, CSV, Word, Excel or PowerPoint; at most 5 MB"
          placeholder="Choose a file…"
          accept={ACCEPT}
          value={file}
          onChange={choose}
          clearable
          error={error}
          disabled={upload.isPending}
        />
        {upload.isPending && file && (
          <Stack gap={4}>
            <Progress value={progress ?? 100} animated={progress === null} aria-label={`Uploading ${file.name}`} />
            <Text size="xs" c="dimmed">
              Uploading {file.name} ({formatBytes(file.size)}){progress !== null ? `: ${formatPercent(progress)}` : '…'}
            </Text>
          </Stack>
        )}
        <Group gap="sm">
          <Button type="submit" loading={upload.isPending} disabled={!file}>
            Upload file
          </Button>
          <Text size="sm" c="dimmed" role="status">
            {done ?? ''}
          </Text>
        </Group>
      </Stack>
    </Paper>
  );
}
