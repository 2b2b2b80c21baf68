import { Alert, Text } from '@mantine/core';
import type { Kind, WriteState } from '../types';

/**
 * Where the portal's last write of a record stands with the ERP, on its view page:
 * nothing while in sync; "pending" while the change is on its way to NetSuite (the page
 * shows the portal's values meanwhile); "failed" with NetSuite's message, the portal's
 * values not being NetSuite's.
 */
export function WriteStateNotice({ kind, write }: { kind: Kind; write: WriteState | undefined }) {
  const label = kind.label.toLowerCase();
  if (write?.state === 'pending') {
    return (
      <Alert color="blue" variant="light" title="Saving to NetSuite" role="status" data-testid="write-state">
        <Text size="sm">The last change to this {label} is on its way to NetSuite. This page shows it already; NetSuite has it shortly.</Text>
      </Alert>
    );
  }
  if (write?.state === 'failed') {
    return (
      <Alert color="red" variant="light" title="NetSuite did not take the last change" role="alert" data-testid="write-state">
        <Text size="sm">
          {write.error ? `NetSuite answered: ${write.error}` : 'NetSuite refused it.'} Edit the {label} to correct it, or ask an administrator.
        </Text>
      </Alert>
    );
  }
  return null;
}
