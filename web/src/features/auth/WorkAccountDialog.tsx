import { useState, type FormEvent } from 'react';
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';

export interface WorkAccountDialogProps {
  opened: boolean;
  initialEmail: string;
  validate(email: string): string | undefined;
  onCancel(): void;
  onSubmit(email: string): void;
}

/**
 * Emulator mode only: the work-account (Microsoft) sign-in cannot open its window
 * offline, so this dialog asks which work email to sign in as, and the identity emulator
 * accepts a simulated provider credential for it.
 */
export default function WorkAccountDialog({ opened, initialEmail, validate, onCancel, onSubmit }: WorkAccountDialogProps) {
  const [email, setEmail] = useState(initialEmail);
  const [submitted, setSubmitted] = useState(false);
  const error = submitted ? validate(email) : undefined;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitted(true);
    if (validate(email)) return;
    onSubmit(email.trim());
  }

  return (
    <Modal opened={opened} onClose={onCancel} title="Sign in with work account" centered>
      <form noValidate onSubmit={submit} aria-label="Simulated work-account sign-in">
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            This portal runs with the local identity emulator, so no Microsoft window opens. Enter the work email to sign in as.
          </Text>
          <TextInput
            label="Work email"
            name="work-email"
            type="email"
            inputMode="email"
            autoComplete="username"
            placeholder="name@company.com"
            required
            data-autofocus
            value={email}
            onChange={(event) => setEmail(event.currentTarget.value)}
            error={error}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onCancel}>
              Cancel
            </Button>
            <Button type="submit">Continue</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
