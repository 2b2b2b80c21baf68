import { Button, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '../lib/paths';
import classes from './NotFoundPage.module.css';

export default function NotFoundPage() {
  return (
    <div className={classes.page}>
      <Stack align="center" gap="md" className={classes.content}>
        <Text className={classes.code} aria-hidden="true">
          404
        </Text>
        <Title order={1}>Page not found</Title>
        <Text c="dimmed" ta="center">
          The page you asked for does not exist or has moved.
        </Text>
        <Button component={Link} to={paths.home} size="md" mt="sm">
          Back to home
        </Button>
      </Stack>
    </div>
  );
}
