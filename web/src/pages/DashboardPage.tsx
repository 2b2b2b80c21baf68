import { Stack, Text, Title } from '@mantine/core';
import { useSessionStore } from '../session';

/** Dashboard (SPEC §2, model project). Its content comes with the records issues. */
export default function DashboardPage() {
  const fullName = useSessionStore((s) => s.user?.fullName);
  return (
    <Stack gap="xs">
      <Title order={1}>Dashboard</Title>
      <Text c="dimmed">{fullName ? `Welcome, ${fullName}.` : 'Welcome.'}</Text>
    </Stack>
  );
}
