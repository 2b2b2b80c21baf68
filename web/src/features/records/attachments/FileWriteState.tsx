import { Badge, Text } from '@mantine/core';
import type { FileInfo } from '../types';

/**
 * Beside a file the portal added that NetSuite does not have yet: "On its way to NetSuite",
 * or "Refused by NetSuite" with NetSuite's words (the record's page offers retry and
 * discard). Nothing for a file NetSuite has.
 */
export function FileWriteState({ file }: { file: FileInfo }) {
  if (!file.write?.state) return null;
  if (file.write.state === 'pending') {
    return (
      <Badge color="yellow" variant="light" size="sm" ml="xs">
        On its way to NetSuite
      </Badge>
    );
  }
  return (
    <>
      <Badge color="red" variant="light" size="sm" ml="xs">
        Refused by NetSuite
      </Badge>
      {file.write.error && (
        <Text size="xs" c="red" component="span" ml={4}>
          {file.write.error}
        </Text>
      )}
    </>
  );
}
