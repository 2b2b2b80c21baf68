/**
 * The list page's filter bar: the builder (or the raw expression) with Apply and Clear,
 * and the server's message when it refused the filter, right beside the user's input.
 */
import { Alert, Button, Group, Paper, Stack } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { checkDraft, draftFor, FilterBuilder, type DraftCheck, type FilterDraft } from './FilterBuilder';
import type { KindField } from './types';

export interface ListFilterBarProps {
  fields: KindField[];
  /** The applied expression (from the URL). */
  value: string;
  onApply: (expression: string) => void;
  /** The server's message about the applied filter (a 400), if it refused it. */
  serverError?: string | null;
}

/**
 * Re-mount it (key) when the applied expression changes from outside (Back), so the
 * draft starts from what is applied.
 */
export function ListFilterBar({ fields, value, onApply, serverError }: ListFilterBarProps) {
  const [draft, setDraft] = useState<FilterDraft>(() => draftFor(value, fields));
  const [check, setCheck] = useState<DraftCheck | null>(null);

  function apply(event: FormEvent) {
    event.preventDefault();
    const result = checkDraft(draft, fields);
    setCheck(result);
    if (result.expression !== undefined) onApply(result.expression);
  }

  function clear() {
    setDraft({ mode: draft.mode, clauses: [], text: '' });
    setCheck(null);
    onApply('');
  }

  return (
    <Paper withBorder p="sm" radius="md" component="form" onSubmit={apply} aria-label="Filter" noValidate>
      <Stack gap="sm">
        <FilterBuilder id="list-filter" fields={fields} draft={draft} onChange={setDraft} check={check} />
        {serverError && (
          <Alert color="red" variant="light" title="The server refused this filter" role="alert" data-testid="filter-error">
            {serverError}
          </Alert>
        )}
        <Group gap="xs">
          <Button type="submit" size="sm">
            Apply filter
          </Button>
          {(value !== '' || draft.clauses.length > 0 || draft.text !== '') && (
            <Button variant="default" size="sm" onClick={clear}>
              Clear filter
            </Button>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}
