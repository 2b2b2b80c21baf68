/**
 * The equipment section of a project's cost-details tab: the charges the external
 * equipment-charge service lists for the project, or, when the service failed, its
 * message in an alert (the vendor bills above still show). The service names no currency:
 * its rates and amounts are taken to be in the tenant's base currency.
 */
import { Alert, Stack, Text, Title } from '@mantine/core';
import { DataTable } from './DataTable';
import type { EquipmentSection } from './types';

/** `currency`: the tenant's base currency (kinds.ts baseCurrency), what the charges read in. */
export function EquipmentCharges({ section, currency }: { section: EquipmentSection; currency?: string }) {
  const columns = section.columns.map((c) => (c.type === 'money' && !c.currency && currency ? { ...c, currency } : c));
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
        <DataTable caption="Equipment charges" columns={columns} rows={section.rows} />
      )}
    </Stack>
  );
}
