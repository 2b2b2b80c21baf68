import { Alert, Button, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { EditingNotice, useEditingPresence } from '../../events';
import { formatValue } from '../format';
import { listPath, viewPath } from '../links';
import type { Kind, RecordDetail } from '../types';
import { FieldInput } from './FieldInput';
import { LeaveGuard } from './LeaveGuard';
import { NewerVersionNotice } from './NewerVersionNotice';
import { ConflictAlert, ProblemAlert } from './RecordFormAlerts';
import { formFields } from './schema';
import { useRecordForm } from './useRecordForm';

export interface RecordFormProps {
  kind: Kind;
  /** The record edited; none on a create form. */
  record?: RecordDetail;
}

/**
 * The create or edit form of a record, generated from the kind's fields (see FieldInput).
 *
 * - Offers every field of the kind (promoted, document and account fields), each with the
 *   control of its type; system fields (ids, balances: `readOnly`) are shown read-only on
 *   edit and left out on create.
 * - Checks every field with the form schema on submit, and a changed field when it loses
 *   focus; the first field in error takes the focus. Nothing is sent while one is wrong.
 * - An edit with nothing changed is not sent: Save is off and the form says "No changes to
 *   save". Should the server find nothing to change all the same (`unchanged`), it says so
 *   and nothing was written.
 * - A create sends every field a user may set; an edit the fields changed (after a 409,
 *   those that differ from what is saved now), with the version it was opened at. The
 *   server's field errors (422) show under their fields, other problems (403, 400, no
 *   connection) above the buttons; the input stays as typed.
 * - A 409 (changed meanwhile) keeps the input, shows under each field the value saved now
 *   where it differs, and offers to save the input over it (with the new version) or to
 *   load the current values.
 * - While open, others are told so (and the form says who else has it open). When a newer
 *   version arrives (live events refetch the record), an untouched form takes it; one with
 *   input offers to review it, which enters the same view as a 409, before any save.
 * - Saved: the record's view page opens, with a success alert.
 * - Leaving with unsaved changes asks first (LeaveGuard); the form's sub-tabs do not.
 */
export function RecordForm({ kind, record }: RecordFormProps) {
  const {
    formRef,
    label,
    values,
    shownValues,
    errors,
    problem,
    conflict,
    newer,
    nothingSaved,
    dirty,
    saving,
    choosable,
    moneyCurrency,
    savedMeanwhile,
    change,
    blur,
    submit,
    reviewNewer,
    loadCurrent,
    allows,
  } = useRecordForm(kind, record);
  useEditingPresence(kind.name, record?.id);

  const cancelTo = record ? (viewPath(kind, record.id) ?? listPath(kind)) : listPath(kind);
  return (
    <form ref={formRef} onSubmit={submit} noValidate aria-label={record ? `Edit ${label}` : `New ${label}`}>
      <Stack gap="md">
        {record && <EditingNotice kind={kind} id={record.id} onForm />}
        {newer && <NewerVersionNotice label={label} by={newer.by} onReview={reviewNewer} />}
        <Paper withBorder radius="md" p="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
            {formFields(kind, !record).map((field) => (
              <FieldInput
                key={field.name}
                field={choosable(field) ? field : { ...field, readOnly: true }}
                value={values[field.name] ?? null}
                onChange={(value) => change(field.name, value)}
                onBlur={(event) => blur(field.name, event.relatedTarget)}
                error={errors[field.name]}
                description={savedMeanwhile(field.name) ?? (choosable(field) ? undefined : 'Your role cannot look these records up')}
                disabled={saving}
                shown={field.readOnly || !choosable(field) ? formatValue(shownValues[field.name], field.type, { currency: moneyCurrency(field) }) : undefined}
                currency={moneyCurrency(field)}
              />
            ))}
          </SimpleGrid>
        </Paper>

        {conflict && <ConflictAlert conflict={conflict} saving={saving} onLoadCurrent={loadCurrent} />}

        {problem && <ProblemAlert problem={problem} />}

        {nothingSaved && (
          <Alert color="blue" variant="light" title="No changes to save" role="status">
            <Text size="sm">The {label} already has these values: nothing was saved.</Text>
          </Alert>
        )}

        <Group gap="sm">
          <Button type="submit" loading={saving} disabled={!!record && !dirty && !conflict}>
            {record ? 'Save changes' : `Create ${label}`}
          </Button>
          <Button component={Link} to={cancelTo} variant="default">
            Cancel
          </Button>
          <Text size="sm" c="dimmed" role="status">
            {dirty ? 'Unsaved changes' : record && !conflict ? 'No changes to save' : ''}
          </Text>
        </Group>
      </Stack>
      <LeaveGuard dirty={dirty} allows={allows} />
    </form>
  );
}
