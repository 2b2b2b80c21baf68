import { Anchor, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useRouteMeta } from '../../app/meta';
import { paths } from '../../app/paths';

/** An honest page for a screen whose feature has not arrived yet: its title and a way home. */
export function ComingSoon({ children }: { children: ReactNode }) {
  const { title } = useRouteMeta();
  return (
    <Stack gap="md" maw={720}>
      <Title order={1}>{title}</Title>
      <Paper withBorder radius="md" p="lg">
        <Stack gap="xs">
          <Text fw={600}>Coming soon</Text>
          <Text c="dimmed">{children}</Text>
          <Anchor component={Link} to={paths.home} size="sm">
            Back to the dashboard
          </Anchor>
        </Stack>
      </Paper>
    </Stack>
  );
}
