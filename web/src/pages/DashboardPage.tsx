import { Stack, Text, Title } from '@mantine/core';
import { useSessionStore } from '../session';

/** "Ada Admin" → "Ada". */
export function firstName(fullName: string | undefined): string {
  return fullName?.trim().split(/\s+/)[0] ?? '';
}

/** Dashboard (SPEC §2, model project). Its content comes with the records issues. */
export default function DashboardPage() {
  const fullName = useSessionStore((s) => s.user?.fullName);
  const roleName = useSessionStore((s) => s.currentRole?.name);
  const name = firstName(fullName);
  return (
    <Stack gap="xs">
      <Title order={1}>Dashboard</Title>
      <Text size="lg">{name ? `Welcome, ${name}.` : 'Welcome.'}</Text>
      {roleName && (
        <Text c="dimmed" data-testid="dashboard-role">
          You are working as {roleName}.
        </Text>
      )}
    </Stack>
  );
}
