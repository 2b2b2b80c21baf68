import { Alert, Text } from '@mantine/core';
import type { Kind } from '../records';
import { useEditingBy } from './hooks';

/**
 * "Pete Manager is editing": someone else has this record's edit form open. On the view
 * page their saved changes will show by themselves; on the edit form (`onForm`) it warns
 * before a conflict.
 */
export function EditingNotice({ kind, id, onForm = false }: { kind: Kind; id: number; onForm?: boolean }) {
  const editing = useEditingBy(kind.name, id);
  if (!editing) return null;
  const label = kind.label.toLowerCase();
  return (
    <Alert color="blue" variant="light" role="status" title={`${editing.user} is editing`} data-testid="editing-notice">
      <Text size="sm">
        {onForm
          ? `${editing.user} has this ${label} open to edit too. If they save first, you can review their values before saving yours.`
          : `${editing.user} has this ${label} open to edit. What they save shows here by itself.`}
      </Text>
    </Alert>
  );
}
