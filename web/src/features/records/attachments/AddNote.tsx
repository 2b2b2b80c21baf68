import { Button, Group, Paper, Stack, Text, Textarea } from '@mantine/core';
import { useRef, useState, type FormEvent } from 'react';
import { formatCount } from '../format';
import { MAX_NOTE, useAddNote } from '../writes';
import type { Kind } from '../types';
import { additionProblem } from './problems';


/**
 * "Add note" on a record's Notes tab: a labelled text area and its button. The note is
 * checked as the server checks it (not empty, at most {@link MAX_NOTE} characters) before
 * it is sent; a failure says why and keeps the text, and sending it again carries the same
 * Idempotency-Key, so a note whose answer was lost is not added twice. Once added, the
 * Notes tab below shows it (the answer is the tab's rows) and the text area empties.
 */
export function AddNote({ kind, id }: { kind: Kind; id: number }) {
  const add = useAddNote(kind.name, id);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [added, setAdded] = useState(false);
  const submission = useRef<{ text: string; key: string } | null>(null);
  const trimmed = text.trim();
  const length = [...trimmed].length;

  function submit(event: FormEvent) {
    event.preventDefault();
    setAdded(false);
    if (trimmed === '') return setError('Write the note first.');
    if (length > MAX_NOTE) return setError(`Keep the note under ${formatCount(MAX_NOTE + 1)} characters.`);
    setError(null);
    if (submission.current?.text !== trimmed) submission.current = { text: trimmed, key: crypto.randomUUID() };
    add.mutate(
      { note: trimmed, key: submission.current.key },
      {
        onSuccess: () => {
          setText('');
          submission.current = null;
          setAdded(true);
        },
        onError: (failure) => setError(additionProblem(failure, 'note')),
      },
    );
  }

  return (
    <Paper withBorder radius="md" p="sm" component="form" onSubmit={submit} noValidate aria-label="Add a note">
      <Stack gap="xs">
        <Textarea
          label="New note"
          description={`${formatCount(length)} / ${formatCount(MAX_NOTE)} characters`}
          placeholder={`What happened with this ${kind.label.toLowerCase()}?`}
          rows={3}
          resize="vertical"
          value={text}
          onChange={(event) => {
            setText(event.currentTarget.value);
            setAdded(false);
            if (error) setError(null);
          }}
          error={error}
          disabled={add.isPending}
        />
        <Group gap="sm">
          <Button type="submit" loading={add.isPending}>
            Add note
          </Button>
          <Text size="sm" c="dimmed" role="status">
            {added ? 'Note added.' : ''}
          </Text>
        </Group>
      </Stack>
    </Paper>
  );
}
