/**
 * The equipment section of a project's cost-details tab: the charges the external
 * equipment-charge service lists for the project, or, when the service failed, its
 * message in an alert (the vendor bills above still show).
 */
import { Alert, Stack, Text, Title } from '@mantine/core';
import { DataTable } from './DataTable';
import type { EquipmentSection } from './types';

export function EquipmentCharges({ section }: { section: EquipmentSection }) {
  return (
    <Stack gap="xs" component="section" aria-labelledby="equipment-charges" mt="md">
      <Title order={2} size="h4" id="equipment-charges">
        Equipment charges
      </Title>
      {section.error ? (
        <Alert color="red" variant="light" title="Could not load equipment charges" role="alert">
          {section.error}
        </Alert>
      ) : section.rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          No equipment charges yet.
        </Text>
      ) : (
        <DataTable caption="Equipment charges" columns={section.columns} rows={section.rows} />
      )}
    </Stack>
  );
}
