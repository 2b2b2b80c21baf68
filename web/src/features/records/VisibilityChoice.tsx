import { Radio, Stack } from '@mantine/core';
import { useSessionStore } from '../../lib/session/store';
import type { Visibility } from './types';

/** The permission that lets a role share lists and reports with everyone in it (the server's records.PermEditLists). */
export const SHARE_PERMISSION = 'lists.edit';

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
 * role (the server's `private` and `role` visibility). Sharing needs the role's
 * `lists.edit` permission (the server refuses it otherwise): without it the shared
 * choice is disabled and says why.
 */
export function VisibilityChoice({ noun, value, onChange, roleName, error }: VisibilityChoiceProps) {
  const canShare = useSessionStore((s) => !!s.currentRole?.permissions.includes(SHARE_PERMISSION));
  return (
    <Radio.Group label={`Who sees this ${noun}`} value={value} onChange={(v) => onChange(v === 'role' ? 'role' : 'private')} error={error}>
      <Stack gap={6} mt={6}>
        <Radio value="private" label="Only me" />
        <Radio
          value="role"
          label={`Everyone working as ${roleName ?? 'my current role'}`}
          disabled={!canShare}
          description={canShare ? undefined : `Your role may not share a ${noun} with everyone in it.`}
        />
      </Stack>
    </Radio.Group>
  );
}
