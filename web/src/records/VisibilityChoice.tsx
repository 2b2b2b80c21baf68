import { Radio, Stack } from '@mantine/core';
import type { Visibility } from './types';

export interface VisibilityChoiceProps {
  /** What is shared: "list", "report". */
  noun: string;
  value: Visibility;
  onChange: (value: Visibility) => void;
  /** The current role's name, for the shared choice. */
  roleName?: string;
  error?: string;
}

/**
 * Who sees a saved list or report: only its owner, or everyone working in the current
 * role (the server's `private` and `role` visibility).
 */
export function VisibilityChoice({ noun, value, onChange, roleName, error }: VisibilityChoiceProps) {
  return (
    <Radio.Group label={`Who sees this ${noun}`} value={value} onChange={(v) => onChange(v === 'role' ? 'role' : 'private')} error={error}>
      <Stack gap={6} mt={6}>
        <Radio value="private" label="Only me" />
        <Radio value="role" label={`Everyone working as ${roleName ?? 'my current role'}`} />
      </Stack>
    </Radio.Group>
  );
}
