import { Alert, Button, Group, List, Stack, Text } from '@mantine/core';
import type { Conflict, FormProblem } from './saveErrors';

/** After a 409 (or on reviewing a newer version): save the input over the values now, or load those. */
export function ConflictAlert({ conflict, saving, onLoadCurrent }: { conflict: Conflict; saving: boolean; onLoadCurrent: () => void }) {
  return (
    <Alert color="yellow" variant="light" title="Changed since you opened it" role="alert">
      <Stack gap="xs">
        <Text size="sm">{conflict.detail}</Text>
        <Group gap="xs">
          <Button type="submit" size="compact-sm" loading={saving}>
            Use my values and save again
          </Button>
          <Button size="compact-sm" variant="default" onClick={onLoadCurrent} disabled={saving}>
            Load the current values
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

/** A problem of the whole form, above its buttons: one sentence, or a list. */
export function ProblemAlert({ problem }: { problem: FormProblem }) {
  return (
    <Alert color={problem.title === 'Not allowed' ? 'yellow' : 'red'} variant="light" title={problem.title} role="alert">
      {problem.messages.length === 1 ? (
        <Text size="sm">{problem.messages[0]}</Text>
      ) : problem.messages.length > 1 ? (
        <List size="sm">
          {problem.messages.map((m) => (
            <List.Item key={m}>{m}</List.Item>
          ))}
        </List>
      ) : null}
    </Alert>
  );
}
