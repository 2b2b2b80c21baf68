import { Alert, Button, Stack, Text } from '@mantine/core';

/**
 * A newer version of the record arrived (a live event) while the form has unsaved input:
 * offers to review it field by field, as after a conflict, before saving.
 */
export function NewerVersionNotice({ label, by, onReview }: { label: string; by: string | undefined; onReview: () => void }) {
  return (
    <Alert color="yellow" variant="light" role="status" title="A newer version was saved" data-testid="newer-version">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">
          {by ?? 'Someone'} saved this {label} while you were editing. Review their values beside yours before you save.
        </Text>
        <Button size="compact-sm" variant="default" onClick={onReview}>
          Review changes
        </Button>
      </Stack>
    </Alert>
  );
}
